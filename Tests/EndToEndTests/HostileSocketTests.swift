import Foundation
import GameProtocol
import TicTacToeTestSupport
import XCTest

/// Sockets and silence against a real host: idle and trickling connections, an attacker that reconnects in a loop,
/// a joiner that never moves.
final class HostileSocketTests: ProcessTestCase {
    func testFiftyIdleSocketsAndAReconnectingAttackerBlockNoJoiner() throws {
        let joins = 20
        // The host pauses a little before its moves, so that the joins span several handshake deadlines (5 s), and
        // keeps serving (--matches 0) so that the attack runs against it to the end.
        let (host, port) = try startHost(["--games", "1", "--matches", "0", "--seed", "5", "--move-delay", "0.1"])
        _ = track(host)
        let attack = SocketAttack(port: port, idle: 50)
        attack.start()
        defer { _ = attack.stop() }
        // Once the host has dropped the first idle sockets at their deadline, they are open again: the attack is on.
        let warm = Date().addingTimeInterval(30)
        while attack.soFar.idleReopened < 50, Date() < warm { usleep(50_000) }
        XCTAssertGreaterThanOrEqual(attack.soFar.idleReopened, 50, "the host never dropped the idle sockets")

        let started = Date()
        var played = 0
        var busyWaits = 0
        for index in 1...joins {
            let joiner = track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json", "--seed",
                                                     "\(index)", "--connect-timeout", "10"]))
            let status = joiner.waitForExit()
            XCTAssertEqual(status, 0, "join \(index): \(joiner.standardError)")
            if status == 0, joiner.events(named: "summary").last?["games"] as? Int == 1 { played += 1 }
            busyWaits += joiner.events(named: "state").filter {
                ($0["reason"] as? String ?? "").contains("busy, retrying")
            }.count
        }
        let seconds = Date().timeIntervalSince(started)
        let figures = attack.stop()
        let completed = host.events(named: "match-over").filter { $0["end"] as? String == "completed" }.count
        let failed = host.events(named: "peer-failed").count
        print("""
            \(played)/\(joins) joins got a game under 50 idle sockets + a reconnecting attacker \
            (\(String(format: "%.1f", seconds)) s of joins; \(figures); the host served \(completed) matches and \
            reported \(failed) connections that failed before a match; the joiners waited \(busyWaits) times on busy)
            """)
        XCTAssertEqual(played, joins)
        XCTAssertEqual(completed, joins)
        XCTAssertGreaterThan(figures.churned, 0, "the attacker did not run")
        XCTAssertEqual(figures.failedConnects, 0, "the host stopped accepting connections")
        host.signal(SIGINT)
        XCTAssertEqual(host.waitForExit(), 130, host.standardError)
    }

    func testAJoinerThatNeverMovesLosesOnTimeAndTheHostServesTheNext() throws {
        // A raw peer completes the handshake and answers pings, but never moves.
        let (host, port) = try startHost(["--plaintext", "--games", "1", "--move-timeout", "1"])
        _ = track(host)
        let peer = try RawPeer(port: port)
        try peer.send(.hello(version: 1, name: "staller"))
        guard case .accept? = try peer.receive() else { return XCTFail("no accept") }
        guard case .start(1, .x, .x)? = try peer.receive() else { return XCTFail("no start of game 1 with us as X") }
        XCTAssertEqual(try peer.receiveUntilClosed(), [.bye(.timeout)])
        let gameOver = try XCTUnwrap(host.waitForEvent("game-over"))
        XCTAssertEqual(gameOver["reason"] as? String, "timeout")
        XCTAssertEqual(gameOver["timed_out"] as? String, "X")
        XCTAssertEqual(gameOver["winner"] as? String, "O")
        let over = try XCTUnwrap(host.waitForEvent("match-over"))
        XCTAssertEqual(over["end"] as? String, "peer-move-timeout")
        XCTAssertEqual(over["detail"] as? String, "the opponent ran out of time (1 s for a move or a rematch answer)")

        // It did not count as a completed match: the host serves a real joiner, who moves in time.
        XCTAssertTrue(host.waitForEventCount("listening", 2), "host never became free again")
        let joiner = track(try TicTacToeProcess(
            ["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json", "--seed", "1"]))
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
    }

    func testAJoinerOutOfTimeIsToldAndExits6() throws {
        // The joiner pauses longer before each move than the host allows.
        let (host, port) = try startHost(["--games", "1", "--move-timeout", "0.5", "--matches", "1"])
        _ = track(host)
        let joiner = track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--move-delay", "3"]))
        XCTAssertEqual(joiner.waitForExit(), 6, joiner.standardError)
        XCTAssertTrue(joiner.output.contains { $0.contains("you ran out of time") }, joiner.output.joined(separator: "\n"))
        XCTAssertTrue(joiner.standardError.contains("we ran out of time"), joiner.standardError)
    }

    func testMoveTimeoutIsValidatedAndHelpTellsOfTimeLimitsAndBusyRetries() throws {
        for (value, extra) in [("0", []), ("-1", []), ("nan", []), ("inf", []), ("86401", []), ("2", ["--move-delay", "2"])] {
            let host = track(try TicTacToeProcess(["host", "--no-advertise", "--headless", "--move-timeout", value] + extra))
            XCTAssertEqual(host.waitForExit(), 64, "--move-timeout \(value) \(extra): \(host.standardError)")
            XCTAssertTrue(host.standardError.contains("--move-timeout"), host.standardError)
        }
        // The help is wrapped to the terminal's width: compare with the words on one line.
        func help(_ command: String) throws -> String {
            let help = track(try TicTacToeProcess([command, "--help"]))
            XCTAssertEqual(help.waitForExit(), 0)
            return help.output.joined(separator: " ").split(separator: " ").joined(separator: " ")
        }
        let host = try help("host")
        for needle in ["--move-timeout <seconds>", "(default: 120.0)", "0.1 to 86400, more than --move-delay", "block nobody", "loses on time",
                       "told the host is busy (and retries until its --connect-timeout)"] {
            XCTAssertTrue(host.contains(needle), "host --help lacks \(needle):\n\(host)")
        }
        let join = try help("join")
        for needle in ["(\"busy, retrying\")", "exits 5 (unreachable) or 4 (still busy)"] {
            XCTAssertTrue(join.contains(needle), "join --help lacks \(needle):\n\(join)")
        }
    }
}
