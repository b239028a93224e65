import Foundation
import TicTacToeTestSupport
import XCTest

/// `tictactoe match --over`: the same series, each game played as a network match (a host and a joiner in the one
/// process, through the code `host` and `join` run), over loopback; the permission it asks for on a LAN address; its
/// usage errors.
final class SeriesOverNetworkTests: ProcessTestCase {
    private func match(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 120)
        throws -> (TicTacToeProcess, Int32?)
    {
        let process = track(try TicTacToeProcess(["match"] + arguments, environment: environment))
        let status = process.waitForExit(timeout: timeout)
        return (process, status)
    }

    /// Every `match-game` event, keys sorted, as text (to compare two runs).
    private func games(_ process: TicTacToeProcess) -> [String] {
        process.output.filter { $0.contains(#""event":"match-game""#) }
    }

    /// A fresh HOME whose decision is undecided.
    private func home() throws -> [String: String] {
        let path = Scratch.path("tictactoe-over-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return ["HOME": path, "XDG_CONFIG_HOME": path + "/config", "XDG_STATE_HOME": path + "/state"]
    }

    func testOverLoopbackTheSameSeedPlaysTheSameGamesAsInProcessEncryptedOrNot() throws {
        let arguments = ["--player", "medium", "--player", "easy", "--games", "8", "--seed", "11", "--json"]
        let (inProcess, status) = try match(arguments)
        XCTAssertEqual(status, 0, inProcess.standardError)
        XCTAssertEqual(games(inProcess).count, 8)
        let (encrypted, encryptedStatus) = try match(arguments + ["--over", "loopback"])
        XCTAssertEqual(encryptedStatus, 0, encrypted.standardError)
        XCTAssertEqual(games(encrypted), games(inProcess), "the same moves, results and boards over the network")
        XCTAssertEqual(encrypted.standardError, "", "the log goes to its file, not to the terminal")
        let (plain, plainStatus) = try match(arguments + ["--over", "127.0.0.1", "--plaintext", "--concurrency", "3"])
        XCTAssertEqual(plainStatus, 0, plain.standardError)
        XCTAssertEqual(games(plain), games(inProcess))
        XCTAssertEqual(plain.events(named: "match-result").first?["games"] as? Int, 8)
        XCTAssertEqual(plain.events(named: "match-end").first?["exit"] as? Int, 0)
    }

    func testOverLoopbackAnEngineThatCrashesForfeitsEachGameWithTheReasonAndItsTranscript() throws {
        let sandbox = try EngineSandbox()
        let crasher = try sandbox.engine(named: "crash.sh", overrides: "genmove) exit 3 ;;")
        let directory = URL(fileURLWithPath: Scratch.path("over-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, status) = try match(
            ["--player", "engine:sh '\(crasher)'", "--player", "easy", "--games", "2", "--seed", "6", "--json",
             "--over", "loopback", "--transcripts", directory.path])
        XCTAssertEqual(status, 0, process.standardError)
        let games = process.events(named: "match-game")
        XCTAssertEqual(games.count, 2, "\(process.output)")
        for (index, game) in games.enumerated() {
            XCTAssertEqual(game["engine_failure"] as? String, "exited", "\(game)")
            XCTAssertEqual(game["result"] as? String, "0-1", "the engine lost game \(index + 1): \(game)")
            XCTAssertTrue((game["engine_log"] as? String ?? "").hasSuffix(".log"), "\(game)")
        }
        let transcript = try String(contentsOf: directory.appendingPathComponent("game-0002.jsonl"), encoding: .utf8)
        XCTAssertTrue(transcript.contains(#""event":"engine-started""#), transcript)
        XCTAssertTrue(transcript.contains(#""event":"engine-failed""#), transcript)
        // Two games, two processes.
        let pids = Set(transcript.split(separator: "\n").compactMap { line -> Int? in
            guard line.contains("engine-started") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["pid"] as? Int
        })
        XCTAssertEqual(pids.count, 1, transcript)
        let first = try String(contentsOf: directory.appendingPathComponent("game-0001.jsonl"), encoding: .utf8)
        XCTAssertFalse(first.contains("\"pid\":\(pids.first!)"), "game 2's engine is a fresh process")
    }

    func testOverLoopbackAScriptThatRunsOutStopsTheSeriesWithExit8() throws {
        let script = URL(fileURLWithPath: Scratch.path("over-\(UUID().uuidString).txt"))
        try "5\n".write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let (process, status) = try match(
            ["--player", "script:\(script.path)", "--player", "easy", "--games", "4", "--seed", "3", "--over",
             "loopback"])
        XCTAssertEqual(status, 8, process.standardError)
        XCTAssertTrue(process.standardError.contains("game 1: script error: script:\(script.path): "),
                      process.standardError)
    }

    func testOverALANAddressItAsksForPermissionFirstAndSaysWhyItWaits() throws {
        // 192.0.2.1 (TEST-NET-1) is no address of this machine: nothing is sent to it; the permission comes first.
        let environment = try home()
        let (waiting, status) = try match(
            ["--player", "perfect", "--player", "easy", "--games", "2", "--over", "192.0.2.1", "--wait-timeout", "1"],
            environment: environment)
        XCTAssertEqual(status, 11, waiting.standardError)
        XCTAssertTrue(waiting.standardError.contains("tictactoe: waiting for local network permission: "),
                      waiting.standardError)
        XCTAssertTrue(waiting.standardError.contains("--wait-timeout"), waiting.standardError)
        XCTAssertFalse(waiting.output.contains { $0.hasPrefix("Score of ") }, "no game was played")
        // Allowed: the game's host cannot listen there, and says so with host's exit code.
        let grant = track(try TicTacToeProcess(["privacy", "grant"], environment: environment))
        XCTAssertEqual(grant.waitForExit(timeout: 30), 0, grant.standardError)
        let (refused, refusedStatus) = try match(
            ["--player", "perfect", "--player", "easy", "--games", "2", "--over", "192.0.2.1"],
            environment: environment)
        XCTAssertEqual(refusedStatus, 9, refused.standardError)
        XCTAssertTrue(refused.standardError.contains("game 1: the network game over 192.0.2.1 did not finish: cannot listen on 192.0.2.1"),
                      refused.standardError)
    }

    func testPlaintextOverTheLANFollowsTheManifestsTransportSecurityBeforeAnyPrompt() throws {
        // Undecided and no --wait-timeout: a refusal must come at once, without asking or waiting.
        let environment = try home()
        let (process, status) = try match(
            ["--player", "perfect", "--player", "easy", "--games", "2", "--over", "192.0.2.1", "--plaintext"],
            environment: environment, timeout: 30)
        XCTAssertEqual(status, 14, process.standardError)
        XCTAssertTrue(process.standardError.contains("cannot play unencrypted games (--plaintext) over 192.0.2.1: "),
                      process.standardError)
        XCTAssertFalse(process.standardError.contains("waiting"), process.standardError)
    }

    func testBadVenuesAreUsageErrors() throws {
        let base = ["--player", "perfect", "--player", "easy"]
        for (extra, says) in [
            (["--plaintext"], "--plaintext needs --over"),
            (["--over", "224.0.0.251"], "is a multicast group"),
            (["--over", "ff02::fb"], "is a multicast group"),
            (["--over", "0.0.0.0"], "is every interface"),
            (["--over", "example.com"], "is not an IP address"),
        ] {
            let (process, status) = try match(base + extra)
            XCTAssertEqual(status, 64, "\(extra): \(process.standardError)")
            XCTAssertTrue(process.standardError.contains(says), "\(extra): \(process.standardError)")
            XCTAssertEqual(process.output, [], "nothing runs")
        }
    }
}
