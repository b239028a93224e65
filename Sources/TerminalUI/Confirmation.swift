import Localization

/// A question asked before a step that cannot be undone: leaving a network match, resigning a game, quitting the app.
/// One key confirms (`y`, either case); any other key cancels and does nothing else. Ctrl-C never asks.
public struct Confirmation: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        /// Leave the network match (`q` or Esc in a match): back to the menu, the peer is told.
        case leave
        /// Resign the game being played (`R` in a network game).
        case resign
        /// Quit the app (Esc at the menu; `q` or Esc in a window too small to play in).
        case quit
    }

    public let action: Action
    /// Whether a game is being played (leaving or quitting then forfeits it).
    public let gameInProgress: Bool

    public init(_ action: Action, gameInProgress: Bool = false) {
        self.action = action
        self.gameInProgress = gameInProgress
    }

    /// The question.
    public var title: String {
        switch action {
        case .leave: return tr("Leave the match?")
        case .resign: return tr("Resign this game?")
        case .quit: return tr("Quit TicTacToe?")
        }
    }

    /// What confirming costs, or nil.
    public var consequence: String? {
        switch action {
        case .leave:
            return gameInProgress ? tr("You forfeit the game in progress and the match ends.") : tr("The match ends.")
        case .resign:
            return tr("Your opponent wins this game; the match goes on.")
        case .quit:
            return gameInProgress ? tr("You forfeit the game in progress and the match ends.") : nil
        }
    }

    /// The keys, as the box shows them.
    public var keys: String {
        switch action {
        case .leave: return tr("Press y to leave, any other key to stay.")
        case .resign: return tr("Press y to resign, any other key to play on.")
        case .quit: return tr("Press y to quit, any other key to stay.")
        }
    }

    /// The one key that confirms.
    static func confirms(_ key: Key) -> Bool {
        key == .character("y") || key == .character("Y")
    }
}
