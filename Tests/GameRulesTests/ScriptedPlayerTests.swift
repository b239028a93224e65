import GameRules
import XCTest

final class ScriptedPlayerTests: XCTestCase {
    func testCellsArePlayedInOrderThenExhausted() throws {
        var player = ScriptedPlayer(cells: [4, 0, 8])
        let game = Game()
        XCTAssertEqual(try player.chooseMove(in: game), 4)
        XCTAssertEqual(Array(player.remaining), [0, 8])
        XCTAssertEqual(try player.chooseMove(in: game), 0)
        XCTAssertEqual(try player.chooseMove(in: game), 8)
        XCTAssertEqual(player.nextIndex, 3)
        XCTAssertThrowsError(try player.chooseMove(in: game)) { XCTAssertEqual($0 as? ScriptError, .exhausted) }
        XCTAssertThrowsError(try player.chooseMove(in: game)) { XCTAssertEqual($0 as? ScriptError, .exhausted) }
    }

    func testIllegalCellsAreNotSkipped() throws {
        var player = ScriptedPlayer(cells: [4, 4, 12])
        var game = Game()
        try game.play(try player.chooseMove(in: game), by: .x)
        XCTAssertEqual(try player.chooseMove(in: game), 4)
        XCTAssertEqual(game.validate(4, by: .o), .occupied(4))
        XCTAssertEqual(try player.chooseMove(in: game), 12)
    }

    func testParsingUsesUserNumbering() throws {
        XCTAssertEqual(try ScriptedPlayer(parsing: "5 1 9").cells, [4, 0, 8])
        XCTAssertEqual(try ScriptedPlayer(parsing: "1,2,3").cells, [0, 1, 2])
        XCTAssertEqual(try ScriptedPlayer(parsing: "7\n8\n9\n").cells, [6, 7, 8])
        XCTAssertEqual(try ScriptedPlayer(parsing: " 4 ,, 6\t,\r\n  2,").cells, [3, 5, 1])
    }

    func testParsingComments() throws {
        let script = """
            # opening book
            5, 1  # centre, then a corner
            # nothing here: 7 8
            9#no space before the comment
               # indented comment
            3
            """
        XCTAssertEqual(try ScriptedPlayer(parsing: script).cells, [4, 0, 8, 2])
    }

    func testInvalidTokensReportTheirLine() {
        let cases: [(text: String, error: ScriptError)] = [
            ("5 0", .invalidToken("0", line: 1)),
            ("1\n2\n10", .invalidToken("10", line: 3)),
            ("# comment\n\n5 x 3", .invalidToken("x", line: 3)),
            ("1\r\n2\r\n-3", .invalidToken("-3", line: 3)),
            ("5;6", .invalidToken("5;6", line: 1)),
            ("1\n+2", .invalidToken("+2", line: 2)),
            ("٣", .invalidToken("٣", line: 1)),  // a non-ASCII digit
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ScriptedPlayer(parsing: text), text) { error in
                XCTAssertEqual(error as? ScriptError, expected, text)
            }
        }
    }

    func testEmptyScripts() {
        for text in ["", "   ", "\n\n", "# only a comment", " , , \n# 5"] {
            XCTAssertThrowsError(try ScriptedPlayer(parsing: text), text) { error in
                XCTAssertEqual(error as? ScriptError, .empty, text)
            }
        }
    }

    func testDescriptions() {
        XCTAssertEqual(ScriptError.invalidToken("10", line: 3).description, "line 3: \"10\" is not a cell number (1-9)")
        XCTAssertEqual(ScriptError.empty.description, "the script contains no moves")
        XCTAssertEqual(ScriptError.exhausted.description, "the script has no moves left")
    }

    func testScriptedGameAgainstScriptedGame() throws {
        var x = try ScriptedPlayer(parsing: "1 2 3")
        var o = try ScriptedPlayer(parsing: "4 5")
        var game = Game()
        while !game.isOver {
            let cell = game.turn == .x ? try x.chooseMove(in: game) : try o.chooseMove(in: game)
            try game.play(cell, by: game.turn)
        }
        XCTAssertEqual(game.result, GameResult(winner: .x, reason: .line([0, 1, 2])))
    }
}
