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
        try topRowWinRecord.write(toFile: record, atomically: true, encoding: .utf8)
        let replay = track(try TicTacToeProcess(["replay", record]))
        XCTAssertEqual(replay.waitForExit(timeout: 30), 0, replay.standardError)
        XCTAssertEqual(replay.output.first.map { $0.hasPrefix("Game 1 of \(record): X ") }, true, "\(replay.output)")
        XCTAssertEqual(replay.output.filter { $0.hasPrefix("Move ") }.count, 5, "\(replay.output)")

        let broken = directory + "/broken.jsonl"
        // The record without its last newline and the 10 characters before it: its last line stops mid-object.
        try topRowWinRecord.dropLast(11).write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = track(try TicTacToeProcess(["replay", broken]))
        XCTAssertEqual(refused.waitForExit(timeout: 30), 65, refused.standardError)
        XCTAssertEqual(refused.standardError, "tictactoe: \(broken):7: the record is truncated: its "
                        + "last line stops in the middle of an object\n")
        XCTAssertEqual(refused.output, [])
    }
}
