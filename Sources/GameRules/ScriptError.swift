/// Why a move script could not be parsed or played.
public enum ScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A token on the given 1-based line is not a cell number 1-9.
    case invalidToken(String, line: Int)
    /// The script contains no moves.
    case empty
    /// The script has no moves left.
    case exhausted

    /// Human-readable text, e.g. "line 3: \"10\" is not a cell number (1-9)".
    public var description: String {
        switch self {
        case .invalidToken(let token, let line):
            return "line \(line): \"\(token)\" is not a cell number (1-9)"
        case .empty:
            return "the script contains no moves"
        case .exhausted:
            return "the script has no moves left"
        }
    }
}
