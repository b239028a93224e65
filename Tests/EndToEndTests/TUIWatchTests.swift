import Foundation
import TicTacToeTestSupport
import XCTest

/// Watch a game in the real full-screen UI (tmux), on loopback: a headless host that takes a spectator, a headless
/// joiner that plays slowly, and the TUI watching by address from the menu's Watch a game: the board with its marks,
/// then how it ended, and Enter back to the menu.
final class TUIWatchTests: ProcessTestCase {
    func testTheTUIWatchesAHeadlessMatchByAddressFromStartToEnd() throws {
        let (host, port) = try startHost(["--spectators", "1", "--games", "2", "--name", "alice"])
        processes.append(host)
        let tmux = try Tmux()
        defer { tmux.stop() }
        try tmux.start("watch", tuiCommand("--name eve"))
        XCTAssertNotNil(tmux.waitFor("watch", text: "Watch a game"), tmux.screen("watch"))
        try tmux.keys("watch", "w")
        XCTAssertNotNil(tmux.waitFor("watch", text: "Address or game name"), tmux.screen("watch"))
        try tmux.literal("watch", "127.0.0.1:\(port)")
        try tmux.keys("watch", "Enter")
        // Loopback needs no permission: the host's position comes at once.
        let waiting = try XCTUnwrap(tmux.waitFor("watch", text: "Waiting for a player at alice"), tmux.screen("watch"))
        XCTAssertTrue(waiting.contains("q stops watching"), waiting)
        XCTAssertNotNil(host.waitForEvent("spectator") { $0["name"] as? String == "eve" && $0["joined"] as? Bool == true },
                        host.standardError)

        let joiner = try TicTacToeProcess([
            "join", "127.0.0.1:\(port)", "--headless", "--json", "--name", "bob", "--move-delay", "0.3",
        ])
        processes.append(joiner)
        // A game in progress: the players with their marks, whose move, and marks on the board.
        let playing = try XCTUnwrap(tmux.waitFor("watch", timeout: 30) { screen in
            screen.contains("'s turn") && screen.contains("Score: alice") && screen.contains("┼")
                && screen.split(separator: "\n").contains { $0.contains("│") && ($0.contains(" X ") || $0.contains(" O ")) }
        }, tmux.screen("watch"))
        print("The watch screen during a game:\n\(playing)")
        let words = screenWords(playing)
        XCTAssertTrue(words.contains("X: alice O: bob") || words.contains("X: bob O: alice"), playing)
        XCTAssertTrue(words.contains("Watching alice"), playing)
        // Keys that would play do nothing.
        try tmux.keys("watch", "5", "Enter", "R")

        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
        let ended = try XCTUnwrap(tmux.waitFor("watch", text: "The host is done."), tmux.screen("watch"))
        print("The watch screen at the end:\n\(ended)")
        XCTAssertTrue(ended.contains("Game 2"), ended)
        XCTAssertTrue(ended.contains("Enter or q back to the menu"), ended)
        XCTAssertFalse(ended.contains("Waiting for a player"), ended)
        try tmux.keys("watch", "Enter")
        XCTAssertNotNil(tmux.waitFor("watch", text: "Play against the computer"), tmux.screen("watch"))
        try tmux.keys("watch", "q")
    }

    func testQLeavesTheWatchAndTheHostIsTold() throws {
        let (host, port) = try startHost(["--spectators", "2", "--name", "alice"])
        processes.append(host)
        let tmux = try Tmux()
        defer { tmux.stop() }
        try tmux.start("watch", tuiCommand("--name eve"))
        XCTAssertNotNil(tmux.waitFor("watch", text: "Watch a game"), tmux.screen("watch"))
        try tmux.keys("watch", "w")
        XCTAssertNotNil(tmux.waitFor("watch", text: "Address or game name"), tmux.screen("watch"))
        try tmux.literal("watch", "127.0.0.1:\(port)")
        try tmux.keys("watch", "Enter")
        XCTAssertNotNil(tmux.waitFor("watch", text: "Waiting for a player at alice"), tmux.screen("watch"))
        XCTAssertNotNil(host.waitForEvent("spectator") { $0["name"] as? String == "eve" && $0["joined"] as? Bool == true },
                        host.standardError)
        try tmux.keys("watch", "q")
        XCTAssertNotNil(tmux.waitFor("watch", text: "Play against the computer"), tmux.screen("watch"))
        let left = host.waitForEvent("spectator") { $0["name"] as? String == "eve" && $0["joined"] as? Bool == false }
        XCTAssertEqual(left?["watching"] as? Int, 0, host.standardError)
        try tmux.keys("watch", "q")
    }
}
