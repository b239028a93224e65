import GameRules
import XCTest

final class GameTests: XCTestCase {
    func testNewGame() {
        let game = Game()
        XCTAssertEqual(game.firstMover, .x)
        XCTAssertEqual(game.turn, .x)
        XCTAssertEqual(game.board, Board())
        XCTAssertEqual(game.moves, [])
        XCTAssertNil(game.result)
        XCTAssertFalse(game.isOver)

        let oFirst = Game(firstMover: .o)
        XCTAssertEqual(oFirst.firstMover, .o)
        XCTAssertEqual(oFirst.turn, .o)
    }

    func testTurnsAlternateAndMovesAreRecorded() throws {
        var game = Game()
        XCTAssertNil(try game.play(4, by: .x))
        XCTAssertEqual(game.turn, .o)
        XCTAssertNil(try game.play(0, by: .o))
        XCTAssertEqual(game.turn, .x)
        XCTAssertEqual(game.moves, [4, 0])
        XCTAssertEqual(game.board, Board("O...X...."))
        XCTAssertFalse(game.isOver)
    }

    /// X plays `line` while O plays the first two other cells; X wins with the fifth move.
    func testFirstMoverWinsOnEveryLine() throws {
        for firstMover in Mark.allCases {
            for line in Board.lines {
                let others = (0..<9).filter { !line.contains($0) }
                let cells = [line[0], others[0], line[1], others[1], line[2]]
                var game = Game(firstMover: firstMover)
                for (index, cell) in cells.enumerated() {
                    let result = try game.play(cell, by: game.turn)
                    if index < cells.count - 1 {
                        XCTAssertNil(result)
                    } else {
                        let expected = GameResult(winner: firstMover, reason: .line(line))
                        XCTAssertEqual(result, expected, "\(line)")
                        XCTAssertEqual(game.result, expected)
                    }
                }
                XCTAssertTrue(game.isOver)
                XCTAssertEqual(game.board.winningLine, WinningLine(mark: firstMover, cells: line))
                XCTAssertEqual(game.moves, cells)
            }
        }
    }

    /// O (moving second) plays `line` while X plays three other cells that are not a line; O wins with move six.
    func testSecondMoverWinsOnEveryLine() throws {
        for line in Board.lines {
            let others = (0..<9).filter { !line.contains($0) }
            let fillers = try XCTUnwrap(triples(of: others).first { !Board.lines.contains($0) })
            let cells = [fillers[0], line[0], fillers[1], line[1], fillers[2], line[2]]
            let game = playedGame(cells)
            XCTAssertEqual(game.result, GameResult(winner: .o, reason: .line(line)), "\(line)")
            XCTAssertEqual(game.moves.count, 6)
        }
    }

    func testWinOnTheLastCellIsAWinNotADrawAndReportsTheFirstLine() {
        // X completes both the top row and the left column with the ninth move.
        let game = playedGame([1, 4, 2, 5, 3, 8, 6, 7, 0])
        XCTAssertTrue(game.board.isFull)
        XCTAssertEqual(game.result, GameResult(winner: .x, reason: .line([0, 1, 2])))
    }

    func testDraw() throws {
        var game = playedGame([0, 1, 2, 4, 3, 5, 7, 6])
        XCTAssertFalse(game.isOver)
        let result = try game.play(8, by: .x)
        XCTAssertEqual(result, GameResult(winner: nil, reason: .draw))
        XCTAssertEqual(game.result, result)
        XCTAssertTrue(game.isOver)
        XCTAssertEqual(game.board, Board("XOX\nXOO\nOXX"))
        XCTAssertNil(game.board.winningLine)
    }

    func testNoMovesAfterTheGameIsOver() {
        var game = playedGame([0, 3, 1, 4, 2])
        XCTAssertEqual(game.result?.winner, .x)
        XCTAssertThrowsError(try game.play(8, by: game.turn)) { XCTAssertEqual($0 as? MoveError, .gameOver) }
        XCTAssertThrowsError(try game.play(8, by: .o)) { XCTAssertEqual($0 as? MoveError, .gameOver) }
        XCTAssertEqual(game.moves, [0, 3, 1, 4, 2])
    }

    func testResignation() throws {
        var game = playedGame([4])
        try game.resign(.x)  // not X's turn: resigning needs no turn
        XCTAssertEqual(game.result, GameResult(winner: .o, reason: .resignation(.x)))
        XCTAssertTrue(game.isOver)
        XCTAssertThrowsError(try game.resign(.o)) { XCTAssertEqual($0 as? MoveError, .gameOver) }
        XCTAssertThrowsError(try game.play(0, by: .o)) { XCTAssertEqual($0 as? MoveError, .gameOver) }
        XCTAssertEqual(game.result, GameResult(winner: .o, reason: .resignation(.x)))

        var fresh = Game()
        try fresh.resign(.o)
        XCTAssertEqual(fresh.result, GameResult(winner: .x, reason: .resignation(.o)))

        var won = playedGame([0, 3, 1, 4, 2])
        XCTAssertThrowsError(try won.resign(.o)) { XCTAssertEqual($0 as? MoveError, .gameOver) }
        XCTAssertEqual(won.result?.reason, .line([0, 1, 2]))
    }

    func testForfeit() {
        var game = playedGame([4, 0])
        game.forfeit(.o)
        XCTAssertEqual(game.result, GameResult(winner: .x, reason: .forfeit(.o)))
        game.forfeit(.x)  // no-op once over
        XCTAssertEqual(game.result, GameResult(winner: .x, reason: .forfeit(.o)))
        XCTAssertEqual(game.validate(1, by: .x), .gameOver)

        var drawn = playedGame([0, 1, 2, 4, 3, 5, 7, 6, 8])
        drawn.forfeit(.x)
        XCTAssertEqual(drawn.result, GameResult(winner: nil, reason: .draw))

        var fresh = Game(firstMover: .o)
        fresh.forfeit(.x)
        XCTAssertEqual(fresh.result, GameResult(winner: .o, reason: .forfeit(.x)))
    }

    func testTimeOut() {
        var game = playedGame([4])  // O to move
        game.timeOut(.o)
        XCTAssertEqual(game.result, GameResult(winner: .x, reason: .timeout(.o)))
        game.timeOut(.x)  // no-op once over
        XCTAssertEqual(game.result, GameResult(winner: .x, reason: .timeout(.o)))
        XCTAssertEqual(game.validate(1, by: .o), .gameOver)

        // The verdict need not come on the loser's turn: its move may have crossed it.
        var crossed = playedGame([4, 0])  // X to move, but O is the one out of time
        crossed.timeOut(.o)
        XCTAssertEqual(crossed.result, GameResult(winner: .x, reason: .timeout(.o)))

        var won = playedGame([0, 3, 1, 4, 2])
        won.timeOut(.o)
        XCTAssertEqual(won.result?.reason, .line([0, 1, 2]))
    }

    func testGamesAreValues() throws {
        let original = playedGame([4])
        var copy = original
        try copy.play(0, by: .o)
        XCTAssertEqual(original.moves, [4])
        XCTAssertEqual(copy.moves, [4, 0])
        XCTAssertNotEqual(original, copy)
        XCTAssertEqual(playedGame([4, 0]), copy)
    }

    private func triples(of cells: [Int]) -> [[Int]] {
        var result: [[Int]] = []
        for i in cells.indices {
            for j in cells.indices where j > i {
                for k in cells.indices where k > j {
                    result.append([cells[i], cells[j], cells[k]])
                }
            }
        }
        return result
    }
}
