/// How a game ended: who won and why.
public struct GameResult: Sendable, Hashable {
    /// The winning mark, or `nil` for a draw (the only result without a winner).
    public let winner: Mark?
    /// Why the game ended.
    public let reason: GameEndReason

    /// Creates a result. `winner` should be `nil` exactly when `reason` is `.draw`.
    public init(winner: Mark?, reason: GameEndReason) {
        self.winner = winner
        self.reason = reason
    }
}
