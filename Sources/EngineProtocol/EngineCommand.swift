import GameRules

/// The version of the engine protocol this codec speaks (docs/ENGINE.md): the answer `protocol_version` expects.
public let engineProtocolVersion = 1

/// A command the runner sends to an engine (docs/ENGINE.md). Each is one line: `ID NAME ARGS...`.
public enum EngineCommand: Sendable, Hashable {
    /// `protocol_version`: the engine answers the protocol version it speaks (`1`).
    case protocolVersion
    /// `name`: the engine's name (free text on one line).
    case name
    /// `version`: the engine's own version (free text; optional: a `?` answer is accepted).
    case version
    /// `isready`: answered `=` once the engine has finished whatever it was doing.
    case isReady
    /// `newgame ENGINE_MARK FIRST_MARK`: a new, empty game in which the engine plays `engine` and `first` moves first.
    case newGame(engine: Mark, first: Mark)
    /// `position [CELL ...]`: the moves so far in play order (from the first mover), replacing what the engine knew.
    case position(moves: [Int])
    /// `genmove MARK SECONDS`: the engine's move for `mark`, with the time it has for it (`-`: no limit).
    case genmove(Mark, timeLeft: Duration?)
    /// `play MARK CELL`: the opponent played `cell`.
    case play(Mark, cell: Int)
    /// `quit`: answered `=`, then the engine exits.
    case quit

    /// The command's name, as sent.
    public var name: String {
        switch self {
        case .protocolVersion: return "protocol_version"
        case .name: return "name"
        case .version: return "version"
        case .isReady: return "isready"
        case .newGame: return "newgame"
        case .position: return "position"
        case .genmove: return "genmove"
        case .play: return "play"
        case .quit: return "quit"
        }
    }

    /// The arguments, as sent.
    public var arguments: [String] {
        switch self {
        case .protocolVersion, .name, .version, .isReady, .quit:
            return []
        case .newGame(let engine, let first):
            return [EngineMark.format(engine), EngineMark.format(first)]
        case .position(let moves):
            return moves.map(EngineCell.format)
        case .genmove(let mark, let timeLeft):
            return [EngineMark.format(mark), EngineTime.format(timeLeft)]
        case .play(let mark, let cell):
            return [EngineMark.format(mark), EngineCell.format(cell)]
        }
    }

    /// The line to send, without its newline: `"7 genmove x 4.500"` (or `"genmove x 4.500"` without an id).
    public func line(id: Int?) -> String {
        let words = [name] + arguments
        let text = words.joined(separator: " ")
        guard let id else { return text }
        return "\(id) \(text)"
    }
}

/// Marks on the wire: `x` and `o` (lower case; an engine should accept either case).
public enum EngineMark {
    public static func format(_ mark: Mark) -> String {
        mark == .x ? "x" : "o"
    }

    public static func parse(_ text: some StringProtocol) -> Mark? {
        switch text {
        case "x", "X": return .x
        case "o", "O": return .o
        default: return nil
        }
    }
}

/// Cells on the wire: `1`...`9` in reading order (1 top-left, 3 top-right, 9 bottom-right), as users see them; the
/// rules' cells are 0...8.
public enum EngineCell {
    /// `"1"`...`"9"` for cells 0...8.
    public static func format(_ cell: Int) -> String {
        String(cell + 1)
    }

    /// The cell 0...8 for exactly one of `1`...`9` (surrounding white space ignored), or nil.
    public static func parse(_ text: some StringProtocol) -> Int? {
        let trimmed = text.trimmingSpaces
        guard trimmed.count == 1, let digit = trimmed.first?.wholeNumberValue, trimmed.first!.isASCII,
            (1...9).contains(digit)
        else { return nil }
        return digit - 1
    }
}

/// The time left on the wire: seconds with three decimals (`4.500`), or `-` for no limit.
public enum EngineTime {
    public static func format(_ duration: Duration?) -> String {
        guard let duration else { return "-" }
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return "0.000" }
        // Milliseconds, truncated: the engine is never told it has more time than it has.
        let millis = attoseconds / 1_000_000_000_000_000
        let fraction = String(millis)
        return "\(seconds)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// The duration for `4.500`-like text (digits, optionally a point and up to 9 digits), nil for `-`.
    /// Returns `.failure` for anything else.
    public static func parse(_ text: some StringProtocol) -> Result<Duration?, EngineProtocolError> {
        let text = String(text)
        if text == "-" { return .success(nil) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit),
            let seconds = Int64(whole)
        else { return .failure(.malformedArgument(text)) }
        var nanos: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy(\.isASCIIDigit) else {
                return .failure(.malformedArgument(text))
            }
            nanos = Int64(fraction + String(repeating: "0", count: 9 - fraction.count))!
        }
        return .success(.seconds(seconds) + .nanoseconds(nanos))
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        let view = self[...]
        guard let start = view.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = view.lastIndex(where: { !isSpace($0) })!
        return Substring(view[start...end])
    }
}
