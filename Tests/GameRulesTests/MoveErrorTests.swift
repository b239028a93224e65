import GameRules
import XCTest

final class MoveErrorTests: XCTestCase {
    func testEachError() throws {
        var game = Game()
        XCTAssertNil(game.validate(4, by: .x))
        XCTAssertEqual(game.validate(-1, by: .x), .outOfRange(-1))
        XCTAssertEqual(game.validate(9, by: .x), .outOfRange(9))
        XCTAssertEqual(game.validate(4, by: .o), .notYourTurn(expected: .x))
        try game.play(4, by: .x)
        XCTAssertEqual(game.validate(4, by: .o), .occupied(4))
        XCTAssertEqual(game.validate(4, by: .x), .notYourTurn(expected: .o))
        XCTAssertNil(game.validate(0, by: .o))
        try game.resign(.o)
        XCTAssertEqual(game.validate(0, by: .o), .gameOver)
    }

    func testPrecedenceGameOverThenTurnThenRangeThenOccupied() throws {
        var game = playedGame([0, 3, 1, 4])
        // In progress, X to move.
        XCTAssertEqual(game.validate(0, by: .o), .notYourTurn(expected: .x), "turn before occupied")
        XCTAssertEqual(game.validate(42, by: .o), .notYourTurn(expected: .x), "turn before range")
        XCTAssertEqual(game.validate(42, by: .x), .outOfRange(42))
        XCTAssertEqual(game.validate(3, by: .x), .occupied(3))
        try game.play(2, by: .x)
        // Over: every kind of bad move reports gameOver first.
        XCTAssertEqual(game.validate(8, by: .o), .gameOver, "a legal-looking move")
        XCTAssertEqual(game.validate(8, by: .x), .gameOver, "wrong turn")
        XCTAssertEqual(game.validate(42, by: .x), .gameOver, "out of range")
        XCTAssertEqual(game.validate(0, by: .o), .gameOver, "occupied")
    }

    func testPlayThrowsTheValidationErrorAndLeavesTheGameUnchanged() {
        let cases: [(cell: Int, mark: Mark, error: MoveError)] = [
            (9, .o, .notYourTurn(expected: .x)),
            (9, .x, .outOfRange(9)),
            (-3, .x, .outOfRange(-3)),
            (4, .x, .occupied(4)),
            (0, .x, .occupied(0)),
        ]
        for (cell, mark, expected) in cases {
            var game = playedGame([4, 0])
            let before = game
            XCTAssertThrowsError(try game.play(cell, by: mark)) { error in
                XCTAssertEqual(error as? MoveError, expected)
            }
            XCTAssertEqual(game, before)
        }
    }

    func testDescriptionsUseUserNumbering() {
        XCTAssertEqual(MoveError.occupied(4).description, "cell 5 is already taken")
        XCTAssertEqual(MoveError.outOfRange(11).description, "cell 12 is out of range (1-9)")
        XCTAssertEqual(MoveError.outOfRange(-1).description, "cell 0 is out of range (1-9)")
        XCTAssertEqual(MoveError.notYourTurn(expected: .o).description, "it is O's turn")
        XCTAssertEqual(MoveError.notYourTurn(expected: .x).description, "it is X's turn")
        XCTAssertEqual(MoveError.gameOver.description, "the game is over")
        XCTAssertEqual("\(MoveError.occupied(0))", "cell 1 is already taken")
    }
}
