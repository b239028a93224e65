import Foundation
import TicTacToeTestSupport
import XCTest

/// `tictactoe match` as a user runs it: a series in one process, seeded, scored, with its progress lines, final
/// tables, JSON lines, SPRT stopping, transcripts and exit codes.
final class SeriesMatchTests: ProcessTestCase {
    private static let firstFree = EngineSandbox.packageRoot.path + "/Assets/engines/first-free.sh"

    private func match(_ arguments: [String], timeout: TimeInterval = 120) throws -> (TicTacToeProcess, Int32?) {
        let process = track(try TicTacToeProcess(["match"] + arguments))
        let status = process.waitForExit(timeout: timeout)
        return (process, status)
    }

    /// The output without the last line (the elapsed time).
    private func table(_ process: TicTacToeProcess) -> [String] {
        process.output.filter { !$0.hasPrefix("Finished ") }
    }

    func testASeededMatchGivesTheSameTableTwiceAndWhateverTheConcurrency() throws {
        let arguments = ["--player", "perfect", "--player", "easy", "--games", "20", "--seed", "17"]
        let (first, status1) = try match(arguments)
        XCTAssertEqual(status1, 0, first.standardError)
        let (second, status2) = try match(arguments + ["--concurrency", "1"])
        XCTAssertEqual(status2, 0, second.standardError)
        let (third, status3) = try match(arguments + ["--concurrency", "4"])
        XCTAssertEqual(status3, 0, third.standardError)
        XCTAssertEqual(table(first), table(second))
        XCTAssertEqual(table(first), table(third))
        let lines = first.output
        XCTAssertEqual(lines.first, "Seed: 17 (replay with --seed 17)")
        // A progress line after each game, cutechess-cli's.
        let progress = lines.filter { $0.hasPrefix("Score of perfect vs easy: ") }
        XCTAssertEqual(progress.count, 21, "20 games and the final block")
        XCTAssertTrue(progress[0].hasSuffix("] 1"), progress[0])
        XCTAssertTrue(progress[19].hasSuffix("] 20"), progress[19])
        XCTAssertTrue(progress[19].contains(" - 0 - "), "perfect never loses: \(progress[19])")
        XCTAssertTrue(lines.contains { $0.hasPrefix("Elo difference: ") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("Elo 95% interval: [") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("Pair ") && $0.contains("95% interval") }, "\(lines)")
        let end = try XCTUnwrap(lines.last)
        XCTAssertTrue(end.hasPrefix("Finished 20 of 20 games in ") && end.hasSuffix(" s (seed 17)"), end)
    }

    func testPerfectAgainstPerfectDrawsEveryGame() throws {
        let (process, status) = try match(
            ["--player", "perfect", "--player", "perfect", "--games", "10", "--seed", "1", "--json"])
        XCTAssertEqual(status, 0, process.standardError)
        let result = try XCTUnwrap(process.events(named: "match-result").first, "\(process.output)")
        XCTAssertEqual(result["first"] as? String, "perfect#1")
        XCTAssertEqual(result["second"] as? String, "perfect#2")
        XCTAssertEqual(result["draws"] as? Int, 10)
        XCTAssertEqual(result["games"] as? Int, 10)
        XCTAssertEqual(result["elo"] as? Double, 0)
        XCTAssertEqual(result["elo_lower"] as? Double, 0)
        XCTAssertEqual(result["elo_upper"] as? Double, 0)
    }

    func testARoundRobinOfThreeRanksPerfectFirst() throws {
        let (process, status) = try match(
            ["--player", "easy", "--player", "perfect", "--player", "medium", "--games", "10", "--seed", "5", "--json",
             "--concurrency", "2"])
        XCTAssertEqual(status, 0, process.standardError)
        XCTAssertEqual(process.events(named: "match-game").count, 30)
        let results = process.events(named: "match-result")
        XCTAssertEqual(results.map { "\($0["first"]!) vs \($0["second"]!)" },
                       ["easy vs perfect", "easy vs medium", "perfect vs medium"])
        let standings = try XCTUnwrap(process.events(named: "standings").first)
        let players = try XCTUnwrap(standings["players"] as? [[String: Any]])
        XCTAssertEqual(players.count, 3)
        XCTAssertEqual(players.first?["player"] as? String, "perfect")
        XCTAssertEqual(players.first?["losses"] as? Int, 0)
        XCTAssertEqual(players.map { $0["rank"] as? Int }, [1, 2, 3])
        XCTAssertEqual(players.map { $0["games"] as? Int }, [20, 20, 20])
        // The points add up to the games played (a win 1 to one side, a draw ½ to each).
        XCTAssertEqual(players.compactMap { $0["points"] as? Double }.reduce(0, +), 30)
        // The text form has the standings table too.
        let (text, textStatus) = try match(
            ["--player", "easy", "--player", "perfect", "--player", "medium", "--games", "10", "--seed", "5"])
        XCTAssertEqual(textStatus, 0, text.standardError)
        let header = try XCTUnwrap(text.output.firstIndex { $0.hasPrefix("Rank  Player") }, "\(text.output)")
        XCTAssertTrue(text.output[header + 1].contains("perfect"), text.output[header + 1])
    }

    func testTheSPRTStopsALopsidedMatchAndSaysWhichHypothesis() throws {
        let (process, status) = try match(
            ["--player", "perfect", "--player", "easy", "--games", "1000", "--seed", "8", "--sprt", "0", "50", "0.05",
             "0.05"])
        XCTAssertEqual(status, 0, process.standardError)
        let sprt = try XCTUnwrap(process.output.first { $0.hasPrefix("SPRT: LLR: ") }, "\(process.output)")
        XCTAssertTrue(sprt.hasSuffix("[0.00,50.00] - H1 was accepted"), sprt)
        let end = try XCTUnwrap(process.output.last)
        XCTAssertTrue(end.hasSuffix("; stopped by the SPRT (H1)"), end)
        XCTAssertFalse(end.hasPrefix("Finished 1000 "), end)
        // JSON: the decision and the LLR with its bounds.
        let (json, jsonStatus) = try match(
            ["--player", "perfect", "--player", "easy", "--games", "1000", "--seed", "8", "--json", "--sprt", "0",
             "50", "0.05", "0.05"])
        XCTAssertEqual(jsonStatus, 0, json.standardError)
        let result = try XCTUnwrap(json.events(named: "match-result").first)
        let fields = try XCTUnwrap(result["sprt"] as? [String: Any])
        XCTAssertEqual(fields["decision"] as? String, "H1")
        XCTAssertGreaterThanOrEqual(fields["llr"] as? Double ?? 0, fields["upper_bound"] as? Double ?? 99)
        XCTAssertEqual(json.events(named: "match-end").first?["end"] as? String, "sprt")
        XCTAssertEqual(json.events(named: "match-game").count, result["games"] as? Int)
    }

    func testJSONLinesHaveTheDocumentedKeys() throws {
        let (process, status) = try match(
            ["--player", "medium", "--player", "easy", "--games", "4", "--seed", "2", "--json"])
        XCTAssertEqual(status, 0, process.standardError)
        let events = process.events
        XCTAssertEqual(events.count, process.output.count, "every line is a JSON object: \(process.output)")
        XCTAssertEqual(events.map { $0["event"] as? String ?? "" },
                       ["seed"] + Array(repeating: ["match-game", "progress"], count: 4).flatMap { $0 }
                           + ["match-result", "match-end"])
        XCTAssertEqual(events[0]["seed"] as? Int, 2)
        XCTAssertEqual(Set(events[1].keys),
                       ["event", "game", "pair_game", "first", "second", "x", "o", "winner", "result", "reason", "moves",
                        "board"])
        XCTAssertEqual(events[1]["x"] as? String, "medium")
        XCTAssertEqual(events[3]["x"] as? String, "easy", "colours alternate")
        XCTAssertEqual(Set(events[2].keys), ["event", "first", "second", "wins", "losses", "draws", "games", "score"])
        let result = events[events.count - 2]
        XCTAssertEqual(Set(result.keys),
                       ["event", "first", "second", "wins", "losses", "draws", "games", "score", "elo", "elo_lower",
                        "elo_upper", "elo_margin", "los", "draw_ratio"])
        let end = events[events.count - 1]
        XCTAssertEqual(Set(end.keys), ["event", "games", "scheduled", "seed", "exit", "elapsed_ms", "end"])
        XCTAssertEqual(end["exit"] as? Int, 0)
        XCTAssertEqual(end["end"] as? String, "completed")
        // Keys sorted, like every other JSON event.
        for line in process.output {
            let keys = line.split(separator: ",").compactMap { part -> String? in
                guard let open = part.firstIndex(of: "\""), part.first == "{" || part.first == "\"" else { return nil }
                let rest = part[part.index(after: open)...]
                guard let close = rest.firstIndex(of: "\""), rest[close...].dropFirst().first == ":" else { return nil }
                return String(rest[..<close])
            }
            XCTAssertEqual(keys, keys.sorted(), line)
        }
    }

    func testOnePlayerIsAUsageError() throws {
        let (process, status) = try match(["--player", "perfect"])
        XCTAssertEqual(status, 64)
        XCTAssertTrue(process.standardError.contains("two players"), process.standardError)
        XCTAssertEqual(process.output, [], "nothing runs")
        for bad in [["--games", "0"], ["--concurrency", "0"], ["--sprt", "0", "50", "0.05"], ["--player", "human"]] {
            let (process, status) = try match(["--player", "perfect", "--player", "easy"] + bad)
            XCTAssertEqual(status, 64, "\(bad): \(process.standardError)")
        }
    }

    func testTranscriptsWriteOneFilePerGameInTheNetworkVocabulary() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("series-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, status) = try match(
            ["--player", "perfect", "--player", "easy", "--games", "5", "--seed", "4", "--transcripts", directory.path])
        XCTAssertEqual(status, 0, process.standardError)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(files, (1...5).map { "game-000\($0).jsonl" })
        for (index, file) in files.enumerated() {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let events = text.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
            let names = events.map { $0["event"] as? String ?? "" }
            XCTAssertEqual(Array(names.prefix(3)), ["seed", "players", "game-start"], file)
            XCTAssertEqual(names.last, "game-over", file)
            XCTAssertGreaterThanOrEqual(names.filter { $0 == "move" }.count, 5, file)
            XCTAssertEqual(events[1]["x"] as? String, index % 2 == 0 ? "perfect" : "easy", file)
            XCTAssertEqual(events[2]["you"] as? String, index % 2 == 0 ? "X" : "O", file)
            let score = try XCTUnwrap(events.last?["score"] as? [String: Any])
            XCTAssertEqual(score["games"] as? Int, index + 1)
        }
    }

    func testAnEngineLosesToPerfectAndEachGameHasItsProcess() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("series-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, status) = try match(
            ["--player", "perfect", "--player", "engine:sh '\(Self.firstFree)'", "--games", "4", "--seed", "6",
             "--json", "--transcripts", directory.path, "--concurrency", "2"])
        XCTAssertEqual(status, 0, process.standardError)
        let result = try XCTUnwrap(process.events(named: "match-result").first, "\(process.output)")
        XCTAssertEqual(result["games"] as? Int, 4)
        XCTAssertEqual(result["losses"] as? Int, 0)
        XCTAssertGreaterThan(result["wins"] as? Int ?? 0, 0, "first-free should lose to perfect")
        let transcript = try String(contentsOf: directory.appendingPathComponent("game-0001.jsonl"), encoding: .utf8)
        XCTAssertTrue(transcript.contains(#""event":"engine-started""#), transcript)
    }

    func testAnEngineThatCrashesForfeitsWithTheReason() throws {
        let sandbox = try EngineSandbox()
        let crasher = try sandbox.engine(named: "crash.sh", overrides: "genmove) exit 3 ;;")
        let (process, status) = try match(
            ["--player", "engine:sh '\(crasher)'", "--player", "easy", "--games", "2", "--seed", "6", "--json"])
        XCTAssertEqual(status, 0, process.standardError)
        let games = process.events(named: "match-game")
        XCTAssertEqual(games.count, 2)
        for game in games {
            XCTAssertEqual(game["reason"] as? String, "forfeit", "\(game)")
            XCTAssertEqual(game["result"] as? String, "0-1", "\(game)")
            XCTAssertEqual(game["engine_failure"] as? String, "exited", "\(game)")
        }
    }

    func testAnEngineThatNeverAnswersLosesOnItsGameClockWithTheReason() throws {
        let sandbox = try EngineSandbox()
        let directory = sandbox.directory.appendingPathComponent("transcripts")
        // It never answers genmove: its game clock (0.3 s) runs out long before the move timeout (120 s) would.
        let silent = try sandbox.engine(named: "silent.sh", overrides: "genmove) ;;")
        let (process, status) = try match(
            ["--player", "engine:sh '\(silent)'", "--player", "easy", "--games", "1", "--seed", "6", "--json",
             "--game-time", "0.3", "--transcripts", directory.path])
        XCTAssertEqual(status, 0, process.standardError)
        let game = try XCTUnwrap(process.events(named: "match-game").first, "\(process.output)")
        XCTAssertEqual(game["reason"] as? String, "timeout", "\(game)")
        XCTAssertEqual(game["result"] as? String, "0-1", "\(game)")
        XCTAssertEqual(game["engine_failure"] as? String, "game-time", "\(game)")
        XCTAssertEqual(
            game["engine_failure_reason"] as? String,
            "ran out of its game time (0.300 s for the whole game; 0.300 s were left at its move)")
        let transcript = try String(contentsOf: directory.appendingPathComponent("game-0001.jsonl"), encoding: .utf8)
        XCTAssertTrue(transcript.contains(#""kind":"game-time""#), transcript)
        XCTAssertTrue(transcript.contains("ran out of its game time"), transcript)

        let (text, textStatus) = try match(
            ["--player", "engine:sh '\(silent)'", "--player", "easy", "--games", "1", "--seed", "6",
             "--game-time", "0.3"])
        XCTAssertEqual(textStatus, 0, text.standardError)
        XCTAssertTrue(
            text.output.contains { $0.contains("(game 1: X loses on time: engine 'test-engine' ran out of its game time") },
            "\(text.output)")
    }

    func testAnEngineIsToldItsGameTimeLeftWhenItIsLessThanTheMoveTimeout() throws {
        let sandbox = try EngineSandbox()
        let told = sandbox.directory.appendingPathComponent("genmove.txt").path
        let recorder = try sandbox.engine(
            named: "recorder.sh", overrides: "genmove) echo \"$2\" >> '\(told)'; firstfree; put \"$n\" \"$1\"; printf '=%s %s\\n\\n' \"$id\" \"$n\" ;;")
        let (process, status) = try match(
            ["--player", "engine:sh '\(recorder)'", "--player", "perfect", "--games", "1", "--seed", "6", "--json",
             "--game-time", "600", "--move-timeout", "3600"])
        XCTAssertEqual(status, 0, process.standardError)
        let times = try String(contentsOfFile: told, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(times.count, 1, "\(times)")
        XCTAssertEqual(times.first, "600.000", "a fresh clock at the first move")
        for time in times.dropFirst() {
            let seconds = try XCTUnwrap(Double(time), time)
            XCTAssertLessThanOrEqual(seconds, 600, "what is left, carried over: \(times)")
            XCTAssertGreaterThan(seconds, 500, "the game time left, not the move timeout: \(times)")
        }
    }

    func testGameTimeOutOfRangeIsAUsageError() throws {
        for value in ["0", "inf", "nan", "100000"] {
            let (process, status) = try match(["--player", "easy", "--player", "easy", "--game-time", value])
            XCTAssertEqual(status, 64, "\(value): \(process.standardError)")
            XCTAssertTrue(
                process.standardError.contains("--game-time must be a number of seconds from 0.1 to 86400"),
                process.standardError)
        }
    }

    func testAScriptThatRunsOutOfMovesStopsTheSeriesWithExit8() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("series-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("short.txt")
        try "5 1\n".write(to: script, atomically: true, encoding: .utf8)
        let (process, status) = try match(
            ["--player", "script:\(script.path)", "--player", "perfect", "--games", "4", "--seed", "1", "--json"])
        XCTAssertEqual(status, 8, process.standardError)
        XCTAssertTrue(process.standardError.contains("script error"), process.standardError)
        let end = try XCTUnwrap(process.events(named: "match-end").first, "\(process.output)")
        XCTAssertEqual(end["end"] as? String, "script-error")
        XCTAssertEqual(end["exit"] as? Int, 8)
        // An unreadable script: exit 8 before any game.
        let (missing, missingStatus) = try match(
            ["--player", "script:\(directory.path)/none.txt", "--player", "perfect"])
        XCTAssertEqual(missingStatus, 8, missing.standardError)
        XCTAssertEqual(missing.output, [])
    }
}
