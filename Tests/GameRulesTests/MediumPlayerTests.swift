import GameRules
import XCTest

final class MediumPlayerTests: XCTestCase {
    func testMediumPlayerIsDeterministicForASeed() throws {
        var first = MediumPlayer(rng: SplitMix64(seed: 11))
        var second = MediumPlayer(rng: SplitMix64(seed: 11))
        var opponent1 = RandomPlayer(rng: SplitMix64(seed: 12))
        var opponent2 = RandomPlayer(rng: SplitMix64(seed: 12))
        var games1: [[Int]] = []
        var games2: [[Int]] = []
        for _ in 0..<20 {
            games1.append(try playOut(&first, &opponent1).moves)
            games2.append(try playOut(&second, &opponent2).moves)
        }
        XCTAssertEqual(games1, games2)
        XCTAssertEqual(games1[0], [2, 5, 1, 8, 0])
        // Another seed, other games.
        var other = MediumPlayer(rng: SplitMix64(seed: 13))
        var opponent3 = RandomPlayer(rng: SplitMix64(seed: 12))
        var games3: [[Int]] = []
        for _ in 0..<20 { games3.append(try playOut(&other, &opponent3).moves) }
        XCTAssertNotEqual(games1, games3)
    }

    /// Over many seeded positions the best move comes 0.7 + 0.3 × (best moves / legal moves) of the time: the perfect
    /// move 7 times in 10, and the random legal move the rest (which is sometimes a best one as well).
    func testMediumPlayerPlaysThePerfectMoveAboutSeventyPercentOfTheTime() throws {
        XCTAssertEqual(MediumPlayer<SplitMix64>.perfectChance, 0.7)
        var medium = MediumPlayer(rng: SplitMix64(seed: 2026))
        var walker = RandomPlayer(rng: SplitMix64(seed: 7))
        var trials = 0
        var best = 0
        var expected = 0.0
        var onlyOneBest = (trials: 0, best: 0, perfectShare: 0.0)
        while trials < 20_000 {
            var game = Game(firstMover: .x)
            while !game.isOver {
                let bestMoves = Minimax.bestMoves(for: game)
                let legal = game.board.emptyCells.count
                let cell = try medium.chooseMove(in: game)
                XCTAssertNil(game.validate(cell, by: game.turn))
                trials += 1
                let share = 0.7 + 0.3 * Double(bestMoves.count) / Double(legal)
                expected += share
                if bestMoves.contains(cell) { best += 1 }
                if bestMoves.count == 1, legal >= 4 {
                    onlyOneBest.trials += 1
                    onlyOneBest.perfectShare += share
                    if bestMoves.contains(cell) { onlyOneBest.best += 1 }
                }
                try game.play(try walker.chooseMove(in: game), by: game.turn)
            }
        }
        // Binomial spread: sd ≤ √(n/4) ≈ 71 for 20,000 trials; 1% of the trials is almost 3 sd.
        XCTAssertEqual(Double(best), expected, accuracy: Double(trials) * 0.01)
        XCTAssertGreaterThan(onlyOneBest.trials, 1_000)
        XCTAssertEqual(Double(onlyOneBest.best), onlyOneBest.perfectShare, accuracy: Double(onlyOneBest.trials) * 0.03)
        // Where one move is best among many, the player misses it about a quarter of the time: it is not perfect.
        let rate = Double(onlyOneBest.best) / Double(onlyOneBest.trials)
        XCTAssertTrue((0.72...0.82).contains(rate), "best move in \(rate) of the single-best positions")
    }

    func testMediumPlayerMissesABlockSometimesAndSpreadsItsMistakes() throws {
        // X X 3 / 4 O 6 / 7 8 9, O to move: only cell 2 blocks; 6 legal moves.
        let game = playedGame([0, 4, 1])
        XCTAssertEqual(Minimax.bestMoves(for: game), [2])
        var player = MediumPlayer(rng: SplitMix64(seed: 5))
        var counts = [Int](repeating: 0, count: 9)
        for _ in 0..<6_000 {
            counts[try player.chooseMove(in: game)] += 1
        }
        // 0.7 + 0.3 / 6 = 0.75 for the block, 0.05 for each of the 5 other cells.
        XCTAssertTrue((4_350...4_650).contains(counts[2]), "block: \(counts[2])")
        for cell in [3, 5, 6, 7, 8] {
            XCTAssertTrue((200...400).contains(counts[cell]), "cell \(cell): \(counts[cell])")
        }
        XCTAssertEqual(counts[0] + counts[1] + counts[4], 0, "never an occupied cell")
    }

    func testMediumPlayerAlwaysPlaysLegalMovesAndThrowsWhenOver() throws {
        for seed in 0..<200 as Range<UInt64> {
            var x = MediumPlayer(rng: SplitMix64(seed: seed))
            var o = MediumPlayer(rng: SplitMix64(seed: seed &+ 10_000))
            let game = try playOut(&x, &o, firstMover: seed % 2 == 0 ? .x : .o)  // an illegal move would throw
            XCTAssertTrue(game.isOver)
            XCTAssertThrowsError(try x.chooseMove(in: game)) { XCTAssertEqual($0 as? MoveError, .gameOver) }
        }
    }
}
