import GameClient
import GameProtocol
import GameRules
import Localization
import TextSupport

/// A game against the computer, entirely local: the shared `ComputerMatch` (the same as line mode's), a cursor, and
/// the computer's "thinking" pause.
///
/// Against an engine (`engineCommand`, Play against an engine) the computer's moves come from the engine's process,
/// run by the runtime as `play --computer engine:COMMAND` runs it: the model asks with `.engineMove` and goes on
/// taking keys while the engine thinks; its answer (or its failure) comes back through `engineReported(_:)`. An
/// engine that fails forfeits the game in progress, and the screen says why and names its log.
public struct ComputerGame: Sendable {
    public private(set) var match: ComputerMatch
    public private(set) var cursor = 4
    /// The engine's command line, when an engine plays the computer's side.
    public let engineCommand: String?
    /// The engine's name once it has started (its answer to `name`).
    public private(set) var engineName: String?
    /// Why the engine lost the last game, with its log, for the screen (until the next game).
    public private(set) var engineFailure: String?
    /// Whether the engine was asked for a move it has not given yet.
    public private(set) var engineThinking = false
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

    init(settings: UISettings, seed: UInt64, engine: String? = nil) {
        let starter: ComputerMatch.Starter
        switch settings.starter {
        case .you: starter = .you
        case .computer: starter = .computer
        case .alternate: starter = .alternate
        }
        match = ComputerMatch(strength: settings.difficulty.strength, starter: starter, seed: seed)
        engineCommand = engine
    }

    public var isHumanTurn: Bool { match.isHumanTurn }

    /// What the screen calls the computer: the level, or the engine's name (its command until it has started).
    public var opponentTitle: String {
        guard let engineCommand else { return difficulty.title }
        return DisplayText.escaped(engineName ?? engineCommand)
    }

    /// The computer's player name in a saved game: "perfect computer", or the engine's own name (its command until
    /// it has started), as it said it: replay escapes what it shows.
    public var opponentName: String {
        guard let engineCommand else { return tr("%@ computer", difficulty.title) }
        return engineName ?? engineCommand
    }

    /// Starts the next game.
    mutating func begin() -> [AppEffect] {
        match.begin()
        cursor = 4
        engineFailure = nil
        return computerToMove()
    }

    /// The computer's turn has come: a built-in level moves after its pause; an engine is asked.
    private mutating func computerToMove() -> [AppEffect] {
        guard match.isComputerTurn else { return [] }
        if engineCommand != nil {
            engineThinking = true
            return [.engineMove(game: number, game)]
        }
        return [.schedule(.computerMove, after: Self.thinkingTime)]
    }

    mutating func computerMoves() -> [AppEffect] {
        guard engineCommand == nil else { return [] }
        _ = match.computerMove()
        return []
    }

    /// What the engine reported. A move or a failure for a game that is over (or another game) changes nothing.
    mutating func engineReported(_ event: EngineEvent) -> [AppEffect] {
        switch event {
        case .started(let name, _):
            engineName = name
        case .moved(let number, let cell):
            guard number == self.number, engineThinking, match.isComputerTurn else { return [] }
            engineThinking = false
            do {
                try match.playComputer(cell)
            } catch {
                // The engine's move was checked against this position: it forfeits rather than waits forever.
                engineLost(reason: tr("played an illegal move %@", String(cell + 1)), engine: engineName ?? "", log: "")
            }
        case .failed(let number, let engine, let reason, let log):
            guard number == self.number, !match.game.isOver else { return [] }
            engineThinking = false
            engineLost(reason: reason, engine: engine, log: log)
        }
        return []
    }

    /// The engine failed: it forfeits the game in progress, and the screen says why.
    private mutating func engineLost(reason: String, engine: String, log: String) {
        match.forfeitComputer()
        engineFailure = tr("Engine '%@' %@; it loses the game (stderr: %@)", DisplayText.escaped(engine),
                           DisplayText.escaped(reason), DisplayText.escaped(log))
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
        return game.isOver ? [] : computerToMove()
    }
}
