import Foundation
import XCTest
import TicTacToeTestSupport

/// Real `tictactoe` processes playing each other over loopback where only processes show it: standard output to a
/// pipe (every line of a fast match, stamped when the environment asks), exit codes (a script that runs out, an
/// unreadable script, bad usage, a host nobody answers at), and a joiner started before its host. A match's rules,
/// what the players play and the transcripts are proven in process: LoopbackMatchTests.
final class HeadlessMatchTests: ProcessTestCase {
    private func join(_ port: Int, _ extra: [String]) throws -> TicTacToeProcess {
        track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json"] + extra))
    }

    /// Standard output to a pipe is gathered (lines that follow each other within 2 ms go out in one write):
    /// every line of a fast match still arrives, in order, by the joiner's exit. With `TICTACTOE_JSON_STAMPS=1` each
    /// line starts with the monotonic clock when it was made (what `make bench` times moves by); without, none does.
    func testEveryLineOfAFastMatchArrivesInOrderAndStampsWhenAsked() throws {
        let (host, port) = try startHost(["--games", "30", "--seed", "5"])
        _ = track(host)
        let joiner = track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json", "--seed", "6"],
                                                environment: ["TICTACTOE_JSON_STAMPS": "1"]))
        XCTAssertEqual(joiner.waitForExit(timeout: 120), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        for side in [host, joiner] {
            XCTAssertEqual(side.events(named: "game-over").compactMap { $0["game"] as? Int }, Array(1...30))
            XCTAssertEqual(side.events(named: "summary").count, 1)
            XCTAssertEqual(side.events.last?["event"] as? String, "summary", "the last line is the last written")
        }
        let stamps = joiner.events.compactMap { $0["_mono_ns"] as? Int }
        XCTAssertEqual(stamps.count, joiner.events.count, "every line stamped")
        XCTAssertEqual(stamps, stamps.sorted(), "in the order they were made")
        XCTAssertTrue(joiner.output.allSatisfy { $0.hasPrefix(#"{"_mono_ns":"#) })
        XCTAssertFalse(host.output.contains { $0.contains("_mono_ns") }, "no stamps unless asked")
    }

    func testExhaustedScriptEndsWithScriptError() throws {
        let script = Scratch.path("tictactoe-short-\(getpid()).txt")
        try "5\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { unlink(script) }
        let (host, port) = try startHost(["--player", "perfect", "--games", "1", "--matches", "1"])
        _ = track(host)
        let joiner = try join(port, ["--player", "script:\(script)"])
        XCTAssertEqual(joiner.waitForExit(), 8, joiner.standardError)
        XCTAssertTrue((joiner.events(named: "error").last?["message"] as? String ?? "").contains("no moves left"))
        // For the host the joiner left mid-game: reported, and it keeps listening.
        XCTAssertEqual(host.waitForEvent("match-over")?["end"] as? String, "peer-left")
        XCTAssertTrue(host.waitForEventCount("listening", 2))
    }

    func testBadScriptFailsBeforeNetworkUse() throws {
        let joiner = track(try TicTacToeProcess(["join", "127.0.0.1:9", "--headless", "--player", "script:/nonexistent/x"]))
        XCTAssertEqual(joiner.waitForExit(), 8)
        XCTAssertTrue(joiner.standardError.contains("cannot read script"), joiner.standardError)
    }

    func testUsageErrorsExit64() throws {
        for arguments in [["join"], ["host", "--no-advertise", "--games", "0"], ["join", "host:99999", "--headless"],
                          ["host", "--no-advertise", "--player", "grandmaster", "--headless"]] {
            let process = track(try TicTacToeProcess(arguments))
            XCTAssertEqual(process.waitForExit(), 64, "\(arguments): \(process.standardError)")
            XCTAssertFalse(process.standardError.isEmpty)
        }
    }

    func testUnreachableHostWaitsThenFails() throws {
        // Find a loopback port nobody listens on: bind one, note it, close it.
        let (probe, port) = try startHost(["--player", "perfect"])
        probe.terminate()
        _ = probe.waitForExit()
        let joiner = try join(port, ["--connect-timeout", "1.5"])
        XCTAssertEqual(joiner.waitForExit(timeout: 30), 5, joiner.standardError)
        let states = joiner.events(named: "state").compactMap { $0["state"] as? String }
        XCTAssertTrue(states.contains("waiting"), "\(states)")
        XCTAssertEqual(states.last, "failed")
        let waiting = try XCTUnwrap(joiner.events(named: "state").first { $0["state"] as? String == "waiting" })
        XCTAssertTrue((waiting["reason"] as? String ?? "").contains("refused"), "\(waiting)")
    }

    func testJoinerStartedBeforeHostWaitsAndThenPlays() throws {
        // Reserve a port, free it, start the joiner first, then the host on that port.
        let (probe, port) = try startHost(["--player", "perfect"])
        probe.terminate()
        _ = probe.waitForExit()
        let joiner = try join(port, ["--connect-timeout", "20", "--player", "random", "--seed", "1"])
        XCTAssertNotNil(joiner.waitForEvent("state", where: { $0["state"] as? String == "waiting" }))
        let host = track(try TicTacToeProcess(["host", "--headless", "--no-advertise", "--bind", "127.0.0.1", "--port",
                                               "\(port)", "--json", "--games", "2"]))
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
        XCTAssertEqual(joiner.events(named: "summary").last?["games"] as? Int, 2)
    }
}
