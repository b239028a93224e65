import GameRules
import XCTest

final class BoardTests: XCTestCase {
    func testEmptyBoard() {
        let board = Board()
        XCTAssertEqual(Board.cellCount, 9)
        XCTAssertEqual(board.emptyCells, Array(0...8))
        XCTAssertFalse(board.isFull)
        XCTAssertNil(board.winningLine)
        for cell in 0..<9 {
            XCTAssertNil(board[cell])
        }
    }

    func testSubscriptSetsAndClearsOneCellOnly() {
        var board = Board()
        board[0] = .x
        board[8] = .o
        board[4] = .x
        XCTAssertEqual(board[0], .x)
        XCTAssertEqual(board[8], .o)
        XCTAssertEqual(board[4], .x)
        XCTAssertEqual(board.emptyCells, [1, 2, 3, 5, 6, 7])
        board[4] = .o
        XCTAssertEqual(board[4], .o)
        board[4] = nil
        XCTAssertNil(board[4])
        XCTAssertEqual(board, Board("X.......O"))
        XCTAssertNotEqual(board, Board())
    }

    func testTheEightLines() {
        XCTAssertEqual(Board.lines, [
            [0, 1, 2], [3, 4, 5], [6, 7, 8],
            [0, 3, 6], [1, 4, 7], [2, 5, 8],
            [0, 4, 8], [2, 4, 6],
        ])
    }

    func testWinningLineOnEveryLineForBothMarks() {
        for mark in Mark.allCases {
            for line in Board.lines {
                var board = Board()
                for cell in line {
                    board[cell] = mark
                }
                XCTAssertEqual(board.winningLine, WinningLine(mark: mark, cells: line))
                board[line[1]] = mark.opponent
                XCTAssertNil(board.winningLine, "\(line) broken by \(mark.opponent)")
            }
        }
    }

    func testWinningLineReportsTheFirstLineFound() {
        XCTAssertEqual(Board("XXX\nX..\nX..")?.winningLine, WinningLine(mark: .x, cells: [0, 1, 2]))
        XCTAssertEqual(Board("O.X\n.OX\n..O")?.winningLine, WinningLine(mark: .o, cells: [0, 4, 8]))
        XCTAssertEqual(Board("XO.\nXO.\nXO.")?.winningLine, WinningLine(mark: .x, cells: [0, 3, 6]))
    }

    func testIsFull() {
        XCTAssertEqual(Board("XOX\nXOO\nOXX")?.isFull, true)
        XCTAssertEqual(Board("XOX\nXOO\nOX.")?.isFull, false)
        XCTAssertEqual(Board("XOX\nXOO\nOX.")?.emptyCells, [8])
    }

    /// `winningLine`, `hasWinningLine` and `isFull` read the board's bits with masks: on all 3^9 grids (reachable or
    /// not) they say what a cell-by-cell reading of `Board.lines` says.
    func testLineAndFullnessMasksAgreeWithTheCellsOnEveryGrid() {
        let marks: [Mark?] = [nil, .x, .o]
        for code in 0..<19_683 {
            var board = Board()
            var rest = code
            for cell in 0..<Board.cellCount {
                board[cell] = marks[rest % 3]
                rest /= 3
            }
            let expected = Board.lines.lazy.compactMap { line -> WinningLine? in
                guard let mark = board[line[0]], board[line[1]] == mark, board[line[2]] == mark else { return nil }
                return WinningLine(mark: mark, cells: line)
            }.first
            XCTAssertEqual(board.winningLine, expected, "\(board)")
            XCTAssertEqual(board.hasWinningLine, expected != nil, "\(board)")
            XCTAssertEqual(board.isFull, (0..<Board.cellCount).allSatisfy { board[$0] != nil }, "\(board)")
        }
    }

    func testParsingCompactAndMultiLineForms() throws {
        let board = try XCTUnwrap(Board("XO.\n.X.\n..O"))
        XCTAssertEqual(board[0], .x)
        XCTAssertEqual(board[1], .o)
        XCTAssertEqual(board[4], .x)
        XCTAssertEqual(board[8], .o)
        XCTAssertEqual(board.emptyCells, [2, 3, 5, 6, 7])
        XCTAssertEqual(Board("XO..X...O"), board)
        XCTAssertEqual(Board("  x o .\r\n . x . \n\t. . o\n"), board)
        XCTAssertEqual(Board("........."), Board())
        XCTAssertEqual(Board("...\n...\n...\n"), Board())
    }

    func testParsingRowsWithSpacesForEmptyCells() {
        let board = Board("XO.\n.X.\n..O")
        XCTAssertEqual(Board("XO \n X \n  O"), board)
        XCTAssertEqual(Board("XO\n X\n  O\n"), board, "missing characters at the end of a row are empty")
        XCTAssertEqual(Board("   \n   \n   "), Board())
    }

    func testParsingRejectsBadText() {
        XCTAssertNil(Board(""))
        XCTAssertNil(Board("XO..X..O"), "8 cells")
        XCTAssertNil(Board("XO..X...O."), "10 cells")
        XCTAssertNil(Board("XO..X...Z"), "unknown character")
        XCTAssertNil(Board("XO.\n.X.\n..O\n..."), "4 rows")
        XCTAssertNil(Board("XO  \n X \n  O"), "a row of 4 characters with spaces")
        XCTAssertNil(Board("X1.\n.X.\n..O"), "digits are not cells")
    }

    func testRenderingASCII() throws {
        let board = try XCTUnwrap(Board("X.O\n.X.\n..."))
        XCTAssertEqual(board.rendered(), " X | 2 | O \n---+---+---\n 4 | X | 6 \n---+---+---\n 7 | 8 | 9 ")
        XCTAssertEqual(board.description, board.rendered())
        XCTAssertEqual("\(board)", board.rendered(unicode: false))
        XCTAssertEqual(Board().rendered(), " 1 | 2 | 3 \n---+---+---\n 4 | 5 | 6 \n---+---+---\n 7 | 8 | 9 ")
    }

    func testRenderingUnicode() throws {
        let board = try XCTUnwrap(Board("XOX\nOXO\nOX."))
        XCTAssertEqual(
            board.rendered(unicode: true),
            " X │ O │ X \n───┼───┼───\n O │ X │ O \n───┼───┼───\n O │ X │ 9 "
        )
    }
}
