import Foundation
import TicTacToeTestSupport
import XCTest

/// The command line that runs the TUI in a pane with fresh state, data and privacy directories and a UTF-8 locale, in
/// English unless `language` says otherwise (the value of LANGUAGE: the tests' own locale never changes the text).
/// These panes run in the machine's own network namespace: TICTACTOE_BONJOUR=off keeps Bonjour (mDNS) out.
/// The games the TUI saves go to `dataDirectory` (`XDG_DATA_HOME`), by default a temporary one of this test process:
/// never the account's own.
func tuiCommand(
    _ arguments: String, configDirectory: String? = nil, dataDirectory: String? = nil, language: String = "en"
) -> String {
    let state = Scratch.path("tictactoe-tui-state-\(getpid())")
    let data = dataDirectory ?? Scratch.path("tictactoe-tui-data-\(getpid())")
    let config = configDirectory ?? freshConfigDirectory()
    return "env LANG=C.UTF-8 LC_ALL=C.UTF-8 LANGUAGE=\(language) XDG_STATE_HOME=\(state) XDG_DATA_HOME=\(data) "
        + "TICTACTOE_CONFIG_DIR=\(config) TICTACTOE_BONJOUR=off \(tictactoeBinary) \(arguments)"
}

/// A new, empty directory for the local network decision (nothing decided yet).
func freshConfigDirectory() -> String {
    let path = Scratch.path("tictactoe-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

extension Tmux {
    /// Plays the pane's side until `over` shows: tries every cell in turn while it is the pane's turn, each key once
    /// the screen has shown what the one before did (a taken cell changes nothing: the wait for it gives up).
    func playUntilOver(_ pane: String, over: String) -> String? {
        for _ in 0..<3 {
            for cell in 1...9 {
                guard let screen = waitFor(pane, timeout: 10, { $0.contains("Your turn") || $0.contains(over) })
                else { return nil }
                if screen.contains(over) { return screen }
                try? keys(pane, String(cell))
                _ = waitFor(pane, timeout: 2) { $0 != screen || $0.contains(over) }
            }
        }
        return waitFor(pane, text: over)
    }

    /// Starts the TUI in `pane` as `name`, hosts a game on a port the system picks (answering the prompt OK), and
    /// returns that port, read from the waiting screen.
    func hostOnAFreePort(_ pane: String, as name: String) throws -> String {
        try start(pane, tuiCommand("--name \(name)"))
        XCTAssertNotNil(waitFor(pane, text: "Host a game"), screen(pane))
        try keys(pane, "h")
        XCTAssertNotNil(waitFor(pane, text: "Port"), screen(pane))
        try keys(pane, "BSpace", "BSpace", "BSpace", "BSpace")
        try literal(pane, "0")
        try keys(pane, "Enter")
        XCTAssertNotNil(waitFor(pane, text: "[ OK ]"), screen(pane))
        try keys(pane, "o")
        let waiting = try XCTUnwrap(waitFor(pane, text: "Waiting for someone to join on port"), screen(pane))
        return try XCTUnwrap(waiting.range(of: #"port (\d+)"#, options: .regularExpression).map {
            String(waiting[$0].dropFirst(5))
        })
    }

    /// Starts the TUI in `pane` as `name` and joins `address` from Join by address (Enter pressed).
    func joinByAddress(_ pane: String, as name: String, _ address: String) throws {
        try start(pane, tuiCommand("--name \(name)"))
        XCTAssertNotNil(waitFor(pane, text: "Join by address"), screen(pane))
        try keys(pane, "a")
        XCTAssertNotNil(waitFor(pane, text: "Address"), screen(pane))
        try literal(pane, address)
        try keys(pane, "Enter")
    }
}
