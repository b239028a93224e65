import Foundation
import TicTacToeTestSupport
import XCTest

/// Sockets against a real host process: idle and trickling connections and an attacker that reconnects in a loop, for
/// as long as several handshake deadlines, while joiner processes come one after the other. A joiner that never moves
/// or runs out of time is tested in process (`MoveTimeoutTests`).
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
}
