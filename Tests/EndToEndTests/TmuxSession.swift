import Foundation
import XCTest

/// A private tmux server (its own socket) with one session per window, for driving the real TUI.
final class Tmux {
    let socket = "ttt-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw XCTSkip("tmux is not installed (make deps installs it)")
        }
    }

    deinit {
        _ = try? run(["kill-server"], capture: false)
        unlink("/tmp/tmux-\(getuid())/\(socket)")  // tmux leaves its socket file behind
    }

    /// Runs a tmux client command and returns what it printed. A command that may start the server must not
    /// capture output (`capture: false`): the daemonised server would inherit the pipe and keep it open.
    @discardableResult
    func run(_ arguments: [String], capture: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        process.standardInput = FileHandle.nullDevice
        guard capture else {
            // Foundation's Process waits for descriptors the daemonised tmux server inherits, and would hang:
            // spawn and reap the client directly.
            try spawnAndWait(["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments)
            return ""
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts `command` (a shell command line) in a new 100x30 session.
    func start(_ name: String, _ command: String) throws {
        try run(["new-session", "-d", "-s", name, "-x", "100", "-y", "30", command], capture: false)
    }

    func keys(_ name: String, _ keys: String...) throws {
        try run(["send-keys", "-t", name] + keys)
    }

    func literal(_ name: String, _ text: String) throws {
        try run(["send-keys", "-t", name, "-l", text])
    }

    func screen(_ name: String) -> String {
        (try? run(["capture-pane", "-p", "-t", name])) ?? ""
    }

    /// Waits until the pane shows text satisfying `predicate`; returns the screen (or nil after `timeout`).
    @discardableResult
    func waitFor(_ name: String, timeout: TimeInterval = 15, _ predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = screen(name)
            if predicate(text) { return text }
            usleep(100_000)
        }
        return nil
    }

    func waitFor(_ name: String, text: String, timeout: TimeInterval = 15) -> String? {
        waitFor(name, timeout: timeout) { $0.contains(text) }
    }

    /// The pid of the program running in the pane (the pane's first process).
    func panePID(_ name: String) -> Int32? {
        Int32((try? run(["list-panes", "-t", name, "-F", "#{pane_pid}"]))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    }
}

/// Runs a program with /dev/null for its standard streams and waits for it (posix_spawn + waitpid).
func spawnAndWait(_ arguments: [String]) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] {
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
    guard result == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(result)) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
}

/// The command line that runs the TUI in a pane with fresh state and privacy directories and a UTF-8 locale.
/// These panes run in the machine's own network namespace: TICTACTOE_BONJOUR=off keeps Bonjour (mDNS) out.
func tuiCommand(_ arguments: String, configDirectory: String? = nil) -> String {
    let state = NSTemporaryDirectory() + "tictactoe-tui-state-\(getpid())"
    let config = configDirectory ?? freshConfigDirectory()
    return "env LANG=C.UTF-8 LC_ALL=C.UTF-8 XDG_STATE_HOME=\(state) TICTACTOE_CONFIG_DIR=\(config) TICTACTOE_BONJOUR=off "
        + "\(tictactoeBinary) \(arguments)"
}

/// A new, empty directory for the local network decision (nothing decided yet).
func freshConfigDirectory() -> String {
    let path = NSTemporaryDirectory() + "tictactoe-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
