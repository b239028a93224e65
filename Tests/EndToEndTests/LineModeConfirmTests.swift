import Foundation
import XCTest
import TicTacToeTestSupport

/// Line mode (`play --plain`) asks "really?" before resigning or quitting, on standard input.
final class LineModeConfirmTests: XCTestCase {
    func testResignAndQuitAskAndOnlyYGoesAhead() throws {
        let game = try TicTacToeProcess(["play", "--plain", "--first", "you", "--seed", "3"])
        defer { game.terminate() }
        // r, n: plays on; q, y: quits.
        game.writeInput("r\nn\nq\ny\n")
        XCTAssertEqual(game.waitForExit(), 0, game.standardError)
        XCTAssertNotNil(game.waitForLine(timeout: 5) { $0.contains("Resign this game? [y/N] You play on.") })
        XCTAssertNotNil(game.waitForLine(timeout: 5) {
            $0.contains("Quit? You forfeit the game in progress. [y/N] Bye. Score: you 0, computer 0, draws 0")
        })
    }
}
