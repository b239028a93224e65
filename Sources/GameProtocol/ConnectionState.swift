/// The life of a connection, modelled on Network.framework's `NWConnection.State`.
///
/// ```
/// setup ─start→ preparing ─connected+handshake→ ready ─closed→ cancelled / failed
///   │              │  ↑                                   
///   └→ waiting ←───┘  └── retry ── waiting(unreachable, busy)  ──deadline→ failed
/// ```
public enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Created, not started.
    case setup
    /// May not or cannot proceed yet; says why. Leaves by itself when the reason goes away (permission granted,
    /// the peer starts listening) or fails when the connect deadline passes.
    case waiting(WaitingReason)
    /// Connecting and performing the handshake.
    case preparing
    /// The handshake completed: `peerName` is the other player.
    case ready(peerName: String)
    /// Ended with an error.
    case failed(ConnectionError)
    /// Ended by the local side (or after a normal end of the match).
    case cancelled

    public var description: String {
        switch self {
        case .setup: return "setup"
        case .waiting(let reason): return "waiting (\(reason))"
        case .preparing: return "preparing"
        case .ready(let name): return "ready (playing \(name))"
        case .failed(let error): return "failed (\(error))"
        case .cancelled: return "cancelled"
        }
    }

    /// A one-word name for machine-readable output.
    public var name: String {
        switch self {
        case .setup: return "setup"
        case .waiting: return "waiting"
        case .preparing: return "preparing"
        case .ready: return "ready"
        case .failed: return "failed"
        case .cancelled: return "cancelled"
        }
    }

    /// Whether the connection has ended (`failed` or `cancelled`).
    public var isFinal: Bool {
        switch self {
        case .failed, .cancelled: return true
        default: return false
        }
    }
}

/// Why a connection is waiting.
public enum WaitingReason: Sendable, Hashable, CustomStringConvertible {
    /// The peer refused or could not be reached; another attempt follows after `retryIn`.
    case peerUnreachable(String, retryIn: Duration)
    /// The local network gate has not cleared the connection yet: the prompt is unanswered, or access is off.
    case notAllowed(String)
    /// The host answered `reject(busy)` (it is playing someone else); another attempt follows after `retryIn`.
    /// `text` is the host's own words (from the network: sanitize before showing it).
    case hostBusy(text: String, retryIn: Duration)

    public var description: String {
        switch self {
        case .peerUnreachable(let why, let delay):
            return "\(why); retrying in \(formatSeconds(delay))"
        case .notAllowed(let why):
            return why
        case .hostBusy(_, let delay):
            return "the host is playing another game: busy, retrying in \(formatSeconds(delay))"
        }
    }
}

/// Why a connection failed.
public enum ConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer could not be reached before the connect deadline (refused, no route, host unknown).
    case unreachable(String)
    /// No TCP connection or no handshake completed within the time allowed.
    case timedOut(String)
    /// The host refused us (protocol version, …; busy once the connect timeout has passed).
    case rejected(reason: String, text: String)
    /// The peer broke the protocol during the handshake.
    case protocolViolation(String)
    /// The peer sent an `error` frame during the handshake.
    case peerError(String)
    /// Protocol 2's encrypted handshake failed for another reason than a wrong code (the other end is not a game of
    /// ours, or refused our key exchange), said in words.
    case secureHandshakeFailed(String)
    /// The connection closed during the handshake.
    case closedDuringHandshake
    /// The address could not be parsed or resolved.
    case badAddress(String)
    /// The local network gate refuses for good (no app manifest): waiting would not help.
    case localNetworkRefused(String)
    /// Protocol 2's keys did not match: the host's game code is not the one we used (a wrong code, or none given
    /// for a private game). The TLS handshake failed its Finished check; nothing else was said.
    case wrongCode

    public var description: String {
        switch self {
        case .unreachable(let why): return "peer unreachable: \(why)"
        case .timedOut(let why): return "timed out: \(why)"
        case .rejected(let reason, let text): return "rejected by the host (\(reason)): \(text)"
        case .protocolViolation(let why): return "protocol error by the peer: \(why)"
        case .peerError(let why): return "the peer reported an error: \(why)"
        case .secureHandshakeFailed(let why): return why
        case .closedDuringHandshake: return "the peer closed the connection during the handshake"
        case .badAddress(let why): return "bad address: \(why)"
        case .localNetworkRefused(let why): return "local network access refused: \(why)"
        case .wrongCode: return "wrong code: the host's game code is not the one given (a private game needs its code)"
        }
    }
}

public func formatSeconds(_ duration: Duration) -> String {
    let tenths = (duration.seconds * 10).rounded()
    return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) s" : "\(tenths / 10) s"
}

extension ConnectionError: ExitStatusConvertible {
    public var exitStatus: ExitStatus {
        switch self {
        case .unreachable, .badAddress: return .unreachable
        case .timedOut: return .timeout
        case .rejected: return .rejected
        case .protocolViolation, .peerError, .secureHandshakeFailed: return .protocolError
        case .closedDuringHandshake: return .peerLeft
        case .localNetworkRefused: return .localNetworkNotAllowed
        case .wrongCode: return .wrongCode
        }
    }
}
