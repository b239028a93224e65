import GameRules

/// A game against the computer, entirely local.
public struct ComputerGame: Sendable {
    enum Opponent: Sendable {
        case perfect(PerfectPlayer<SplitMix64>)
        case easy(RandomPlayer<SplitMix64>)

        mutating func choose(in game: Game) -> Int? {
            switch self {
            case .perfect(var player):
                defer { self = .perfect(player) }
                return try? player.chooseMove(in: game)
            case .easy(var player):
                defer { self = .easy(player) }
                return try? player.chooseMove(in: game)
            }
        }
    }

    public private(set) var game = Game(firstMover: .x)
    public private(set) var humanMark: Mark = .x
    public private(set) var cursor = 4
    public private(set) var number = 0
    public private(set) var wins = 0
    public private(set) var losses = 0
    public private(set) var draws = 0
    public let difficulty: UISettings.Difficulty
    let starter: UISettings.Starter
    var opponent: Opponent

    /// Seconds the computer "thinks", so its move can be seen arriving.
    static let thinkingTime = 0.35

    init(settings: UISettings, seed: UInt64) {
        difficulty = settings.difficulty
        starter = settings.starter
        opponent = settings.difficulty == .perfect
            ? .perfect(PerfectPlayer(rng: SplitMix64(seed: seed))) : .easy(RandomPlayer(rng: SplitMix64(seed: seed)))
    }

    public var isHumanTurn: Bool { !game.isOver && game.turn == humanMark }

    /// Starts the next game.
    mutating func begin() -> [AppEffect] {
        number += 1
        let humanFirst: Bool
        switch starter {
        case .you: humanFirst = true
        case .computer: humanFirst = false
        case .alternate: humanFirst = number % 2 == 1
        }
        humanMark = humanFirst ? .x : .o
        game = Game(firstMover: .x)
        cursor = 4
        return humanFirst ? [] : [.schedule(.computerMove, after: Self.thinkingTime)]
    }

    mutating func computerMoves() -> [AppEffect] {
        guard !game.isOver, game.turn == humanMark.opponent, let cell = opponent.choose(in: game) else { return [] }
        _ = try? game.play(cell, by: humanMark.opponent)
        record()
        return []
    }

    mutating func handle(_ key: Key, layout: BoardLayout) -> [AppEffect] {
        if game.isOver {
            if key == .character("r") || key == .enter || key == .character(" ") { return begin() }
            return []
        }
        if let moved = CursorMove.apply(key, to: cursor) {
            cursor = moved
            return []
        }
        guard isHumanTurn, let cell = CursorMove.placement(key, cursor: cursor, layout: layout) else { return [] }
        guard game.validate(cell, by: humanMark) == nil else { return [] }
        cursor = cell
        _ = try? game.play(cell, by: humanMark)
        record()
        return game.isOver ? [] : [.schedule(.computerMove, after: Self.thinkingTime)]
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
