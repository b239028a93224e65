import GameClient
import GameProtocol
import GameRules
import Localization
import TextSupport
import TerminalWidgets

/// A game against the computer, entirely local: the shared `ComputerMatch` (the same as line mode's), a cursor, and
/// the computer's "thinking" pause.
///
/// Against an engine (`engineCommand`, Play against an engine) the computer's moves come from the engine's process,
/// run by the runtime as `play --computer engine:COMMAND` runs it: the model asks with `.engineMove` and goes on
/// taking keys while the engine thinks; its answer (or its failure) comes back through `engineReported(_:)`. An
/// engine that fails forfeits the game in progress, and the screen says why and names its log.
public struct ComputerGame: Sendable, ScreenContent {
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
    static let thinkingTime = Duration.milliseconds(350)

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

    /// A key on the board: moves the cursor, places a mark, or (once the game is over) starts the next one.
    private mutating func play(_ key: Key, layout: BoardLayout) -> [AppEffect] {
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

    // MARK: The screen

    var menuItem: MenuItem { engineCommand == nil ? .computer : .engine }

    mutating func handle(_ key: Key, _ shared: inout Shared) -> Step {
        if key == .character("q") || key == .escape { return Step(engineCommand == nil ? [] : [.stopEngine], .back) }
        let effects = play(key, layout: BoardLayout(size: shared.size, top: 5))
        return Step(effects + savedIfEnded(as: shared.settings.name))
    }

    /// `.saveGame` once a game is over (each game once: the move that ended it), the person playing as `name`.
    mutating func savedIfEnded(as name: String) -> [AppEffect] {
        guard let result = game.result, savedGame != number else { return [] }
        savedGame = number
        return [.saveGame(record(name: name, result: result))]
    }

    /// The game as `tictactoe replay` reads it, the person playing as `name`.
    func record(name: String, result: GameResult) -> GameRecord {
        let computer = opponentName
        let human = humanMark
        return GameRecord(
            number: number, line: 0, xName: human == .x ? name : computer, oName: human == .o ? name : computer,
            localMark: human, firstMover: game.firstMover, cells: game.moves,
            marks: GameRecord.alternating(from: game.firstMover, count: game.moves.count), result: result,
            score: MatchSession.Score(localWins: wins, peerWins: losses, draws: draws))
    }

    func render(into canvas: inout Canvas, _ view: ScreenView) {
        let who = tr("You: %@   Computer (%@): %@", humanMark.description, DisplayWidth.truncate(opponentTitle, to: 24),
                     humanMark.opponent.description)
        canvas.putCentered(who, row: 2)
        canvas.putCentered(tr("Game %@   Score: you %@ · computer %@ · draws %@", String(number),
                              String(wins), String(losses), String(draws)),
                           row: 3, style: .bold)
        canvas.drawBoard(game.board, layout: BoardLayout(size: view.size, top: 5), cursor: isHumanTurn ? cursor : nil,
                         winning: winningCells(game.result), unicode: view.unicode)
        let line: String
        let style: Style
        if let result = game.result {
            style = .accent
            switch result.winner {
            case nil: line = tr("Draw. Press r for a rematch.")
            case humanMark?: line = tr("You win! Press r for a rematch.")
            default: line = tr("The computer wins. Press r for a rematch.")
            }
        } else {
            line = isHumanTurn ? tr("Your turn (%@)", humanMark.description) : tr("The computer is thinking…")
            style = .bold
        }
        canvas.putCentered(line, row: 5 + BoardLayout.height + 1, style: style)
        if let engineFailure {
            // Why the engine lost, and its log: wrapped under the result (it is escaped where it was made).
            let width = max(10, view.size.columns - 4)
            for (index, text) in wrap(engineFailure, width: width).prefix(3).enumerated() {
                canvas.putCentered(text, row: 5 + BoardLayout.height + 2 + index, style: .error)
            }
        }
    }

    func hints(_ view: ScreenView) -> String {
        game.isOver
            ? tr("r rematch · q back to the menu · ? help")
            : tr("arrows/hjkl/wasd move · Enter/Space or 1-9 place · click · q back · ? help")
    }

    func statusText(_ view: ScreenView) -> String { tr("Against the computer (%@)", opponentTitle) }
}

extension GameRecord {
    /// The marks of `count` moves, taking turns from `first`.
    static func alternating(from first: Mark, count: Int) -> [Mark] {
        (0..<count).map { $0 % 2 == 0 ? first : first.opponent }
    }
}
