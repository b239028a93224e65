import Foundation
import TicTacToeTestSupport
import XCTest

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
