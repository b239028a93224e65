import GameRules
import XCTest

final class MinimaxTests: XCTestCase {
    /// An independent, straightforward negamax over the `Game` API with its own memo, using the documented scale:
    /// a win on the k-th ply from now is worth 10 - k, a loss -(10 - k), a draw 0.
    private final class Reference {
        var memo: [Position: Int] = [:]

        func moveValue(_ game: Game, _ cell: Int) -> Int {
            var child = game
            guard let result = try? child.play(cell, by: game.turn) ?? nil else {
                let reply = value(child)  // the opponent's best, one ply further away
                return reply == 0 ? 0 : -(reply - (reply > 0 ? 1 : -1))
            }
            return result.winner == game.turn ? 9 : 0
        }

        func value(_ game: Game) -> Int {
            if let known = memo[Position(game)] {
                return known
            }
            let best = game.board.emptyCells.map { moveValue(game, $0) }.max()!
            memo[Position(game)] = best
            return best
        }
    }

    /// Every game position reachable from a new game, with `firstMover` moving first.
    private func reachablePositions(firstMover: Mark) -> [Game] {
        var seen: Set<Position> = []
        var positions: [Game] = []
        var stack = [Game(firstMover: firstMover)]
        while let game = stack.popLast() {
            guard seen.insert(Position(game)).inserted else {
                continue
            }
            positions.append(game)
            guard !game.isOver else {
                continue
            }
            for cell in game.board.emptyCells {
                var child = game
                _ = try? child.play(cell, by: game.turn)
                stack.append(child)
            }
        }
        return positions
    }

    func testValuesMatchAnIndependentNegamaxInEveryReachablePosition() {
        let reference = Reference()
        for firstMover in Mark.allCases {
            let positions = reachablePositions(firstMover: firstMover)
            XCTAssertEqual(positions.count, 5_478, "the well-known number of reachable positions")
            var checked = 0
            for game in positions {
                let values = Minimax.moveValues(for: game)
                if game.isOver {
                    XCTAssertTrue(values.isEmpty)
                    XCTAssertTrue(Minimax.bestMoves(for: game).isEmpty)
                    XCTAssertNil(Minimax.bestMove(for: game) { _ in XCTFail("nothing to pick from"); return 0 })
                    continue
                }
                XCTAssertEqual(values.map(\.cell), game.board.emptyCells)
                let expected = game.board.emptyCells.map { reference.moveValue(game, $0) }
                XCTAssertEqual(values.map(\.value), expected, "\(game.board)")
                let best = expected.max()!
                let bestCells = values.filter { $0.value == best }.map(\.cell)
                XCTAssertEqual(Minimax.bestMoves(for: game), bestCells)
                // The computer's choice without the array: the k-th of the same cells, asked with their count.
                for rank in bestCells.indices {
                    var asked: [Int] = []
                    let cell = Minimax.bestMove(for: game) { count in
                        asked.append(count)
                        return rank
                    }
                    XCTAssertEqual(cell, bestCells[rank], "\(game.board)")
                    XCTAssertEqual(asked, [bestCells.count], "one pick, among all the best moves")
                }
                checked += 1
            }
            XCTAssertEqual(checked, 4_520, "non-terminal reachable positions")
        }
    }

    func testTheEmptyBoardIsADrawAndEveryOpeningDraws() {
        for firstMover in Mark.allCases {
            let values = Minimax.moveValues(for: Game(firstMover: firstMover))
            XCTAssertEqual(values.map(\.cell), Array(0...8))
            XCTAssertTrue(values.allSatisfy { $0.value == 0 })
            XCTAssertEqual(Minimax.bestMoves(for: Game(firstMover: firstMover)), Array(0...8))
        }
        // After an edge opening, the answer next to it on the far side loses for O; the centre draws.
        let edge = playedGame([1])
        let values = Dictionary(uniqueKeysWithValues: Minimax.moveValues(for: edge).map { ($0.cell, $0.value) })
        XCTAssertEqual(values[4], 0)
        XCTAssertLessThan(values[6]!, 0)
    }

    func testValuesAreSymmetricInTheMarks() {
        // The same moves with O moving first give the same values.
        for moves in [[4], [0, 4], [1, 4, 7], [0, 1, 4], [4, 0, 8, 2]] {
            XCTAssertEqual(
                Minimax.moveValues(for: playedGame(moves)).map(\.value),
                Minimax.moveValues(for: playedGame(moves, firstMover: .o)).map(\.value)
            )
        }
    }

    /// Speed is `make bench`'s to measure; here, that perfect play against itself always draws.
    func testAHundredPerfectGamesAllDraw() throws {
        var draws = 0
        for seed in 0..<100 as Range<UInt64> {
            var x = PerfectPlayer(rng: SplitMix64(seed: seed))
            var o = PerfectPlayer(rng: SplitMix64(seed: ~seed))
            var game = Game(firstMover: seed.isMultiple(of: 2) ? .x : .o)
            while !game.isOver {
                let cell = game.turn == .x ? try x.chooseMove(in: game) : try o.chooseMove(in: game)
                try game.play(cell, by: game.turn)
            }
            if game.result == GameResult(winner: nil, reason: .draw) {
                draws += 1
            }
        }
        XCTAssertEqual(draws, 100)
    }
}
