import Foundation
import TicTacToeTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// tmux for the lab's TUIs: the shared driver (TicTacToeTestSupport). tmux itself runs in the machine's own
/// namespace; each pane's command is `lan exec HOST -- …`, so only the program in the pane runs on the lab host.
typealias LabTmux = Tmux

extension Tmux {
    /// A private tmux server for lab TUIs.
    static func lab() throws -> Tmux { try Tmux(prefix: "ttt-lab-tui") }
}

/// The full-screen TUI running on a lab host in a tmux pane, with its own local network decision directory, state
/// directory (debug log) and a marker in its environment to find its pid inside the host's namespace.
final class LabTUI {
    let tmux: LabTmux
    let session: String
    let host: String
    let configDirectory: String
    let logFile: String
    let stateDirectory: String
    let marker = "tui-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    private(set) var pid: pid_t?

    /// Starts `tictactoe ARGS` on `host` in a new tmux session of `tmux` (LANGUAGE `language`, 100x30 unless told).
    init(tmux: LabTmux, session: String, on host: String, configDirectory: String, arguments: [String],
         language: String = "en", columns: Int = 100, rows: Int = 30) throws {
        self.tmux = tmux
        self.session = session
        self.host = host
        self.configDirectory = configDirectory
        let state = Scratch.path("tictactoe-lab-tui-state-\(marker)")
        stateDirectory = state
        logFile = state + "/tictactoe/tictactoe.log"
        let words = ["/bin/bash", Lab.script, "exec", host, "--", "env", "-u", "TICTACTOE_BONJOUR",
                     "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "LANGUAGE=\(language)", "XDG_STATE_HOME=\(state)",
                     "XDG_DATA_HOME=\(state)/data",
                     "TICTACTOE_CONFIG_DIR=\(configDirectory)", "TICTACTOE_LAB_TUI=\(marker)",
                     tictactoeBinary, "--log-file", logFile] + arguments
        try tmux.start(session, words.map(shellQuote).joined(separator: " "), columns: columns, rows: rows)
    }

    var screen: String { tmux.screen(session) }

    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 15) -> String? { tmux.waitFor(session, text: text, timeout: timeout) }

    @discardableResult
    func waitFor(timeout: TimeInterval = 15, _ predicate: (String) -> Bool) -> String? {
        tmux.waitFor(session, timeout: timeout, predicate)
    }

    func keys(_ keys: String...) throws { try tmux.run(["send-keys", "-t", session] + keys) }
    func literal(_ text: String) throws { try tmux.literal(session, text) }

    /// The TUI's pid inside the host's namespace: the `tictactoe` process there carrying this TUI's marker.
    func findPID(timeout: TimeInterval = 15) -> pid_t? {
        if let pid { return pid }
        func isThisTUI(_ candidate: pid_t) -> Bool {
            guard let comm = try? String(contentsOfFile: "/proc/\(candidate)/comm", encoding: .utf8),
                  comm.trimmingCharacters(in: .whitespacesAndNewlines) == "tictactoe",
                  let environment = FileManager.default.contents(atPath: "/proc/\(candidate)/environ")
            else { return false }
            let variables = environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return variables.contains("TICTACTOE_LAB_TUI=\(marker)")
        }
        var found: pid_t?
        _ = eventually(timeout: timeout) {
            found = namespacePIDs(of: host).first(where: isThisTUI)
            return found != nil
        }
        pid = found
        return found
    }

    /// Whether the TUI process found by `findPID` still runs.
    var isRunning: Bool { pid.map(isTUIProcess) ?? false }

    /// What the TUI's descriptors point at (`readlink /proc/PID/fd/*`).
    func descriptorTargets() -> [String] {
        guard let pid else { return [] }
        let directory = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)") }
    }

    /// The TUI's open sockets (`socket:[inode]` descriptors; its terminal is a /dev/pts device, not a socket).
    func sockets() -> [String] { descriptorTargets().filter { $0.hasPrefix("socket:") } }

    var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// The text inside the modal prompt's box (between the first and last │ of each row), whitespace collapsed.
    func promptText() -> String {
        let rows = screen.split(separator: "\n").compactMap { row -> String? in
            guard let first = row.firstIndex(of: "│"), let last = row.lastIndex(of: "│"), first < last else { return nil }
            return String(row[row.index(after: first)..<last])
        }
        return collapse(rows.joined(separator: " "))
    }

    /// Ends the TUI: SIGKILL to its pid (if it still runs on the host), then the tmux session; removes its state
    /// directory (the debug log).
    func stop() {
        if let pid = pid ?? findPID(timeout: 0.3), isTUIProcess(pid) { kill(pid, SIGKILL) }
        _ = try? tmux.run(["kill-session", "-t", session])
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }

    private func isTUIProcess(_ pid: pid_t) -> Bool {
        guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
        return environment.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "TICTACTOE_LAB_TUI=\(marker)" }
    }
}

/// Whitespace runs (newlines included) as single spaces, trimmed.

func shellQuote(_ word: String) -> String {
    if !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || "-_./=:@,+".contains($0) }) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// The pids in a lab host's network namespace (`ip netns pids ttt-NAME-HOST`).
func namespacePIDs(of host: String) -> [pid_t] {
    let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let output = try? runToEnd(ip ?? "/usr/sbin/ip", ["netns", "pids", Lab.namespace(of: host)], errors: false).output
    else { return [] }
    return output.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
}
