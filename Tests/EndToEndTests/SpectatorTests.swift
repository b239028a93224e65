import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Spectators (`host --spectators N`, `tictactoe watch`), with the real binary over loopback: watchers see every
/// position, one that comes in mid-match sees the match so far, one that stalls is dropped without slowing the
/// players, and a host without room or without spectators turns a watcher away.
final class SpectatorTests: ProcessTestCase {
    private func watcher(_ port: Int, name: String, _ extra: [String] = []) throws -> TicTacToeProcess {
        track(try TicTacToeProcess(["watch", "127.0.0.1:\(port)", "--json", "--name", name] + extra))
    }

    func testTwoWatchersOneStalledThePlayersAreNotSlowedAndTheStalledOneIsDropped() throws {
        let games = 400
        let (host, port) = try startHost(["--games", "\(games)", "--spectators", "2", "--name", "Host"])
        _ = track(host)
        let steady = try watcher(port, name: "steady")
        let stalled = try watcher(port, name: "stalled")
        for name in ["steady", "stalled"] {
            XCTAssertNotNil(host.waitForEvent("spectator") { $0["name"] as? String == name && $0["joined"] as? Bool == true },
                            host.standardError)
        }
        // Each was shown the host waiting for a player; then one stops reading (its process is stopped).
        XCTAssertNotNil(stalled.waitForEvent("watch"), stalled.standardError)
        XCTAssertEqual(stalled.events(named: "watch").first?["phase"] as? String, "waiting")
        stalled.signal(SIGSTOP)

        let joiner = track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json", "--name", "Joiner"]))
        XCTAssertEqual(joiner.waitForExit(timeout: 120), 0, joiner.standardError)
        XCTAssertEqual(joiner.events(named: "game-over").count, games)

        // The stalled watcher was dropped, not waited for; the steady one saw every game to the last.
        let dropped = host.waitForEvent("spectator") {
            $0["name"] as? String == "stalled" && $0["joined"] as? Bool == false
        }
        XCTAssertNotNil(dropped, host.output.joined(separator: "\n").suffix(2000).description)
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
        XCTAssertEqual(steady.waitForExit(), 0, "the host said it is done: \(steady.standardError)")
        let positions = steady.events(named: "watch")
        let over = positions.filter { $0["phase"] as? String == "over" }
        XCTAssertEqual(over.count, games, "one position per finished game")
        let last = try XCTUnwrap(over.last)
        XCTAssertEqual(last["game"] as? Int, games)
        XCTAssertEqual(last["host"] as? String, "Host")
        XCTAssertEqual(last["joiner"] as? String, "Joiner")
        let score = try XCTUnwrap(last["score"] as? [String: Int])
        XCTAssertEqual(score["host"].map { $0 + score["joiner"]! + score["draws"]! }, games)
        // Every move of game 1, one position each: from the empty board to the end, a mark at a time.
        let firstGame = positions.filter { $0["game"] as? Int == 1 }.compactMap { $0["board"] as? String }
        let marks = firstGame.map { $0.filter { $0 != "." }.count }
        XCTAssertEqual(marks.first, 0)
        XCTAssertEqual(Array(marks.dropLast()), Array(0..<(marks.count - 1)), "\(firstGame)")
        XCTAssertEqual(steady.events(named: "watch-end").last?["end"] as? String, "completed")

        // Resumed, it finds its connection closed without a goodbye (3), or first notices how long it heard nothing
        // (its heartbeat deadline passed while it was stopped: 6).
        stalled.signal(SIGCONT)
        let end = stalled.waitForExit()
        XCTAssertTrue(end == 3 || end == 6, "dropped: \(String(describing: end)) \(stalled.standardError)")
    }

    func testAWatcherWhoComesMidMatchSeesTheMatchSoFar() throws {
        let (host, port) = try startHost(["--games", "3", "--spectators", "1", "--name", "Host"])
        _ = track(host)
        let joiner = track(try TicTacToeProcess(
            ["join", "127.0.0.1:\(port)", "--headless", "--json", "--name", "Joiner", "--move-delay", "0.3"]))
        XCTAssertNotNil(joiner.waitForEvent("move"), joiner.standardError)
        let late = try watcher(port, name: "late")
        let first = try XCTUnwrap(late.waitForEvent("watch"), late.standardError)
        XCTAssertEqual(first["joiner"] as? String, "Joiner")
        XCTAssertEqual(first["phase"] as? String, "playing")
        XCTAssertNotEqual(first["board"] as? String, ".........", "the position so far, not an empty board")
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertEqual(late.waitForExit(), 0, late.standardError)
        XCTAssertEqual(late.events(named: "watch").last?["game"] as? Int, 3)
    }

    func testAHostWithoutSpectatorsOrWithoutRoomTurnsAWatcherAway() throws {
        let (none, nonePort) = try startHost(["--spectators", "0"])
        _ = track(none)
        let refused = try watcher(nonePort, name: "eve")
        XCTAssertEqual(refused.waitForExit(), 4, refused.standardError)
        let refusal = refused.events(named: "error").last?["message"] as? String ?? ""
        XCTAssertTrue(refusal.contains("takes no spectators"), refusal)

        let (full, fullPort) = try startHost(["--spectators", "1"])
        _ = track(full)
        let first = try watcher(fullPort, name: "first")
        XCTAssertNotNil(first.waitForEvent("watch"), first.standardError)
        let second = try watcher(fullPort, name: "second", ["--connect-timeout", "1"])
        XCTAssertEqual(second.waitForExit(), 4, second.standardError)
        let noRoom = second.events(named: "error").last?["message"] as? String ?? ""
        XCTAssertTrue(noRoom.contains("no room for more spectators"), noRoom)
    }

    func testSpectatorsNeedAnEncryptedGame() throws {
        let host = track(try TicTacToeProcess(["host", "--headless", "--plaintext", "--spectators", "1"]))
        XCTAssertEqual(host.waitForExit(), 64)
        XCTAssertTrue(host.standardError.contains("--spectators needs an encrypted game"), host.standardError)
    }
}
