import GameClient
import GameRules

/// A game against the computer, entirely local: the shared `ComputerMatch` (the same as line mode's), a cursor, and
/// the computer's "thinking" pause.
public struct ComputerGame: Sendable {
    public private(set) var match: ComputerMatch
    public private(set) var cursor = 4
    /// The number of the last game handed over to be saved (`.saveGame`), so each is saved once.
    var savedGame = 0

    public var game: Game { match.game }
    public var humanMark: Mark { match.humanMark }
    public var number: Int { match.number }
    public var wins: Int { match.wins }
    public var losses: Int { match.losses }
    public var draws: Int { match.draws }
    public var difficulty: UISettings.Difficulty { UISettings.Difficulty(match.strength) }

    /// Seconds the computer "thinks", so its move can be seen arriving.
    static let thinkingTime = 0.35

    init(settings: UISettings, seed: UInt64) {
        let starter: ComputerMatch.Starter
        switch settings.starter {
        case .you: starter = .you
        case .computer: starter = .computer
        case .alternate: starter = .alternate
        }
        match = ComputerMatch(strength: settings.difficulty.strength, starter: starter, seed: seed)
    }

    public var isHumanTurn: Bool { match.isHumanTurn }

    /// Starts the next game.
    mutating func begin() -> [AppEffect] {
        match.begin()
        cursor = 4
        return match.isComputerTurn ? [.schedule(.computerMove, after: Self.thinkingTime)] : []
    }

    mutating func computerMoves() -> [AppEffect] {
        _ = match.computerMove()
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
        try? match.play(cell)
        return game.isOver ? [] : [.schedule(.computerMove, after: Self.thinkingTime)]
    }
}
