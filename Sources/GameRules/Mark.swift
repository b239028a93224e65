/// One of the two marks a player places on the board.
public enum Mark: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The cross. It moves first unless a game says otherwise.
    case x = 1
    /// The nought.
    case o = 2

    /// The other mark.
    public var opponent: Mark {
        self == .x ? .o : .x
    }

    /// `"X"` or `"O"`.
    public var description: String {
        self == .x ? "X" : "O"
    }
}
