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
        let directory = URL(fileURLWithPath: Scratch.path("series-\(UUID().uuidString)"))
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
        let directory = URL(fileURLWithPath: Scratch.path("series-\(UUID().uuidString)"))
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
        let directory = URL(fileURLWithPath: Scratch.path("series-\(UUID().uuidString)"))
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

    // MARK: Stopping a match

    /// The processes of process group `group` that are still alive (a zombie no longer runs: not counted).
    private func liveProcesses(inGroup group: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm) ": state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", Int32(fields[2]) == group else { return nil }
            return pid
        }
    }

    /// `match` against an engine that hangs in `genmove` (it and a child it started sleep on), stopped by `signal`:
    /// every process of the engine's group is gone, the table so far is printed marked as stopped, and the exit code
    /// is host's and join's.
    private func assertStoppingAMatchEndsItsEngines(
        by signal: Int32, status expected: Int32, how: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let sandbox = try EngineSandbox()
        let pidFile = sandbox.directory.appendingPathComponent("engine.pid").path
        let hanging = try sandbox.engine(
            named: "hang.sh", overrides: "genmove) sleep 1000 & wait ;;", preamble: "echo $$ > '\(pidFile)'")
        let process = track(try TicTacToeProcess(
            ["match", "--player", "engine:sh '\(hanging)'", "--player", "perfect", "--games", "4", "--seed", "3"]))
        // The engine is thinking (its child sleeps) once its group has two processes.
        let deadline = Date().addingTimeInterval(30)
        var group: Int32 = 0
        while Date() < deadline {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                group = pid
                if liveProcesses(inGroup: pid).count >= 2 { break }
            }
            usleep(20_000)
        }
        XCTAssertGreaterThan(group, 0, "the engine did not start: \(process.standardError)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(liveProcesses(inGroup: group).count, 2, file: file, line: line)
        process.signal(signal)
        let status = process.waitForExit(timeout: 10)
        XCTAssertEqual(status, expected, process.standardError, file: file, line: line)
        // Nothing of the engine's group is left (not even under init): killed at once, gone once reaped (a bound
        // generous for a loaded machine, only against a group that stays).
        var left = liveProcesses(inGroup: group)
        let gone = Date().addingTimeInterval(15)
        while !left.isEmpty && Date() < gone {
            usleep(20_000)
            left = liveProcesses(inGroup: group)
        }
        XCTAssertEqual(left, [], "engine processes left after the match stopped", file: file, line: line)
        let output = process.output
        XCTAssertTrue(output.contains { $0.hasPrefix("Pair ") }, "the table: \(output)", file: file, line: line)
        let end = output.last ?? ""
        XCTAssertTrue(end.hasPrefix("Stopped after 0 of 4 games in ") && end.hasSuffix(how), end, file: file, line: line)
        XCTAssertFalse(output.contains { $0.hasPrefix("Score of ") && $0.hasSuffix("] 1") }, "\(output)",
                       file: file, line: line)
    }

    func testSIGINTStopsTheMatchEndsItsEnginesAndExits130() throws {
        try assertStoppingAMatchEndsItsEngines(by: SIGINT, status: 130, how: ": interrupted (Ctrl-C, SIGINT)")
    }

    func testSIGTERMStopsTheMatchEndsItsEnginesAndExits143() throws {
        try assertStoppingAMatchEndsItsEngines(by: SIGTERM, status: 143, how: ": terminated (SIGTERM or SIGHUP)")
    }

    func testSIGHUPStopsTheMatchEndsItsEnginesAndExits143() throws {
        try assertStoppingAMatchEndsItsEngines(by: SIGHUP, status: 143, how: ": terminated (SIGTERM or SIGHUP)")
    }

    func testAStoppedMatchSaysSoInJSON() throws {
        let sandbox = try EngineSandbox()
        let hanging = try sandbox.engine(named: "hang.sh", overrides: "genmove) sleep 1000 & wait ;;")
        let process = track(try TicTacToeProcess(
            ["match", "--player", "perfect", "--player", "engine:sh '\(hanging)'", "--games", "2", "--seed", "3",
             "--json"]))
        // Perfect (X) moves first; the engine is thinking once perfect's seed line is out and a moment has passed.
        XCTAssertNotNil(process.waitForEvent("seed"))
        usleep(500_000)
        process.signal(SIGTERM)
        XCTAssertEqual(process.waitForExit(timeout: 10), 143, process.standardError)
        let end = try XCTUnwrap(process.events(named: "match-end").first, "\(process.output)")
        XCTAssertEqual(end["end"] as? String, "stopped")
        XCTAssertEqual(end["exit"] as? Int, 143)
        XCTAssertEqual(end["games"] as? Int, 0)
    }

    // MARK: Text from an engine

    func testAnEnginesNameAndIllegalMoveTextAreEscapedInTextAndJSON() throws {
        let sandbox = try EngineSandbox()
        // A two-line name with an OSC title sequence, BEL and a right-to-left override; a move with a colour escape.
        let hostile = try sandbox.engine(named: "hostile.sh", overrides: #"""
            name) printf '=%s ev\033]0;owned\007il\342\200\256\nsecond line\n\n' "$id" ;;
                    genmove) printf '=%s \033[31m5\n\n' "$id" ;;
            """#)
        let raw: [Character] = ["\u{1b}", "\u{07}", "\u{202e}"]
        let (text, textStatus) = try match(
            ["--player", "engine:sh '\(hostile)'", "--player", "easy", "--games", "1", "--seed", "2"])
        XCTAssertEqual(textStatus, 0, text.standardError)
        for line in text.output {
            XCTAssertFalse(line.contains { raw.contains($0) }, "raw control text: \(line.debugDescription)")
        }
        let progress = try XCTUnwrap(text.output.first { $0.hasPrefix("Score of ") }, "\(text.output)")
        XCTAssertTrue(
            progress.contains(#"engine 'ev\x1b]0;owned\x07il\u202e\x0asecond line' played an illegal move "\x1b[31m5""#),
            progress)
        let (json, jsonStatus) = try match(
            ["--player", "engine:sh '\(hostile)'", "--player", "easy", "--games", "1", "--seed", "2", "--json"])
        XCTAssertEqual(jsonStatus, 0, json.standardError)
        for line in json.output {
            XCTAssertFalse(line.contains { raw.contains($0) || $0 == "\n" }, "raw control text: \(line.debugDescription)")
        }
        let game = try XCTUnwrap(json.events(named: "match-game").first)
        XCTAssertEqual(game["engine_failure"] as? String, "illegal-move")
        XCTAssertEqual(game["engine_failure_reason"] as? String, "played an illegal move \"\u{1b}[31m5\": not a cell 1-9")
    }
}
