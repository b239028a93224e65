import Foundation
import TicTacToeTestSupport
import XCTest

/// Dead ends no more, in the real full-screen UI (tmux) on loopback: a failed join offers `r` and retrying reaches a
/// host started meanwhile; after a match the TUI host waits for another player, and a second joiner gets a match.
final class TUIRetryTests: ProcessTestCase {
    func testAFailedJoinByAddressRetriesWithRAndReachesAHostStartedMeanwhile() throws {
        let port = try closedLoopbackPort()
        let tmux = try Tmux()
        try tmux.joinByAddress("join", as: "bob", "127.0.0.1:\(port)")
        let failed = try XCTUnwrap(tmux.waitFor("join", text: "r retry", timeout: 40), tmux.screen("join"))
        XCTAssertTrue(failed.contains("r retry · Enter or q back to the menu"), failed)
        XCTAssertTrue(failed.contains("Joining 127.0.0.1:\(port) as bob"), failed)
        print("A failure screen with its retry key:\n\(failed)")

        let host = try TicTacToeProcess([
            "host", "--headless", "--no-advertise", "--bind", "127.0.0.1", "--port", "\(port)", "--json",
            "--games", "1", "--matches", "1", "--name", "alice",
        ])
        processes.append(host)
        XCTAssertNotNil(host.waitForEvent("listening"), host.standardError)
        try tmux.keys("join", "r")
        XCTAssertNotNil(tmux.waitFor("join", text: "Playing against alice"), tmux.screen("join"))
        XCTAssertNotNil(host.waitForEvent("connected"), host.standardError)
        XCTAssertNotNil(tmux.playUntilOver("join", over: "q back to the menu"), tmux.screen("join"))
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
        // Enter goes back to the menu from an ended screen.
        try tmux.keys("join", "Enter")
        XCTAssertNotNil(tmux.waitFor("join", text: "Play against the computer"), tmux.screen("join"))
    }

    func testTheTUIHostWaitsForAnotherPlayerAfterAMatchAndASecondJoinerPlays() throws {
        let tmux = try Tmux()
        let port = try tmux.hostOnAFreePort("host", as: "alice")

        for (round, name) in ["bob", "carol"].enumerated() {
            let joiner = try TicTacToeProcess([
                "join", "127.0.0.1:\(port)", "--headless", "--json", "--games", "1", "--name", name,
            ])
            processes.append(joiner)
            XCTAssertNotNil(tmux.waitFor("host", text: "Playing against \(name)"), tmux.screen("host"))
            let over = try XCTUnwrap(tmux.playUntilOver("host", over: "Wait for another player? r waits"),
                                     tmux.screen("host"))
            XCTAssertTrue(over.contains("Wait for another player? r waits · Enter or q back to the menu"), over)
            if round == 0 { print("The TUI host after a match:\n\(over)") }
            XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
            try tmux.keys("host", "r")
            // The same port again, with its join lines: the next joiner uses what the first was told.
            let again = try XCTUnwrap(
                tmux.waitFor("host") { $0.contains("Waiting for someone to join on port \(port)") && $0.contains("Join with") },
                tmux.screen("host"))
            XCTAssertFalse(again.contains("Playing against"), again)
            if round == 0 { print("The TUI host waiting again after a match:\n\(again)") }
        }
    }
}
