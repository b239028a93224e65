import Foundation
import XCTest

/// A private tmux server (its own socket) for driving the real TUI: start sessions, send keys, read screens.
/// `stop()` (or deinit) kills the server, which hangs up on its panes, and removes the socket file tmux leaves.
public final class Tmux {
    public let socket: String
    private var stopped = false
    private var serverHeld = false

    public init(prefix: String = "ttt-e2e") throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw XCTSkip("tmux is not installed (make deps installs it)")
        }
        socket = "\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    deinit { stop() }

    public func stop() {
        guard !stopped else { return }
        stopped = true
        try? spawnQuietly(["/usr/bin/tmux", "-L", socket, "-f", "/dev/null", "kill-server"])
        let base = ProcessInfo.processInfo.environment["TMUX_TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        unlink("\(base)/tmux-\(getuid())/\(socket)")
    }

    /// Runs a tmux client command and returns what it printed. A command that may start the server must not
    /// capture output (`capture: false`): the daemonised server would inherit the pipe and keep it open.
    @discardableResult
    public func run(_ arguments: [String], capture: Bool = true) throws -> String {
        let argv = ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments
        guard capture else {
            try spawnQuietly(argv)
            return ""
        }
        return try runToEnd(argv[0], Array(argv.dropFirst())).output
    }

    /// Starts `command` (a shell command line) in a new session named `name`, 100x30 unless told.
    public func start(_ name: String, _ command: String, columns: Int = 100, rows: Int = 30) throws {
        if !serverHeld {
            // tmux's server quits when its last session ends: a test that quits one app and then starts the next
            // could reach a server on its way out ("no server running"). A session that only sleeps holds the
            // server until `stop()`.
            try run(["new-session", "-d", "-s", "tmux-server-hold", "-x", "20", "-y", "5", "sleep 86400"],
                    capture: false)
            serverHeld = true
        }
        try run(["new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), command], capture: false)
    }

    /// tmux key names ("Enter", "Down", "C-c") or single characters.
    public func keys(_ name: String, _ keys: String...) throws {
        try run(["send-keys", "-t", name] + keys)
    }

    public func literal(_ name: String, _ text: String) throws {
        try run(["send-keys", "-t", name, "-l", text])
    }

    public func screen(_ name: String) -> String {
        (try? run(["capture-pane", "-p", "-t", name])) ?? ""
    }

    /// Waits until the pane shows text satisfying `predicate`; returns the screen (or nil after `timeout`).
    @discardableResult
    public func waitFor(_ name: String, timeout: TimeInterval = 15, _ predicate: (String) -> Bool) -> String? {
        var text = ""
        let shown = eventually(timeout: timeout) {
            text = screen(name)
            return predicate(text)
        }
        return shown ? text : nil
    }

    @discardableResult
    public func waitFor(_ name: String, text: String, timeout: TimeInterval = 15) -> String? {
        waitFor(name, timeout: timeout) { $0.contains(text) }
    }

    /// The pid of the program running in the pane (the pane's first process).
    public func panePID(_ name: String) -> Int32? {
        Int32((try? run(["list-panes", "-t", name, "-F", "#{pane_pid}"]))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    }
}

/// `text` with every run of whitespace (line breaks included) made one space: a sentence the screen wrapped reads whole.
public func collapse(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

/// A screen's text with the box-drawing │ removed and whitespace collapsed.
public func screenWords(_ screen: String) -> String { collapse(screen.replacingOccurrences(of: "│", with: " ")) }
