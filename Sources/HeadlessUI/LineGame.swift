import AppProcess
import Dispatch
import FoundationEssentials
import GameClient
import GameEngines
import GameProtocol
import GameRules
import Localization
import MatchPlay
import Synchronization
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// A game against the computer in plain line mode: the board is printed, the human types cell numbers. The computer
/// is a built-in level or an engine (`--computer engine:COMMAND`), which is waited for (never longer than its own
/// limits) and loses a game it fails in.
public struct LineGame {
    public enum FirstMover: String, Sendable, CaseIterable { case you, computer, alternate }

    private var human: HumanLinePlayer
    /// The match itself: the same as the terminal UI's.
    private var match: ComputerMatch
    private let strengthName: String
    private let input: LineInput
    private let write: (String) -> Void
    private let unicode: Bool
    /// The engine playing the computer's side, if one does.
    private var engine: LineEngine?

    public init(
        computer: PlayerSpec,
        seed: UInt64,
        first: FirstMover,
        unicode: Bool,
        clock: any Clock<Duration>,
        input: LineInput = .standardInput,
        write: @escaping (String) -> Void = { CheckedOutput.standardOutput.writeLine($0) }
    ) throws {
        self.human = HumanLinePlayer(input: input)
        let strength: ComputerMatch.Strength
        if case .engine(let command) = computer {
            if let problem = computer.usageProblem { throw PlayerSpecError.invalidEngineCommand(problem) }
            engine = LineEngine(seat: EngineSeat(command: command, clock: clock))
            strength = .easy  // unused: the engine moves
        } else {
            guard let known = computer.strength else { throw LineGameError.notAComputer(computer) }
            strength = known
        }
        let starter: ComputerMatch.Starter
        switch first {
        case .you: starter = .you
        case .computer: starter = .computer
        case .alternate: starter = .alternate
        }
        self.match = ComputerMatch(strength: strength, starter: starter, seed: seed)
        self.strengthName = computer.engineCommand.map { "engine \($0)" } ?? strength.rawValue
        self.input = input
        self.write = write
        self.unicode = unicode
    }

    /// Plays games until the human declines a rematch or quits; returns the score (you, computer, draws).
    public mutating func run() -> (you: Int, computer: Int, draws: Int) {
        defer { engine?.quit() }
        var score: (you: Int, computer: Int, draws: Int) { (match.wins, match.losses, match.draws) }
        write(tr("Tic-tac-toe against the computer (%@). Cells are numbered like a phone keypad (1 top-left, 9 "
            + "bottom-right).", strengthName))
        while true {
            match.begin()
            let humanMark = match.humanMark
            write("\n" + (match.isHumanTurn
                ? tr("Game %@: you play %@ and move first", "\(match.number)", "\(humanMark)")
                : tr("Game %@: you play %@; the computer moves first", "\(match.number)", "\(humanMark)")))
            write(match.game.board.rendered(unicode: unicode))
            if let engine {
                let outcome = engine.newGame(mark: humanMark.opponent, write: write)
                if let failure = outcome { engineLost(failure) }
            }
            while !match.game.isOver {
                if match.isHumanTurn {
                    do {
                        let cell = try human.chooseMove(in: match.game)
                        try match.play(cell)
                    } catch HumanChoice.resign {
                        match.resign()
                    } catch {
                        write(Self.bye(score))
                        return score
                    }
                } else if let engine {
                    switch engine.move(in: match.game, write: write) {
                    case .success(let cell):
                        do {
                            try match.playComputer(cell)
                            write(tr("Computer plays %@", "\(cell + 1)"))
                        } catch {
                            write(tr("The computer could not move"))
                            return score
                        }
                    case .failure(let failure):
                        engineLost(failure)
                        continue
                    }
                } else {
                    guard let cell = match.computerMove() else {
                        write(tr("The computer could not move"))
                        return score
                    }
                    write(tr("Computer plays %@", "\(cell + 1)"))
                }
                write(match.game.board.rendered(unicode: unicode))
            }
            switch match.game.result?.winner {
            case humanMark? where match.game.result?.reason == .resignation(humanMark.opponent):
                write(tr("The computer resigned: you win!"))
            case nil:
                write(tr("Draw."))
            case humanMark?:
                write(tr("You win!"))
            default:
                write(match.game.result?.reason == .resignation(humanMark) ? tr("You resigned.") : tr("The computer wins."))
            }
            write(tr("Score: you %@, computer %@, draws %@", "\(score.you)", "\(score.computer)", "\(score.draws)"))
            let answer = input.readLine(prompt: tr("Play again? [Y/n] "))?.trimmingWhitespace().lowercased()
            guard let answer, answer.isEmpty || answer.hasPrefix("y") || answer == "r" else {
                write(Self.bye(score))
                return score
            }
        }
    }

    /// The engine failed: it forfeits the game in progress, with the reason and its log.
    private mutating func engineLost(_ failure: EngineFailure) {
        write(tr("Engine '%@' %@; it loses the game (stderr: %@)", DisplayText.escaped(failure.engine),
                 DisplayText.escaped(failure.reasonText), DisplayText.escaped(failure.logPath)))
        match.forfeitComputer()
    }

    private static func bye(_ score: (you: Int, computer: Int, draws: Int)) -> String {
        tr("Bye. Score: you %@, computer %@, draws %@", "\(score.you)", "\(score.computer)", "\(score.draws)")
    }
}

/// Why a line-mode game cannot start.
public enum LineGameError: Error, CustomStringConvertible {
    case notAComputer(PlayerSpec)

    public var description: String {
        switch self {
        case .notAComputer(let spec): return "the computer plays easy, medium or perfect, not \(spec)"
        }
    }
}

/// An engine for line mode: its calls are made from the synchronous game loop, each one waited for (`blockingWait`)
/// while the engine is spoken to by a task (its own limits bound every call: it never hangs the game). One process
/// at a time; after a failure the next game starts a fresh one.
final class LineEngine {
    private let seat: EngineSeat
    private var engine: EnginePlayer?

    init(seat: EngineSeat) { self.seat = seat }

    /// Tells the engine (started if needed) a new game in which it plays `mark`, X first; a failure is returned.
    func newGame(mark: Mark, write: (String) -> Void) -> EngineFailure? {
        switch running(write: write) {
        case .failure(let failure): return failure
        case .success(let engine):
            let result = Self.wait { () async -> EngineFailure? in
                do throws(EngineFailure) {
                    try await engine.newGame(engineMark: mark, firstMover: .x)
                    return nil
                } catch {
                    return error
                }
            }
            if result != nil { self.engine = nil }
            return result
        }
    }

    /// The engine's move in `game` (it catches up with the moves it was not told of).
    func move(in game: Game, write: (String) -> Void) -> Result<Int, EngineFailure> {
        switch running(write: write) {
        case .failure(let failure): return .failure(failure)
        case .success(let engine):
            let result = Self.wait { () async -> Result<Int, EngineFailure> in
                do throws(EngineFailure) {
                    return .success(try await engine.move(in: game, timeLeft: nil))
                } catch {
                    return .failure(error)
                }
            }
            if case .failure = result { self.engine = nil }
            return result
        }
    }

    /// Says `quit` to the engine, if one runs.
    func quit() {
        guard let engine else { return }
        self.engine = nil
        _ = Self.wait { await engine.quit() }
    }

    private func running(write: (String) -> Void) -> Result<EnginePlayer, EngineFailure> {
        if let engine { return .success(engine) }
        let seat = seat
        let started = Self.wait { () async -> Result<EnginePlayer, EngineFailure> in
            do throws(EngineFailure) {
                return .success(try await seat.start())
            } catch {
                return .failure(error)
            }
        }
        if case .success(let engine) = started {
            self.engine = engine
            let name = Self.wait { await engine.name }
            write(tr("Engine '%@' started (pid %@; stderr: %@)", DisplayText.escaped(name), "\(engine.pid)",
                     DisplayText.escaped(engine.logPath)))
        }
        return started
    }

    /// Runs `operation` in a task and waits for it here (the line game's own thread, never a task's).
    private static func wait<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
        blockingWait(for: operation)
    }
}
