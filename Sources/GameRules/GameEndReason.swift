/// Why a game ended.
public enum GameEndReason: Sendable, Hashable {
    /// The winner completed this line (cells 0...8, in the order of `Board.lines`).
    case line([Int])
    /// The board filled up with no line of three.
    case draw
    /// The given mark resigned.
    case resignation(Mark)
    /// The given mark forfeited: its player left or misbehaved.
    case forfeit(Mark)
    /// The given mark ran out of time: its player did not move within the host's time limit.
    case timeout(Mark)
}
