import Foundation
import TicTacToeTestSupport
import XCTest

/// `tictactoe replay` through a pipe, as only the process shows: without --headless it prints the game as text (its
/// standard output is no terminal), and a record it cannot use ends it with exit 65 and the reason on standard error.
/// The replay's text and JSON and every way a record is refused are tested in process (`ReplayTests`,
/// `LoopbackMatchTests`); the viewer on a terminal in `TUITests`.
final class ReplayCommandTests: ProcessTestCase {
    func testThroughAPipeItPrintsTheGameAndABrokenRecordExits65() throws {
        let directory = try makeTemporaryDirectory(self)
        let record = directory + "/game.jsonl"
        let lines = [
            #"{"event":"game-start","first":"X","game":1,"you":"X"}"#,
            #"{"by":"local","cell":1,"event":"move","mark":"X"}"#,
            #"{"by":"peer","cell":4,"event":"move","mark":"O"}"#,
            #"{"by":"local","cell":2,"event":"move","mark":"X"}"#,
            #"{"by":"peer","cell":5,"event":"move","mark":"O"}"#,
            #"{"by":"local","cell":3,"event":"move","mark":"X"}"#,
            #"{"board":"XXXOO....","event":"game-over","game":1,"line":[1,2,3],"reason":"line","score":{"draws":0,"games":1,"losses":0,"wins":1},"winner":"X"}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: record, atomically: true, encoding: .utf8)
        let replay = track(try TicTacToeProcess(["replay", record]))
        XCTAssertEqual(replay.waitForExit(timeout: 30), 0, replay.standardError)
        XCTAssertEqual(replay.output.first.map { $0.hasPrefix("Game 1 of \(record): X ") }, true, "\(replay.output)")
        XCTAssertEqual(replay.output.filter { $0.hasPrefix("Move ") }.count, 5, "\(replay.output)")

        let broken = directory + "/broken.jsonl"
        try (lines.joined(separator: "\n").dropLast(10)).write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = track(try TicTacToeProcess(["replay", broken]))
        XCTAssertEqual(refused.waitForExit(timeout: 30), 65, refused.standardError)
        XCTAssertEqual(refused.standardError, "tictactoe: \(broken):\(lines.count): the record is truncated: its "
                        + "last line stops in the middle of an object\n")
        XCTAssertEqual(refused.output, [])
    }
}
