import GameRules
import XCTest

final class PlayerTests: XCTestCase {

    func testRandomPlayerIsDeterministicForASeed() throws {
        var x1 = RandomPlayer(rng: SplitMix64(seed: 42))
        var o1 = RandomPlayer(rng: SplitMix64(seed: 43))
        var x2 = RandomPlayer(rng: SplitMix64(seed: 42))
        var o2 = RandomPlayer(rng: SplitMix64(seed: 43))
        let first = try playOut(&x1, &o1)
        let second = try playOut(&x2, &o2)
        XCTAssertEqual(first, second)
        XCTAssertEqual(first.moves, [6, 5, 1, 4, 2, 3])
    }

    func testRandomPlayerPlaysOnlyEmptyCellsAndVaries() throws {
        var x = RandomPlayer(rng: SplitMix64(seed: 7))
        var o = RandomPlayer(rng: SplitMix64(seed: 8))
        var games = Set<[Int]>()
        var results: [Mark?: Int] = [:]
        for _ in 0..<300 {
            let game = try playOut(&x, &o)  // any illegal choice would throw
            games.insert(game.moves)
            results[game.result?.winner, default: 0] += 1
        }
        XCTAssertGreaterThan(games.count, 250)
        XCTAssertGreaterThan(results[.x] ?? 0, 0)
        XCTAssertGreaterThan(results[.o] ?? 0, 0)
        XCTAssertGreaterThan(results[nil] ?? 0, 0)
    }

    func testRandomPlayerIsRoughlyUniform() throws {
        var player = RandomPlayer(rng: SplitMix64(seed: 99))
        var counts = [Int](repeating: 0, count: 9)
        let game = playedGame([4])  // 8 empty cells
        for _ in 0..<8_000 {
            counts[try player.chooseMove(in: game)] += 1
        }
        XCTAssertEqual(counts[4], 0)
        for cell in game.board.emptyCells {
            XCTAssertTrue((850...1_150).contains(counts[cell]), "cell \(cell): \(counts[cell])")
        }
    }

    func testPlayersThrowWhenTheGameIsOver() {
        let over = playedGame([0, 3, 1, 4, 2])
        var random = RandomPlayer(rng: SplitMix64(seed: 1))
        var perfect = PerfectPlayer(rng: SplitMix64(seed: 1))
        XCTAssertThrowsError(try random.chooseMove(in: over)) { XCTAssertEqual($0 as? MoveError, .gameOver) }
        XCTAssertThrowsError(try perfect.chooseMove(in: over)) { XCTAssertEqual($0 as? MoveError, .gameOver) }
    }

    func testPerfectPlayerIsDeterministicForASeedAndVariesAcrossSeeds() throws {
        var x1 = PerfectPlayer(rng: SplitMix64(seed: 5))
        var o1 = PerfectPlayer(rng: SplitMix64(seed: 6))
        var x2 = PerfectPlayer(rng: SplitMix64(seed: 5))
        var o2 = PerfectPlayer(rng: SplitMix64(seed: 6))
        let first = try playOut(&x1, &o1)
        XCTAssertEqual(first, try playOut(&x2, &o2))
        XCTAssertEqual(first.moves, [3, 5, 7, 0, 1, 4, 8, 6, 2])
        XCTAssertEqual(first.result, GameResult(winner: nil, reason: .draw))

        var openings = Set<Int>()
        var games = Set<[Int]>()
        for seed in 0..<64 as Range<UInt64> {
            var x = PerfectPlayer(rng: SplitMix64(seed: seed))
            var o = PerfectPlayer(rng: SplitMix64(seed: seed &+ 1_000))
            let game = try playOut(&x, &o)
            XCTAssertEqual(game.result, GameResult(winner: nil, reason: .draw))
            openings.insert(game.moves[0])
            games.insert(game.moves)
        }
        XCTAssertEqual(openings, Set(0...8), "every opening is a draw, so all are chosen")
        XCTAssertGreaterThan(games.count, 30)
    }

    func testPerfectPlayerTakesAnImmediateWin() throws {
        // X X 3 / O O 6 / 7 8 9, X to move: X wins at 3 (cell 2); O threatens 6 (cell 5) but that does not matter.
        let game = playedGame([0, 3, 1, 4])
        XCTAssertEqual(Minimax.bestMoves(for: game), [2])
        for seed in 0..<20 as Range<UInt64> {
            var player = PerfectPlayer(rng: SplitMix64(seed: seed))
            XCTAssertEqual(try player.chooseMove(in: game), 2)
        }
        // Two immediate wins (cells 2 and 6) and a slower one (cell 8): only the immediate wins are best.
        let twoWins = playedGame([0, 4, 1, 5, 3, 7])
        XCTAssertEqual(twoWins.board, Board("XX.\nXOO\n.O."))
        XCTAssertEqual(Minimax.bestMoves(for: twoWins), [2, 6])
        XCTAssertEqual(Minimax.moveValues(for: twoWins).map(\.cell), [2, 6, 8])
        XCTAssertEqual(Minimax.moveValues(for: twoWins).map(\.value), [9, 9, 7])
    }

    func testPerfectPlayerBlocksAnImmediateLoss() throws {
        // X X 3 / 4 O 6 / 7 8 9, O to move: O must block at 3 (cell 2); that holds the draw.
        let drawn = playedGame([0, 4, 1])
        XCTAssertEqual(Minimax.bestMoves(for: drawn), [2])
        XCTAssertEqual(Minimax.moveValues(for: drawn).first { $0.cell == 2 }?.value, 0)
        XCTAssertTrue(Minimax.moveValues(for: drawn).allSatisfy { $0.cell == 2 || $0.value == -8 })
        // X O 3 / 4 X 6 / 7 8 9, O to move: blocking at 9 (cell 8) only delays the loss, but it is still the best.
        let game = playedGame([4, 1, 0])
        XCTAssertEqual(game.board, Board("XO.\n.X.\n..."))
        XCTAssertEqual(Minimax.bestMoves(for: game), [8])
        XCTAssertEqual(Minimax.moveValues(for: game).first { $0.cell == 8 }?.value, -6)
        for seed in 0..<20 as Range<UInt64> {
            var player = PerfectPlayer(rng: SplitMix64(seed: seed))
            XCTAssertEqual(try player.chooseMove(in: game), 8)
            var blocker = PerfectPlayer(rng: SplitMix64(seed: seed))
            XCTAssertEqual(try blocker.chooseMove(in: drawn), 2)
        }
        // X O O / 4 X 6 / X 8 9, O to move: X has two threats (cells 3 and 8), so every move loses at once.
        let lost = playedGame([0, 1, 6, 2, 4])
        XCTAssertEqual(lost.board, Board("XOO\n.X.\nX.."))
        let values = Minimax.moveValues(for: lost)
        XCTAssertEqual(values.map(\.cell), [3, 5, 7, 8])
        XCTAssertTrue(values.allSatisfy { $0.value == -8 }, "\(values)")
        XCTAssertEqual(Minimax.bestMoves(for: lost), [3, 5, 7, 8])
    }
}
