/// Why a move was rejected. Descriptions use the 1-9 numbering users see.
public enum MoveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cell is not in 0...8.
    case outOfRange(Int)
    /// The cell already holds a mark.
    case occupied(Int)
    /// The other mark is to move; `expected` is the mark whose turn it is.
    case notYourTurn(expected: Mark)
    /// The game has already ended.
    case gameOver

    /// Human-readable text, e.g. "cell 5 is already taken".
    public var description: String {
        switch self {
        case .outOfRange(let cell):
            return "cell \(cell + 1) is out of range (1-9)"
        case .occupied(let cell):
            return "cell \(cell + 1) is already taken"
        case .notYourTurn(let expected):
            return "it is \(expected)'s turn"
        case .gameOver:
            return "the game is over"
        }
    }
}
