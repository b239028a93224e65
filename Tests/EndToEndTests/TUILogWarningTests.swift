import Foundation
import TicTacToeTestSupport
import XCTest

/// The full-screen game with a log file that fails (tmux): the warning is one line in the status line, never written
/// over the curses screen, and the game goes on.
final class TUILogWarningTests: XCTestCase {
    func testALogFileThatCannotBeOpenedIsAWarningInTheStatusLine() throws {
        let tmux = try Tmux()
        try tmux.start("solo", tuiCommand("--name solo --log-file /proc/tictactoe-no-such-dir/tictactoe.log"))
        let screen = try XCTUnwrap(
            tmux.waitFor("solo", text: "Warning: cannot open the log file /proc/tictactoe-no-such-dir"), tmux.screen("solo"))
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let warningRows = lines.indices.filter { lines[$0].contains("Warning: cannot") }
        XCTAssertEqual(warningRows.count, 1, screen)
        XCTAssertTrue(screen.contains("Play against the computer"), "the menu is intact:\n\(screen)")
        // The game goes on: the menu still answers.
        try tmux.keys("solo", "p")
        XCTAssertNotNil(tmux.waitFor("solo", text: "Score: you 0"), tmux.screen("solo"))
    }

    func testALogFileOnAFullDiskIsAWarningInTheStatusLineOnceSomethingIsLogged() throws {
        let tmux = try Tmux()
        try tmux.start("solo", tuiCommand("--name solo --log-file /dev/full"))
        XCTAssertNotNil(tmux.waitFor("solo", text: "Play against the computer"), tmux.screen("solo"))
        try tmux.keys("solo", "s")  // Search for games: the privacy prompt, and log lines about it
        let screen = try XCTUnwrap(
            tmux.waitFor("solo", text: "Warning: cannot write the log file /dev/full (No space left on device)"),
            tmux.screen("solo"))
        XCTAssertTrue(screen.contains("Don't Allow"), "the prompt is intact:\n\(screen)")
        XCTAssertEqual(screen.components(separatedBy: "Warning: cannot").count - 1, 1, screen)
    }
}
