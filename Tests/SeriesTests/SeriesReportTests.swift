import Foundation
import GameProtocol
import GameRules
import MatchStatistics
import TicTacToeTestSupport
import XCTest

@testable import Series

/// What `tictactoe match` prints about a game an engine lost (by forfeit, on its game clock), with the engine's own
/// text escaped, and about a series stopped by a signal: `SeriesReport` given the records the games would give.
final class SeriesReportTests: XCTestCase {
    private let report = SeriesReport(
        names: ["test-engine", "easy"], schedule: SeriesSchedule(players: 2, gamesPerPair: 2), seed: 6, sprt: nil)

    /// Game 1 of the series, the engine (X) lost to `reason` after moves `moves`, with `note`.
    private func record(_ moves: [Int], _ reason: GameEndReason, note: SeriesGameRecord.EngineFailureNote)
        -> SeriesGameRecord
    {
        var game = Game(firstMover: .x)
        var mark = Mark.x
        for cell in moves {
            _ = try? game.play(cell, by: mark)
            mark = mark.opponent
        }
        return SeriesGameRecord(
            game: report.schedule.game(1), moves: moves, result: GameResult(winner: .o, reason: reason),
            board: game.board, engineFailure: note, engines: [])
    }

    private func json(_ line: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
    }

    func testAnEngineOutOfItsGameTimeLosesOnTimeInTextJSONAndTranscript() throws {
        let note = SeriesGameRecord.EngineFailureNote(
            mark: .x, engine: "test-engine", kind: "game-time",
            reason: "ran out of its game time (0.300 s for the whole game; 0.300 s were left at its move)",
            logPath: "/logs/silent.sh-1-1.log")
        let game = record([], .timeout(.x), note: note)
        let scores = [MatchScore(wins: 0, losses: 1, draws: 0)]
        XCTAssertTrue(
            report.progressLine(game, scores: scores).contains(
                "(game 1: X loses on time: engine 'test-engine' ran out of its game time"),
            report.progressLine(game, scores: scores))
        let line = try json(try report.gameJSON(game, scores: scores)[0])
        XCTAssertEqual(line["reason"] as? String, "timeout")
        XCTAssertEqual(line["result"] as? String, "0-1")
        XCTAssertEqual(line["engine_failure"] as? String, "game-time")
        XCTAssertEqual(line["engine_failure_reason"] as? String, note.reason)
        let transcript = try report.transcript(game, scores: scores).joined(separator: "\n")
        XCTAssertTrue(transcript.contains(#""kind":"game-time""#), transcript)
        XCTAssertTrue(transcript.contains("ran out of its game time"), transcript)
    }

    func testAnEnginesNameAndIllegalMoveTextAreEscapedInTextAndJSON() throws {
        // A two-line name with an OSC title sequence, BEL and a right-to-left override; a move with a colour escape.
        let note = SeriesGameRecord.EngineFailureNote(
            mark: .x, engine: "ev\u{1b}]0;owned\u{07}il\u{202e}\nsecond line", kind: "illegal-move",
            reason: "played an illegal move \"\u{1b}[31m5\": not a cell 1-9", logPath: "/logs/hostile.sh-1-1.log")
        let game = record([], .forfeit(.x), note: note)
        let scores = [MatchScore(wins: 0, losses: 1, draws: 0)]
        let raw: [Character] = ["\u{1b}", "\u{07}", "\u{202e}"]
        let progress = report.progressLine(game, scores: scores)
        XCTAssertFalse(progress.contains { raw.contains($0) || $0 == "\n" }, "raw control text: \(progress.debugDescription)")
        XCTAssertTrue(
            progress.contains(#"engine 'ev\x1b]0;owned\x07il\u202e\x0asecond line' played an illegal move "\x1b[31m5""#),
            progress)
        let lines = try report.gameJSON(game, scores: scores)
        for line in lines {
            XCTAssertFalse(line.contains { raw.contains($0) || $0 == "\n" }, "raw control text: \(line.debugDescription)")
        }
        let decoded = try json(lines[0])
        XCTAssertEqual(decoded["reason"] as? String, "forfeit")
        XCTAssertEqual(decoded["engine_failure"] as? String, "illegal-move")
        XCTAssertEqual(decoded["engine_failure_reason"] as? String, note.reason)
    }

    func testASeriesStoppedBySIGTERMSaysSoInTextAndJSON() throws {
        let outcome = SeriesRunner.Outcome(
            scores: [MatchScore()], games: 0, decision: nil, failure: nil, stopped: false, interrupted: .shutdown)
        let end = try json(try XCTUnwrap(
            try report.finalJSON(outcome, elapsed: .seconds(1), exit: ExitStatus(stoppedBy: .shutdown)).last))
        XCTAssertEqual(end["end"] as? String, "stopped")
        XCTAssertEqual(end["exit"] as? Int, 143)
        XCTAssertEqual(end["games"] as? Int, 0)
        let text = report.finalText(outcome, elapsed: .seconds(1))
        XCTAssertTrue(text.contains { $0.hasPrefix("Pair ") }, "the table: \(text)")
        XCTAssertEqual(text.last, "Stopped after 0 of 2 games in 1.000 s (seed 6): terminated (SIGTERM or SIGHUP)")
        let interrupted = SeriesRunner.Outcome(
            scores: [MatchScore()], games: 0, decision: nil, failure: nil, stopped: false, interrupted: .quit)
        XCTAssertEqual(
            report.finalText(interrupted, elapsed: .seconds(1)).last,
            "Stopped after 0 of 2 games in 1.000 s (seed 6): interrupted (Ctrl-C, SIGINT)")
    }
}
