import Foundation
import TicTacToeTestSupport
import XCTest

/// `tictactoe match` where only the process shows it: the arguments it refuses (exit 64), engines as real processes
/// (one for each game, a crash, a clock running out, the game time they are told), and a signal that stops the
/// series, ends its engines' processes and sets the exit code. What the series prints (its text and exit status,
/// tables, JSON lines, the SPRT, standings, transcripts, escaping, a script that fails with exit 8) is proven in
/// process: Tests/SeriesTests; --game-time's range in OptionRangeTests.
final class SeriesMatchTests: ProcessTestCase {
    private static let firstFree = EngineSandbox.packageRoot.path + "/Assets/engines/first-free.sh"

    private func match(_ arguments: [String], timeout: TimeInterval = 120) throws -> (TicTacToeProcess, Int32?) {
        let process = track(try TicTacToeProcess(["match"] + arguments))
        let status = process.waitForExit(timeout: timeout)
        return (process, status)
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
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(files, (1...4).map { "game-000\($0).jsonl" })
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
        // It never answers genmove: its game clock (0.3 s) runs out long before the move timeout (120 s) would.
        let silent = try sandbox.engine(named: "silent.sh", overrides: "genmove) ;;")
        let (process, status) = try match(
            ["--player", "engine:sh '\(silent)'", "--player", "easy", "--games", "1", "--seed", "6", "--json",
             "--game-time", "0.3"])
        XCTAssertEqual(status, 0, process.standardError)
        let game = try XCTUnwrap(process.events(named: "match-game").first, "\(process.output)")
        XCTAssertEqual(game["reason"] as? String, "timeout", "\(game)")
        XCTAssertEqual(game["result"] as? String, "0-1", "\(game)")
        XCTAssertEqual(game["engine_failure"] as? String, "game-time", "\(game)")
        XCTAssertEqual(
            game["engine_failure_reason"] as? String,
            "ran out of its game time (0.300 s for the whole game; 0.300 s were left at its move)")
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
}
