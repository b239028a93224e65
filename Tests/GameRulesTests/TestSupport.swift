import GameRules
import XCTest

/// Plays `cells` in order, each by the side to move, from a new game.
func playedGame(_ cells: [Int], firstMover: Mark = .x, file: StaticString = #filePath, line: UInt = #line) -> Game {
    var game = Game(firstMover: firstMover)
    for cell in cells {
        do {
            try game.play(cell, by: game.turn)
        } catch {
            XCTFail("playing \(cells): cell \(cell) failed: \(error)", file: file, line: line)
        }
    }
    return game
}

/// The key of a position for memo tables in the tests.
struct Position: Hashable {
    let board: Board
    let turn: Mark

    init(_ game: Game) {
        board = game.board
        turn = game.turn
    }
}
