import GameRules
import XCTest

/// The key proof: the perfect player never loses, whatever the opponent does and whichever of its equally good
/// moves it picks. The whole game tree is walked (no memo), so every line of play is checked.
final class PerfectPlayerExhaustiveTests: XCTestCase {
    private struct Tally: Equatable, CustomStringConvertible {
        var leaves = 0
        var wins = 0
        var draws = 0
        var losses = 0
        var perfectChoices = 0

        var description: String {
            "\(leaves) lines (\(wins) wins, \(draws) draws, \(losses) losses) over \(perfectChoices) perfect-side nodes"
        }
    }

    /// Walks every opponent reply (all empty cells) and every best move of `perfect` (all of `Minimax.bestMoves`).
    /// When `opponentIsPerfect`, the opponent also plays only its best moves.
    private func walk(_ game: Game, perfect: Mark, opponentIsPerfect: Bool = false, tally: inout Tally) {
        if let result = game.result {
            tally.leaves += 1
            switch result.winner {
            case perfect: tally.wins += 1
            case nil: tally.draws += 1
            default:
                tally.losses += 1
                XCTFail("the perfect \(perfect) lost: moves \(game.moves.map { $0 + 1 })\n\(game.board)")
            }
            return
        }
        let cells: [Int]
        if game.turn == perfect || opponentIsPerfect {
            cells = Minimax.bestMoves(for: game)
            tally.perfectChoices += 1
            // The player itself always picks one of them.
            var player = PerfectPlayer(rng: SplitMix64(seed: UInt64(tally.perfectChoices)))
            XCTAssertTrue(cells.contains((try? player.chooseMove(in: game)) ?? -1))
        } else {
            cells = game.board.emptyCells
        }
        XCTAssertFalse(cells.isEmpty)
        for cell in cells {
            var child = game
            XCTAssertNoThrow(try child.play(cell, by: game.turn))
            walk(child, perfect: perfect, opponentIsPerfect: opponentIsPerfect, tally: &tally)
        }
    }

    func testPerfectPlayerNeverLosesAsEitherMarkMovingFirstOrSecond() {
        var tallies: [String: Tally] = [:]
        for perfect in Mark.allCases {
            for firstMover in Mark.allCases {
                var tally = Tally()
                walk(Game(firstMover: firstMover), perfect: perfect, tally: &tally)
                let name = "perfect \(perfect), \(firstMover) first"
                print("PerfectPlayer exhaustive, \(name): \(tally)")
                XCTAssertGreaterThan(tally.leaves, 0)
                XCTAssertGreaterThan(tally.wins, 0)
                XCTAssertGreaterThan(tally.draws, 0)
                XCTAssertEqual(tally.losses, 0, name)
                XCTAssertEqual(tally.leaves, tally.wins + tally.draws + tally.losses)
                tallies[name] = tally
            }
        }
        // Pinned so that a change in the search (or an empty walk) cannot pass unnoticed.
        // The game is symmetric in the marks: only who moves first matters.
        XCTAssertEqual(tallies["perfect X, X first"], tallies["perfect O, O first"])
        XCTAssertEqual(tallies["perfect O, X first"], tallies["perfect X, O first"])
        XCTAssertEqual(tallies["perfect X, X first"]?.description,
                       "10640 lines (7056 wins, 3584 draws, 0 losses) over 11953 perfect-side nodes")
        XCTAssertEqual(tallies["perfect O, X first"]?.description,
                       "6112 lines (2528 wins, 3584 draws, 0 losses) over 6001 perfect-side nodes")
    }

    func testPerfectVersusPerfectIsAlwaysADraw() {
        for firstMover in Mark.allCases {
            var tally = Tally()
            walk(Game(firstMover: firstMover), perfect: .x, opponentIsPerfect: true, tally: &tally)
            print("Perfect vs perfect, \(firstMover) first: \(tally)")
            XCTAssertGreaterThan(tally.leaves, 0)
            XCTAssertEqual(tally.draws, tally.leaves, "every line is a draw")
            XCTAssertEqual(tally.description, "3584 lines (0 wins, 3584 draws, 0 losses) over 8550 perfect-side nodes")
        }
    }
}
