import Foundation
import XCTest
import TicTacToeTestSupport

/// Real `tictactoe` processes playing each other over loopback.
final class HeadlessMatchTests: ProcessTestCase {
    private func join(_ port: Int, _ extra: [String]) throws -> TicTacToeProcess {
        track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json"] + extra))
    }

    func testHundredPerfectGamesAreHundredDraws() throws {
        let (host, port) = try startHost(["--player", "perfect", "--games", "100", "--seed", "11", "--name", "host"])
        _ = track(host)
        let joiner = try join(port, ["--player", "perfect", "--seed", "12", "--name", "joiner"])
        XCTAssertEqual(joiner.waitForExit(timeout: 120), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        for side in [host, joiner] {
            let summary = try XCTUnwrap(side.events(named: "summary").last, side.standardError)
            XCTAssertEqual(summary["games"] as? Int, 100)
            XCTAssertEqual(summary["draws"] as? Int, 100)
            XCTAssertEqual(summary["wins"] as? Int, 0)
            XCTAssertEqual(summary["losses"] as? Int, 0)
            XCTAssertEqual(side.events(named: "game-over").count, 100)
            XCTAssertEqual(side.events(named: "game-start").count, 100)
        }
        // The first player alternates: the joiner is X in odd games, O in even ones.
        let joinerMarks = joiner.events(named: "game-start").compactMap { $0["you"] as? String }
        XCTAssertEqual(Array(joinerMarks.prefix(4)), ["X", "O", "X", "O"])
        // Both transcripts agree move by move.
        let hostMoves = host.events(named: "move").map { "\($0["mark"]!)\($0["cell"]!)" }
        let joinerMoves = joiner.events(named: "move").map { "\($0["mark"]!)\($0["cell"]!)" }
        XCTAssertEqual(hostMoves, joinerMoves)
        XCTAssertGreaterThanOrEqual(hostMoves.count, 900)
    }

    /// Standard output to a pipe is gathered (issue 15: lines that follow each other within 2 ms go out in one write):
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

    func testPerfectNeverLosesToRandom() throws {
        for (hostPlayer, joinerPlayer, seed) in [("perfect", "random", "3"), ("random", "perfect", "4")] {
            let (host, port) = try startHost(["--player", hostPlayer, "--games", "40", "--seed", seed])
            _ = track(host)
            let joiner = try join(port, ["--player", joinerPlayer, "--seed", seed + "1"])
            XCTAssertEqual(joiner.waitForExit(timeout: 120), 0, joiner.standardError)
            XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
            let perfect = hostPlayer == "perfect" ? host : joiner
            let summary = try XCTUnwrap(perfect.events(named: "summary").last)
            XCTAssertEqual(summary["games"] as? Int, 40)
            XCTAssertEqual(summary["losses"] as? Int, 0, "perfect lost as \(hostPlayer == "perfect" ? "host" : "joiner")")
            XCTAssertGreaterThan(summary["wins"] as? Int ?? 0, 0, "random should lose some of 40 games")
        }
    }

    func testSeedReplaysTheSameMatch() throws {
        var transcripts: [[String]] = []
        for _ in 0..<2 {
            let (host, port) = try startHost(["--player", "random", "--games", "5", "--seed", "99"])
            _ = track(host)
            let joiner = try join(port, ["--player", "random", "--seed", "100"])
            XCTAssertEqual(joiner.waitForExit(), 0)
            XCTAssertEqual(host.waitForExit(), 0)
            transcripts.append(joiner.events(named: "move").map { "\($0["mark"]!)\($0["cell"]!)" })
        }
        XCTAssertEqual(transcripts[0], transcripts[1])
        XCTAssertFalse(transcripts[0].isEmpty)
    }

    func testScriptedPlayersAndTextTranscript() throws {
        let directory = Scratch.path("tictactoe-scripts-\(getpid())")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The joiner is X in game 1: X 1, O 4, X 2, O 5, X 3 wins the top row.
        try "# top row\n1\n2, 3\n".write(toFile: directory + "/x.txt", atomically: true, encoding: .utf8)
        try "4 5 # too slow\n".write(toFile: directory + "/o.txt", atomically: true, encoding: .utf8)
        let (host, port) = try startHost(["--player", "script:\(directory)/o.txt", "--games", "1"])
        _ = track(host)
        let joiner = track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--player",
                                                 "script:\(directory)/x.txt", "--name", "scripter"]))
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
        let text = joiner.output.joined(separator: "\n")
        for needle in ["Seed ", "you (X) play 1", "plays 4", "you (X) win with 1-2-3", "Summary: 1 game; you 1,"] {
            XCTAssertTrue(text.contains(needle), "transcript lacks '\(needle)':\n\(text)")
        }
        XCTAssertTrue(text.contains(" X | X | X ") || text.contains(" X │ X │ X "), text)
        let over = try XCTUnwrap(host.events(named: "game-over").first)
        XCTAssertEqual(over["line"] as? [Int], [1, 2, 3])
        XCTAssertEqual(over["winner"] as? String, "X")
        XCTAssertEqual(over["board"] as? String, "XXXOO....")
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

    func testHelpDescribesCommandsAndExitCodes() throws {
        let help = track(try TicTacToeProcess(["--help"]))
        XCTAssertEqual(help.waitForExit(), 0)
        let text = help.output.joined(separator: "\n")
        for needle in ["host", "join", "play", "EXIT CODES", "protocol", "reading order"] {
            XCTAssertTrue(text.contains(needle), "--help lacks \(needle):\n\(text)")
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
