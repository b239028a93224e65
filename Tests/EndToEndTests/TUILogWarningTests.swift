import Foundation
import TicTacToeTestSupport
import XCTest

/// The full-screen game with a log file on a full disk (tmux): the warning, which comes while curses owns the screen,
/// is one line in the status line, never written over the screen. (A notice in the status line, and a log file that
/// cannot be opened: NetworkScreenTests, CheckedOutputTests.)
final class TUILogWarningTests: XCTestCase {
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
