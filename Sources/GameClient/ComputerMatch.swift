import GameRules

/// A match against the computer, the same for every front end (the terminal UI and line mode): who starts each game,
/// the computer's moves, the score. Pure: no I/O, no clock; the front end shows it and decides when the computer
/// moves.
public struct ComputerMatch: Sendable {
    /// How well the computer plays.
    /// The levels, weakest first; each has one name in the CLI (`--player`, `--computer`) and the terminal UI.
    public enum Strength: String, Sendable, Hashable, CaseIterable {
        /// Random legal moves (`RandomPlayer`).
        case easy
        /// The perfect move 7 times in 10, otherwise a random legal one (`MediumPlayer`).
        case medium
        /// Minimax: never loses (`PerfectPlayer`).
        case perfect
    }

    /// Who moves first in each game.
    public enum Starter: String, Sendable, Hashable, CaseIterable { case you, computer, alternate }

    private enum Opponent: Sendable {
        case perfect(PerfectPlayer<SplitMix64>)
        case medium(MediumPlayer<SplitMix64>)
        case easy(RandomPlayer<SplitMix64>)

        init(_ strength: Strength, seed: UInt64) {
            switch strength {
            case .perfect: self = .perfect(PerfectPlayer(rng: SplitMix64(seed: seed)))
            case .medium: self = .medium(MediumPlayer(rng: SplitMix64(seed: seed)))
            case .easy: self = .easy(RandomPlayer(rng: SplitMix64(seed: seed)))
            }
        }

        mutating func choose(in game: Game) -> Int? {
            switch self {
            case .perfect(var player):
                defer { self = .perfect(player) }
                return try? player.chooseMove(in: game)
            case .medium(var player):
                defer { self = .medium(player) }
                return try? player.chooseMove(in: game)
            case .easy(var player):
                defer { self = .easy(player) }
                return try? player.chooseMove(in: game)
            }
        }
    }

    public private(set) var game = Game(firstMover: .x)
    public private(set) var humanMark: Mark = .x
    /// The game number (0 before the first).
    public private(set) var number = 0
    public private(set) var wins = 0
    public private(set) var losses = 0
    public private(set) var draws = 0
    public let strength: Strength
    public let starter: Starter
    private var opponent: Opponent

    /// A match whose computer draws its choices from `seed` (the same seed, the same games).
    public init(strength: Strength, starter: Starter, seed: UInt64) {
        self.strength = strength
        self.starter = starter
        opponent = Opponent(strength, seed: seed)
    }

    public var isHumanTurn: Bool { !game.isOver && game.turn == humanMark }
    public var isComputerTurn: Bool { !game.isOver && game.turn == humanMark.opponent }

    /// Starts the next game: X moves first, and the person is X when it is their turn to start.
    public mutating func begin() {
        number += 1
        let humanFirst: Bool
        switch starter {
        case .you: humanFirst = true
        case .computer: humanFirst = false
        case .alternate: humanFirst = number % 2 == 1
        }
        humanMark = humanFirst ? .x : .o
        game = Game(firstMover: .x)
    }

    /// The person's move; throws the rules' `MoveError` when it is not legal.
    public mutating func play(_ cell: Int) throws {
        try game.play(cell, by: humanMark)
        record()
    }

    /// The person resigns the game in progress.
    public mutating func resign() {
        guard !game.isOver else { return }
        try? game.resign(humanMark)
        record()
    }

    /// The computer's move (played), or nil when it is not its turn.
    public mutating func computerMove() -> Int? {
        guard isComputerTurn, let cell = opponent.choose(in: game) else { return nil }
        // Not `try?`: `play` returns the result only when the move ends the game (nil otherwise).
        do { try game.play(cell, by: humanMark.opponent) } catch { return nil }
        record()
        return cell
    }

    /// A move chosen elsewhere for the computer (an engine, `--computer engine:…`); throws the rules' `MoveError` when it
    /// is not legal.
    public mutating func playComputer(_ cell: Int) throws {
        guard isComputerTurn else { throw game.isOver ? MoveError.gameOver : MoveError.notYourTurn(expected: game.turn) }
        try game.play(cell, by: humanMark.opponent)
        record()
    }

    /// The computer resigns the game in progress (an engine that failed loses it).
    public mutating func resignComputer() {
        guard !game.isOver else { return }
        try? game.resign(humanMark.opponent)
        record()
    }

    /// The computer's side forfeits the game in progress: an engine that failed (crashed, hung, cheated).
    public mutating func forfeitComputer() {
        guard !game.isOver else { return }
        game.forfeit(humanMark.opponent)
        record()
    }

    private mutating func record() {
        guard let result = game.result else { return }
        switch result.winner {
        case nil: draws += 1
        case humanMark?: wins += 1
        default: losses += 1
        }
    }
}
