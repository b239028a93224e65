/// The time limits a side holds its peer to, announced in the handshake (`hello`, `accept`) so that the peer can tell
/// whether a `bye(timeout)` it receives can be true (docs/PROTOCOL.md, "Time limits").
///
/// On the wire: two UInt32, milliseconds, 0 for none: the limit for each move or rematch answer (the host's
/// `--move-timeout`), then each side's clock for a whole game (`--game-time`).
public struct TimeLimits: Sendable, Hashable {
    /// How long the peer may take for one move or one rematch answer.
    public var move: Duration?
    /// The peer's clock for a whole game.
    public var game: Duration?

    public init(move: Duration? = nil, game: Duration? = nil) {
        self.move = move
        self.game = game
    }

    /// No limit at all: a side that announced none can time nobody out.
    public static let none = TimeLimits()

    /// The bytes on the wire after the name (and a v2 hello's role) when limits are announced.
    public static let wireLength = 8

    /// A limit as whole milliseconds for the wire: 0 for none, at least 1 for a limit, at most UInt32.max.
    public static func wireMilliseconds(_ limit: Duration?) -> UInt32 {
        guard let limit, limit > .zero else { return 0 }
        let (seconds, attoseconds) = limit.components
        guard seconds < Int64(UInt32.max) / 1000 else { return UInt32.max }
        return UInt32(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }

    /// A limit read from the wire: nil for 0.
    public static func limit(wireMilliseconds value: UInt32) -> Duration? {
        value == 0 ? nil : .milliseconds(Int64(value))
    }
}
