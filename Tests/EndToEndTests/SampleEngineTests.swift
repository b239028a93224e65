import Foundation
import GameEngines
import GameRules
import XCTest
import TicTacToeTestSupport

/// The sample engines in Assets/engines, played through the engine process (real processes; nothing is timed).
final class SampleEngineTests: XCTestCase {
    /// Plays one game; `engines[mark]` moves for that mark, `builtIn` for the others.
    private func play(engines: [Mark: EnginePlayer], builtIn: inout some Player) async throws -> Game {
        for (mark, engine) in engines { try await engine.newGame(engineMark: mark) }
        var game = Game()
        while !game.isOver {
            let mover = game.turn
            let cell: Int
            if let engine = engines[mover] {
                cell = try await engine.move(in: game, timeLeft: .seconds(10))
            } else {
                cell = try builtIn.chooseMove(in: game)
            }
            try game.play(cell, by: mover)
            if let other = engines[mover.opponent], engines[mover] !== other {
                try await other.opponentMoved(cell)
            }
        }
        return game
    }

    func testPerfectEngineNeverLosesToRandomPlayer() async throws {
        let sandbox = try EngineSandbox()
        let engine = try await EnginePlayer.start(
            command: EngineSandbox.sample("perfect.py") + " --seed 7", logPath: sandbox.logPath, clock: ContinuousClock())
        let (name, version) = (await engine.name, await engine.version)
        XCTAssertEqual(name, "perfect.py")
        XCTAssertEqual(version, "1.0")
        var wins = 0
        for seed in 0..<20 {
            let mark: Mark = seed % 2 == 0 ? .x : .o
            var random = RandomPlayer(rng: SplitMix64(seed: UInt64(seed)))
            let game = try await play(engines: [mark: engine], builtIn: &random)
            XCTAssertNotEqual(game.result?.winner, mark.opponent, "seed \(seed): \(game.moves)")
            if game.result?.winner == mark { wins += 1 }
        }
        XCTAssertGreaterThan(wins, 10)  // random play loses most games to perfect play
        let quitFailure = await engine.quit()
        XCTAssertNil(quitFailure)
    }

    func testFirstFreeEngineLosesToPerfectEngineBothWays() async throws {
        let sandbox = try EngineSandbox()
        let perfect = try await EnginePlayer.start(
            command: EngineSandbox.sample("perfect.py") + " --seed 1", logPath: sandbox.logPath, clock: ContinuousClock())
        let firstFree = try await EnginePlayer.start(
            command: EngineSandbox.sample("first-free.sh"), logPath: sandbox.logPath, clock: ContinuousClock())
        let name = await firstFree.name
        XCTAssertEqual(name, "first-free.sh")
        var unused = RandomPlayer(rng: SplitMix64(seed: 0))
        for perfectMark in [Mark.x, .o] {
            let engines = [perfectMark: perfect, perfectMark.opponent: firstFree]
            let game = try await play(engines: engines, builtIn: &unused)
            XCTAssertEqual(game.result?.winner, perfectMark, "\(game.moves)")
        }
        let (quit1, quit2) = (await perfect.quit(), await firstFree.quit())
        XCTAssertNil(quit1)
        XCTAssertNil(quit2)
    }

    func testFirstFreeEngineIsBeatable() async throws {
        let sandbox = try EngineSandbox()
        let engine = try await EnginePlayer.start(
            command: EngineSandbox.sample("first-free.sh"), logPath: sandbox.logPath, clock: ContinuousClock())
        var perfect = PerfectPlayer(rng: SplitMix64(seed: 3))
        let game = try await play(engines: [.x: engine], builtIn: &perfect)
        XCTAssertEqual(game.result?.winner, .o, "\(game.moves)")
        await engine.quit()
    }
}
