import AppCore
import GameClient
import GameEngines
import GameProtocol
import GameRules
import MatchPlay
import MatchStatistics

/// One finished game of a series.
public struct SeriesGameRecord: Sendable {
    public var game: SeriesSchedule.Game
    /// The cells played (0...8), X first.
    public var moves: [Int]
    public var result: GameResult
    public var board: Board
    /// An engine that failed lost the game by forfeit: which mark, and why (the transcript's `engine-failed`).
    public var engineFailure: EngineFailureNote?
    /// The engines started for the game (X's first), with their logs.
    public var engines: [EngineStart]

    /// An engine's failure, as the transcript's `engine-failed` says it.
    public struct EngineFailureNote: Sendable, CustomStringConvertible {
        public var mark: Mark
        /// The engine's command line.
        public var engine: String
        /// `EngineFailure.kind`: `timeout`, `exited`, `illegal-move`, …
        public var kind: String
        /// `EngineFailure.reasonText`.
        public var reason: String
        /// Its standard error.
        public var logPath: String

        public init(mark: Mark, engine: String, kind: String, reason: String, logPath: String) {
            self.mark = mark
            self.engine = engine
            self.kind = kind
            self.reason = reason
            self.logPath = logPath
        }

        public init(mark: Mark, failure: EngineFailure) {
            self.init(mark: mark, engine: failure.engine, kind: failure.kind, reason: failure.reasonText,
                      logPath: failure.logPath)
        }

        /// As `EngineFailure.description`: `engine 'first-free' did not answer genmove within 2.000 s (stderr: …)`.
        public var description: String { "engine '\(engine)' \(reason) (stderr: \(logPath))" }
    }

    public struct EngineStart: Sendable {
        public var mark: Mark
        public var name: String
        public var pid: Int32
        public var log: String
    }

    /// The result from the pair's first player's side.
    public var outcome: MatchScore.Outcome {
        guard let winner = result.winner else { return .draw }
        let firstMark: Mark = game.x == game.first ? .x : .o
        return winner == firstMark ? .win : .loss
    }
}

/// Why a series stopped before its end: a script player failed (ran out of moves, played an illegal cell), as a
/// script fails a `host` or `join` match (exit 8); or, over the network (`match --over`), a game could not be played
/// (no permission, transport security, cannot listen or connect: the exit status `host` or `join` would give).
public struct SeriesFailure: ExitStatusConvertible, Sendable, CustomStringConvertible {
    public var game: Int
    /// The player whose script failed (nil for a failure of the network game itself).
    public var player: String?
    public var why: String
    public var exitStatus: ExitStatus

    public init(game: Int, player: String?, why: String, exitStatus: ExitStatus = .scriptError) {
        self.game = game
        self.player = player
        self.why = why
        self.exitStatus = exitStatus
    }

    public var description: String {
        guard let player else { return "game \(game): \(why)" }
        return "game \(game): script error: \(player): \(why)"
    }
}

/// Plays the games of a series in process: a loop over `GameRules` (no `MatchSession`, no sockets), the built-in
/// levels and scripts as `Player`s, engines as `EnginePlayer`s over pipes (a fresh process for each game; an engine
/// that fails forfeits the game). With `network`, each game is a network match instead (`playOverNetwork`).
public struct SeriesGamePlayer: Sendable {
    public var specs: [PlayerSpec]
    public var names: [String]
    public var seed: UInt64
    /// The scripts, read and parsed before the series starts (by player index); each game starts at its beginning.
    public var scripts: [Int: ScriptedPlayer]
    /// Where engines' standard error goes, and each move's time.
    public var engineLogDirectory: String
    public var moveTime: Duration?
    /// Each player's clock for a whole game (`--game-time`), chess-clock style: only the mover's runs, measured on the
    /// series' clock; an engine is told (and held to) the smaller of `moveTime` and what it has left. Nil: no game
    /// clock.
    public var gameTime: Duration?
    /// Plays each game as a network match (`match --over`) instead of in process.
    public var network: SeriesNetwork?
    /// The series' one clock: the game clocks, the engines' limits, the network games' waits.
    public var clock: any Clock<Duration>

    public init(
        specs: [PlayerSpec], names: [String], seed: UInt64, scripts: [Int: ScriptedPlayer],
        engineLogDirectory: String, moveTime: Duration?, gameTime: Duration? = nil, network: SeriesNetwork? = nil,
        clock: any Clock<Duration>
    ) {
        self.clock = clock
        self.network = network
        self.gameTime = gameTime
        self.specs = specs
        self.names = names
        self.seed = seed
        self.scripts = scripts
        self.engineLogDirectory = engineLogDirectory
        self.moveTime = moveTime
    }

    private enum Seat {
        case local(any Player)
        case engine(EnginePlayer)
        /// An engine that could not start: it forfeits at its first turn.
        case failed(EngineFailure)
    }

    public func play(_ scheduled: SeriesSchedule.Game) async throws(SeriesFailure) -> SeriesGameRecord {
        if let network { return try await playOverNetwork(scheduled, network) }
        var engines: [SeriesGameRecord.EngineStart] = []
        var seats: [Seat] = []
        for (mark, index) in [(Mark.x, scheduled.x), (.o, scheduled.o)] {
            let seat = await makeSeat(index, mark: mark, game: scheduled.number)
            if case .engine(let engine) = seat {
                engines.append(.init(mark: mark, name: await engine.name, pid: engine.pid, log: engine.logPath))
            }
            seats.append(seat)
        }
        var game = Game(firstMover: .x)
        var failure: SeriesGameRecord.EngineFailureNote?
        var quitEngines = false
        // Each mark's game time left (X's, O's), charged with the time each of its moves took.
        var left = [gameTime, gameTime]
        let elapsed = clock.stopwatch()
        defer {
            // A script that failed mid-game: the engine facing it is ended without waiting.
            if !quitEngines { for case .engine(let engine) in seats { Task { await engine.kill() } } }
        }
        while !game.isOver {
            let mark = game.turn
            let slot = mark == .x ? 0 : 1
            let index = mark == .x ? scheduled.x : scheduled.o
            switch seats[slot] {
            case .local(var player):
                let cell: Int
                let started = elapsed()
                do {
                    cell = try player.chooseMove(in: game)
                } catch {
                    throw SeriesFailure(game: scheduled.number, player: names[index], why: "\(error)")
                }
                seats[slot] = .local(player)
                if let time = left[slot] {
                    left[slot] = time - (elapsed() - started)
                    if left[slot]! < .zero {
                        game.timeOut(mark)
                        break
                    }
                }
                do {
                    _ = try game.play(cell, by: mark)
                } catch {
                    throw SeriesFailure(
                        game: scheduled.number, player: names[index], why: "illegal move \(cell + 1): \(error)")
                }
            case .engine(let engine):
                if let note = await engineTurn(engine, &game, mark: mark, left: &left[slot], elapsed: elapsed) {
                    failure = note
                }
            case .failed(let error):
                failure = .init(mark: mark, failure: error)
                game.forfeit(mark)
            }
        }
        quitEngines = true
        for case .engine(let engine) in seats { await engine.quit() }
        return SeriesGameRecord(
            game: scheduled, moves: game.moves, result: game.result!, board: game.board, engineFailure: failure,
            engines: engines)
    }

    /// The engine's move in `game`, its game time (`left`) charged; or its loss (stopped, out of time, a failure),
    /// with the failure to note.
    private func engineTurn(
        _ engine: EnginePlayer, _ game: inout Game, mark: Mark, left: inout Duration?, elapsed: () -> Duration
    ) async -> SeriesGameRecord.EngineFailureNote? {
        if Task.isCancelled {
            await engine.kill()
            game.forfeit(mark)
            return nil
        }
        do throws(EngineFailure) {
            let started = elapsed()
            let cell = try await engine.move(
                in: game, timeLeft: moveTime, gameClock: left.map { (left: max(.zero, $0), total: gameTime!) })
            if let time = left {
                left = time - (elapsed() - started)
                if left! < .zero {
                    // It answered, but after its clock ran out (the answer crossed the limit).
                    game.timeOut(mark)
                    return .init(
                        mark: mark,
                        failure: EngineFailure(
                            reason: .outOfGameTime(left: max(.zero, time), total: gameTime!),
                            engine: await engine.name, logPath: engine.logPath))
                }
            }
            _ = try? game.play(cell, by: mark)
            return nil
        } catch {
            if case .outOfGameTime = error.reason { game.timeOut(mark) } else { game.forfeit(mark) }
            return .init(mark: mark, failure: error)
        }
    }

    private func makeSeat(_ index: Int, mark: Mark, game number: Int) async -> Seat {
        if let script = scripts[index] { return .local(script) }
        switch specs[index] {
        case .engine(let command):
            let seat = EngineSeat(command: command, logDirectory: engineLogDirectory, clock: clock, moveTime: moveTime)
            do throws(EngineFailure) {
                let engine = try await seat.start()
                try await engine.newGame(engineMark: mark, firstMover: .x)
                return .engine(engine)
            } catch {
                return .failed(error)
            }
        default:
            let seed = SeriesSeeds.seed(series: seed, game: number, mark: mark)
            // The built-in levels never throw here (scripts come from `scripts`, people are refused before).
            return .local((try? specs[index].makePlayer(seed: seed)) ?? RandomPlayer(rng: SplitMix64(seed: seed)))
        }
    }
}
