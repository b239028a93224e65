import Foundation
import TicTacToeTestSupport
import XCTest

/// What only the `tictactoe match --over` process shows: over loopback it plays the games it plays without the
/// network and writes nothing on standard error (the log goes to its file); an engine process that crashes forfeits
/// each game in its own process; a bad venue is a usage error. The series over the network, its permission, its
/// refusals and its failures are tested in process (AppCoreTests' SeriesNetworkTests, SeriesTests'
/// SeriesCommandTests).
final class SeriesOverNetworkTests: ProcessTestCase {
    private func match(_ arguments: [String], timeout: TimeInterval = 120) throws -> (TicTacToeProcess, Int32?) {
        let process = track(try TicTacToeProcess(["match"] + arguments))
        let status = process.waitForExit(timeout: timeout)
        return (process, status)
    }

    /// Every `match-game` event, keys sorted, as text (to compare two runs).
    private func games(_ process: TicTacToeProcess) -> [String] {
        process.output.filter { $0.contains(#""event":"match-game""#) }
    }

    func testOverLoopbackTheSameSeedPlaysTheSameGamesAndTheLogStaysOffTheTerminal() throws {
        let arguments = ["--player", "medium", "--player", "easy", "--games", "8", "--seed", "11", "--json"]
        let (inProcess, status) = try match(arguments)
        XCTAssertEqual(status, 0, inProcess.standardError)
        XCTAssertEqual(games(inProcess).count, 8)
        let (encrypted, encryptedStatus) = try match(arguments + ["--over", "loopback"])
        XCTAssertEqual(encryptedStatus, 0, encrypted.standardError)
        XCTAssertEqual(games(encrypted), games(inProcess), "the same moves, results and boards over the network")
        XCTAssertEqual(encrypted.standardError, "", "the log goes to its file, not to the terminal")
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

    func testBadVenuesAreUsageErrors() throws {
        let base = ["--player", "perfect", "--player", "easy"]
        // The venue's rules are SeriesNetworkTests.testVenues'; here, that a bad one is a usage error of the command.
        for (extra, says) in [
            (["--plaintext"], "--plaintext needs --over"),
            (["--over", "224.0.0.251"], "is a multicast group"),
        ] {
            let (process, status) = try match(base + extra)
            XCTAssertEqual(status, 64, "\(extra): \(process.standardError)")
            XCTAssertTrue(process.standardError.contains(says), "\(extra): \(process.standardError)")
            XCTAssertEqual(process.output, [], "nothing runs")
        }
    }
}
