import Foundation
import XCTest
import TicTacToeTestSupport

/// The real full-screen UI asks before leaving a network match: `n` plays on, `y` leaves and the peer is told.
final class TUIConfirmTests: XCTestCase {
    func testQInANetworkGameAsksThenNKeepsPlayingAndYLeaves() throws {
        let tmux = try Tmux()
        let port = try tmux.hostOnAFreePort("host", as: "alice")
        // A headless joiner (X, first) plays perfect moves by itself and reports the match in JSON.
        let joiner = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json", "--seed", "1"])
        defer { joiner.terminate() }
        XCTAssertNotNil(tmux.waitFor("host", text: "Your turn (O)"), tmux.screen("host"))

        try tmux.keys("host", "q")
        let asked = try XCTUnwrap(tmux.waitFor("host", text: "Leave the match?"), tmux.screen("host"))
        let words = screenWords(asked)
        XCTAssertTrue(words.contains("You forfeit the game in progress and the match ends."), asked)
        XCTAssertTrue(words.contains("Press y to leave, any other key to stay."), asked)
        print("the leave question:\n\(asked)")

        // n: the question closes and the game goes on (the board, our turn); nothing reached the peer.
        try tmux.keys("host", "n")
        let stayed = try XCTUnwrap(tmux.waitFor("host") { !$0.contains("Leave the match?") }, tmux.screen("host"))
        XCTAssertTrue(stayed.contains("Your turn (O)"), stayed)
        XCTAssertTrue(joiner.events(named: "match-over").isEmpty, "the peer heard of a leave after n")
        // A move still works: try the cells in turn (a taken one does nothing) until the joiner sees ours.
        var moved = false
        for cell in 1...9 where !moved {
            try tmux.keys("host", String(cell))
            moved = joiner.waitForEvent("move", timeout: 2) { $0["by"] as? String == "peer" } != nil
        }
        XCTAssertTrue(moved, "no move of ours reached the joiner after n:\n\(tmux.screen("host"))")
        XCTAssertNotNil(tmux.waitFor("host", text: "Your turn (O)"), tmux.screen("host"))

        // q then y: back to the menu, and the joiner reports that the peer left.
        try tmux.keys("host", "q")
        XCTAssertNotNil(tmux.waitFor("host", text: "Leave the match?"), tmux.screen("host"))
        try tmux.keys("host", "y")
        XCTAssertNotNil(tmux.waitFor("host", text: "Play against the computer"), tmux.screen("host"))
        XCTAssertEqual(joiner.waitForEvent("match-over")?["end"] as? String, "peer-left", joiner.standardError)
    }
}

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
