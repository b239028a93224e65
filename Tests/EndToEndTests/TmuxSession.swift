import Foundation
import TicTacToeTestSupport

/// The command line that runs the TUI in a pane with fresh state, data and privacy directories (nothing decided yet)
/// and a UTF-8 locale, in English (LANGUAGE: the tests' own locale never changes the text). These panes run in the
/// machine's own network namespace: TICTACTOE_BONJOUR=off keeps Bonjour (mDNS) out. The games the TUI saves go to a
/// temporary directory of this test process (`XDG_DATA_HOME`): never the account's own.
func tuiCommand(_ arguments: String) -> String {
    let state = Scratch.path("tictactoe-tui-state-\(getpid())")
    let data = Scratch.path("tictactoe-tui-data-\(getpid())")
    let config = Scratch.path("tictactoe-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try? FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
    return "env LANG=C.UTF-8 LC_ALL=C.UTF-8 LANGUAGE=en XDG_STATE_HOME=\(state) XDG_DATA_HOME=\(data) "
        + "TICTACTOE_CONFIG_DIR=\(config) TICTACTOE_BONJOUR=off \(tictactoeBinary) \(arguments)"
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
}
