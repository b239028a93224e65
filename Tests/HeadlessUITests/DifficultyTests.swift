@testable import AppCore
import GameClient
import GameRules
@testable import HeadlessUI
import MatchPlay
import Synchronization
import XCTest

/// The computer's levels have one name each (`easy`, `medium`, `perfect`; `random` is another name for `easy`), and
/// every level replays with its seed.
final class DifficultyTests: XCTestCase {
    func testPlayerNames() {
        XCTAssertEqual(PlayerSpec(parsing: "easy"), .easy)
        XCTAssertEqual(PlayerSpec(parsing: "random"), .easy, "random stays accepted")
        XCTAssertEqual(PlayerSpec(parsing: "medium"), .medium)
        XCTAssertEqual(PlayerSpec(parsing: "perfect"), .perfect)
        XCTAssertNil(PlayerSpec(parsing: "hard"))
        XCTAssertEqual([PlayerSpec.easy, .medium, .perfect].map(\.description), ["easy", "medium", "perfect"])
        XCTAssertEqual([PlayerSpec.easy, .medium, .perfect].map(\.strength), [.easy, .medium, .perfect])
        XCTAssertNil(PlayerSpec.human.strength)
        XCTAssertNil(PlayerSpec.script(path: "x").strength)
        XCTAssertEqual(ComputerMatch.Strength.allCases.map(\.rawValue), ["easy", "medium", "perfect"])
    }

    /// `--player medium --seed N` replays the same moves; another seed plays other ones.
    func testTheMediumPlayerReplaysWithItsSeed() throws {
        func games(seed: UInt64) throws -> [[Int]] {
            var player = try PlayerSpec.medium.makePlayer(seed: seed)
            var opponent = RandomPlayer(rng: SplitMix64(seed: 1))
            return try (0..<10).map { _ in
                var game = Game(firstMover: .x)
                while !game.isOver {
                    let cell = game.turn == .x ? try player.chooseMove(in: game) : try opponent.chooseMove(in: game)
                    try game.play(cell, by: game.turn)
                }
                return game.moves
            }
        }
        XCTAssertEqual(try games(seed: 3), try games(seed: 3))
        XCTAssertNotEqual(try games(seed: 3), try games(seed: 4))
    }

    func testAMediumMatchIsTheSameForTheSameSeed() {
        func play(seed: UInt64) -> [[Int]] {
            var match = ComputerMatch(strength: .medium, starter: .computer, seed: seed)
            var person = RandomPlayer(rng: SplitMix64(seed: 9))
            var games: [[Int]] = []
            for _ in 0..<8 {
                match.begin()
                while !match.game.isOver {
                    if match.isComputerTurn {
                        let cell = match.computerMove()
                        XCTAssertNotNil(cell, "\(match.game.moves)")
                    } else if let cell = try? person.chooseMove(in: match.game) {
                        XCTAssertNoThrow(try match.play(cell))
                    }
                }
                games.append(match.game.moves)
            }
            return games
        }
        XCTAssertEqual(play(seed: 21), play(seed: 21))
        XCTAssertNotEqual(play(seed: 21), play(seed: 22))
        XCTAssertEqual(ComputerMatch(strength: .medium, starter: .you, seed: 1).strength, .medium)
    }

    func testLineModeNamesTheLevel() throws {
        for (spec, name) in [(PlayerSpec.easy, "easy"), (.medium, "medium"), (.perfect, "perfect")] {
            let output = Mutex<[String]>([])
            var game = try LineGame(computer: spec, seed: 1, first: .computer, unicode: false, clock: ContinuousClock(),
                                    input: LineInput(lines: ["q", "y"], prompt: { _ in true }),
                                    write: { line in output.withLock { $0.append(line) } })
            _ = game.run()
            XCTAssertEqual(output.withLock { $0.first }?.hasPrefix("Tic-tac-toe against the computer (\(name))."), true,
                           "\(output.withLock { $0 })")
        }
        XCTAssertThrowsError(
            try LineGame(computer: .human, seed: 1, first: .you, unicode: false, clock: ContinuousClock())
        ) {
            XCTAssertEqual("\($0)", "the computer plays easy, medium or perfect, not human")
        }
    }
}
