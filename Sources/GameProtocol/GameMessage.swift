import GameRules

/// Every message of the tictactoe wire protocol (versions 1 and 2: the same messages; version 2's hello adds a role).
/// See docs/PROTOCOL.md for the bytes.
public enum GameMessage: Sendable, Hashable {
    /// Joiner → host, first frame on a connection: the protocol version it speaks, its player name and, from version
    /// 2 on, the role it asks for. A hello of version 1 (or 0) has no role byte on the wire: its role is always
    /// `player`, and a `role` other than `player` is not written (docs/PROTOCOL.md, "The v2 hello"). `limits`: the
    /// time limits the joiner holds the host to (its `--game-time`), nil when it announces none.
    case hello(version: UInt8, name: String, role: PeerRole = .player, limits: TimeLimits? = nil)
    /// Host → joiner: the handshake succeeded; the host's version and player name, and the time limits it holds the
    /// joiner to (nil: none announced).
    case accept(version: UInt8, name: String, limits: TimeLimits? = nil)
    /// Host → joiner: the handshake failed (busy, version mismatch, …); the connection closes after it.
    case reject(reason: RejectReason, text: String)
    /// Host → joiner: game `game` (1-based within the series) starts; `joinerMark` is the joiner's mark and
    /// `firstMover` the mark that moves first.
    case start(game: UInt16, joinerMark: Mark, firstMover: Mark)
    /// Either side: the sender places its mark on `cell` (0...8, reading order).
    case move(cell: UInt8)
    /// Either side: the sender resigns the current game.
    case resign
    /// Either side, between games: the sender would like another game.
    case rematchOffer
    /// Either side: answers a rematch offer with yes.
    case rematchAccept
    /// Either side: answers a rematch offer with no (a `bye` follows).
    case rematchDecline
    /// Either side, any time after the handshake: liveness probe; the receiver answers `pong` with the same value.
    case ping(UInt64)
    /// The answer to `ping`, echoing its value (round-trip measurement).
    case pong(UInt64)
    /// Either side: the sender is leaving; the connection closes after it.
    case bye(ByeReason)
    /// Either side: the sender saw a violation; the connection closes after it.
    case error(code: ProtocolErrorCode, text: String)
    /// Host → spectator (protocol 2): the match as it stands, sent when the spectator gets in and after every change.
    case watch(WatchedMatch)
}

extension GameMessage {
    /// Whether a hello of `version` carries the role byte: from version 2 on (`encryptedProtocolVersion`). Versions 1
    /// and 0 end with the name, so a v1 hello is the same bytes as before version 2 existed.
    public static func helloHasRole(version: UInt8) -> Bool {
        version >= encryptedProtocolVersion
    }

    /// The type byte of each message on the wire.
    public enum Kind: UInt8, Sendable, CaseIterable {
        case hello = 0x01
        case accept = 0x02
        case reject = 0x03
        case start = 0x10
        case move = 0x11
        case resign = 0x12
        case rematchOffer = 0x20
        case rematchAccept = 0x21
        case rematchDecline = 0x22
        case ping = 0x30
        case pong = 0x31
        case bye = 0x40
        case watch = 0x50
        case error = 0x7F
    }

    /// The wire type of this message.
    public var kind: Kind {
        switch self {
        case .hello: return .hello
        case .accept: return .accept
        case .reject: return .reject
        case .start: return .start
        case .move: return .move
        case .resign: return .resign
        case .rematchOffer: return .rematchOffer
        case .rematchAccept: return .rematchAccept
        case .rematchDecline: return .rematchDecline
        case .ping: return .ping
        case .pong: return .pong
        case .bye: return .bye
        case .error: return .error
        case .watch: return .watch
        }
    }
}

/// What a joiner asks to be (version 2's hello): a player, or (later) a spectator. A role this version does not name
/// is kept as its number, so a later version can add roles; a host answers one it does not take with
/// `reject(bad-hello)`.
public struct PeerRole: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Plays the match (every joiner so far).
    public static let player = PeerRole(rawValue: 0)
    /// Watches a match: a host started with room for spectators (`--spectators N`) answers `accept` and then sends
    /// `watch` frames only.
    public static let spectator = PeerRole(rawValue: 1)

    public var description: String {
        switch self {
        case .player: return "player"
        case .spectator: return "spectator"
        default: return "role-\(rawValue)"
        }
    }
}

/// Why a host refused a joiner.
public struct RejectReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The host is already playing a game.
    public static let busy = RejectReason(rawValue: 1)
    /// The joiner speaks a protocol version the host does not.
    public static let version = RejectReason(rawValue: 2)
    /// The joiner's hello was not acceptable (e.g. an empty name).
    public static let badHello = RejectReason(rawValue: 3)
    /// The host is stopping: a hello that arrives while it stops.
    public static let shuttingDown = RejectReason(rawValue: 4)

    public var description: String {
        switch self {
        case .busy: return "busy"
        case .version: return "version"
        case .badHello: return "bad-hello"
        case .shuttingDown: return "shutting-down"
        default: return "reason-\(rawValue)"
        }
    }
}

/// Why a peer leaves. A reason this version does not name is kept as its number and treated like `quit`: during a
/// game the sender forfeits it.
public struct ByeReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The series is over (all games played, or a rematch was declined).
    public static let seriesOver = ByeReason(rawValue: 0)
    /// The player quit (closed the game, pressed Ctrl-C, …).
    public static let quit = ByeReason(rawValue: 1)
    /// The program is stopping (a signal, a crash path).
    public static let shutdown = ByeReason(rawValue: 2)
    /// The receiver ran out of time: it did not move, or answer a rematch offer, within the sender's time limit. It
    /// loses the game in progress (`GameEndReason.timeout`); unlike every other reason, the sender does not.
    public static let timeout = ByeReason(rawValue: 3)

    public var description: String {
        switch self {
        case .seriesOver: return "series-over"
        case .quit: return "quit"
        case .shutdown: return "shutdown"
        case .timeout: return "timeout"
        default: return "reason-\(rawValue)"
        }
    }
}

/// The code of an `error` frame. Unknown codes are kept as they are.
public struct ProtocolErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A frame could not be parsed (bad payload, trailing bytes, invalid UTF-8, …).
    public static let malformedFrame = ProtocolErrorCode(rawValue: 1)
    /// A frame's length header was above the maximum or zero.
    public static let badFrameLength = ProtocolErrorCode(rawValue: 2)
    /// A frame's type byte is not a known message.
    public static let unknownMessage = ProtocolErrorCode(rawValue: 3)
    /// A valid message arrived at a moment the protocol does not allow it.
    public static let unexpectedMessage = ProtocolErrorCode(rawValue: 4)
    /// A move named a cell outside 0...8.
    public static let moveOutOfRange = ProtocolErrorCode(rawValue: 10)
    /// A move named an occupied cell.
    public static let cellOccupied = ProtocolErrorCode(rawValue: 11)
    /// A move arrived when it was not the sender's turn.
    public static let notYourTurn = ProtocolErrorCode(rawValue: 12)
    /// A move or resignation arrived after the game had ended.
    public static let gameOver = ProtocolErrorCode(rawValue: 13)
    /// A `bye(timeout)` arrived though the receiver's time had not run out by the limits the sender announced.
    public static let timeoutNotDue = ProtocolErrorCode(rawValue: 14)
    /// The handshake did not complete in time.
    public static let handshakeTimeout = ProtocolErrorCode(rawValue: 20)
    /// Nothing arrived from the peer for too long.
    public static let heartbeatTimeout = ProtocolErrorCode(rawValue: 21)

    public var description: String {
        switch self {
        case .malformedFrame: return "malformed-frame"
        case .badFrameLength: return "bad-frame-length"
        case .unknownMessage: return "unknown-message"
        case .unexpectedMessage: return "unexpected-message"
        case .moveOutOfRange: return "move-out-of-range"
        case .cellOccupied: return "cell-occupied"
        case .notYourTurn: return "not-your-turn"
        case .gameOver: return "game-over"
        case .timeoutNotDue: return "timeout-not-due"
        case .handshakeTimeout: return "handshake-timeout"
        case .heartbeatTimeout: return "heartbeat-timeout"
        default: return "error-\(rawValue)"
        }
    }

    /// The code that reports a rules violation.
    public init(_ moveError: MoveError) {
        switch moveError {
        case .outOfRange: self = .moveOutOfRange
        case .occupied: self = .cellOccupied
        case .notYourTurn: self = .notYourTurn
        case .gameOver: self = .gameOver
        }
    }
}
