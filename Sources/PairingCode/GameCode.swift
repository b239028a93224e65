/// The code that admits a player to a game: six digits for a private game, or the fixed public code of open games.
///
/// A private code comes from libsodium's CSPRNG (`GameCode.random()` in GamePairing: `randombytes_uniform(1_000_000)`,
/// no modulo bias) or from what a player typed (`init(parsing:)`). It is a secret: `description`, `debugDescription` and the mirror never show the
/// digits; read `revealed` only where the code is meant to be shown (the host's own screen, stderr of a headless
/// host) and never log it or put it in a transcript.
///
/// Open games run the same key exchange on `GameCode.open`, whose password is the fixed string
/// `GameCode.openGamePassword` ("tictactoe open game"): not six digits, so no private code can equal it and no one
/// can type it. It authenticates no one; it only makes everything on the connection ciphertext.
public struct GameCode: Sendable, Equatable {
    /// The number of digits of a private code.
    public static let digitCount = 6

    /// The password (PRS) of every open game. Public by design.
    public static let openGamePassword = "tictactoe open game"

    /// The public code of open games.
    public static let open = GameCode(kind: .open)

    private enum Kind: Sendable, Equatable {
        case open
        /// 0 ... 999_999, shown with leading zeros.
        case secret(UInt32)
    }

    private let kind: Kind

    private init(kind: Kind) { self.kind = kind }

    /// The private code `value` (0 ... 999_999), drawn by `GameCode.random()` (GamePairing, which owns the CSPRNG).
    package init(secret value: UInt32) {
        precondition(value < 1_000_000, "a game code is six digits")
        kind = .secret(value)
    }

    /// A private code from what a player typed: spaces, tabs, line breaks and dashes are ignored ("123 456",
    /// "123-456", "123456\n"); what remains must be exactly six ASCII digits. The error never repeats the input.
    public init(parsing input: some StringProtocol) throws(GameCodeError) {
        var value: UInt32 = 0
        var digits = 0
        for byte in input.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "-"):
                continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if digits <= GameCode.digitCount { value = value * 10 + UInt32(byte - UInt8(ascii: "0")) }
            default:
                throw .notDigits
            }
        }
        guard digits > 0 else { throw .empty }
        guard digits == GameCode.digitCount else { throw .wrongNumberOfDigits(digits) }
        kind = .secret(value)
    }

    /// Whether this is the public code of open games.
    public var isOpen: Bool { kind == .open }

    /// The six digits, for showing the code where it is meant to be seen; `nil` for the open code (nothing to show).
    public var revealed: String? {
        guard case .secret(let value) = kind else { return nil }
        let digits = String(value)
        return String(repeating: "0", count: GameCode.digitCount - digits.count) + digits
    }
}

extension GameCode: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Never the digits.
    public var description: String { isOpen ? "open game code" : "private game code (hidden)" }
    public var debugDescription: String { "GameCode(\(isOpen ? "open" : "private, hidden"))" }
    /// No children: `dump` shows nothing of the digits.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// Why typed text is not a game code. The messages say what a code looks like and never repeat the input.
public enum GameCodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing but spaces and dashes (or nothing at all).
    case empty
    /// Something other than digits, spaces and dashes.
    case notDigits
    /// Digits, but not six of them.
    case wrongNumberOfDigits(Int)

    public var description: String {
        switch self {
        case .empty:
            "no game code given: a game code is 6 digits (spaces and dashes are ignored)"
        case .notDigits:
            "a game code is 6 digits (0-9; spaces and dashes are ignored), and this has other characters"
        case .wrongNumberOfDigits(let count):
            "a game code is 6 digits (spaces and dashes are ignored), and this has \(count)"
        }
    }
}
