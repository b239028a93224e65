import TextSupport

/// An error that says the exit code of the run it ends. Every error a run can end with conforms, in its type's own
/// file, and `ExitStatus(failure:)` only reads it: an error type without a code is an unexpected failure (exit 1),
/// and `ExitStatusTests` fails for a new one.
public protocol ExitStatusConvertible: Error {
    var exitStatus: ExitStatus { get }
}

/// The documented exit codes of `tictactoe` (README.md, `tictactoe --help`).
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// The match (or game) completed.
    case success = 0
    /// An unexpected internal error.
    case failure = 1
    /// The opponent left before the match was over (connection closed, quit).
    case peerLeft = 3
    /// The host refused us (busy with another game, other protocol version).
    case rejected = 4
    /// The host could not be reached before the connect timeout (refused, unreachable, unknown host).
    case unreachable = 5
    /// A timeout: no handshake in time, the peer went silent (vanished) during the match, or a move time limit ran out.
    case timeout = 6
    /// The peer broke the protocol or the rules (we sent it an error frame), or reported an error to us.
    case protocolError = 7
    /// Our own script could not be used: unreadable file, bad token, ran out of moves, illegal scripted move.
    case scriptError = 8
    /// The host could not listen (address in use, no permission).
    case cannotListen = 9
    /// Bonjour is unavailable (no avahi-daemon): `browse`, or `join NAME`, could not look for games.
    case bonjourUnavailable = 10
    /// Local network access was still not allowed when --wait-timeout ran out.
    case localNetworkWaitTimedOut = 11
    /// Local network access is impossible: NoAuth (the Bonjour type is not in the manifest's NSBonjourServices) or
    /// the app manifest is missing or unreadable; or it was turned off during a match with a LAN peer.
    case localNetworkNotAllowed = 12
    /// A private game's code is wrong or missing: the host's code is not the one we used (protocol 2's keys did not
    /// match), or we gave none.
    case wrongCode = 13
    /// A game connection was refused by the manifest's App Transport Security policy (`NSAppTransportSecurity`): the
    /// message names the key that would allow it.
    case transportSecurityRefused = 14
    /// A multicast operation (the lobby, browsing every service type) without the multicast entitlement in the app's
    /// entitlements (`TicTacToe.entitlements` beside the manifest): refused at once, without a prompt, as on iOS.
    case entitlementMissing = 15
    /// Bad command-line usage (from swift-argument-parser, or a value out of its range).
    case usage = 64
    /// `tictactoe replay`'s record cannot be replayed (EX_DATAERR): unreadable, not a JSON-lines record, corrupted or
    /// truncated (the message names the file and the line), or it holds no finished game (or not the one asked for).
    case dataError = 65
    /// Standard output could not be written (EX_IOERR): its reader went away (a closed pipe, `| head`), the disk is
    /// full, or the descriptor is closed. A match in progress was left with a bye first.
    case outputFailed = 74
    /// Interrupted by SIGINT (Ctrl-C); the peer was told with a bye.
    case interrupted = 130
    /// Stopped by SIGTERM or SIGHUP; the peer was told with a bye.
    case terminated = 143

    /// One line per code, for `--help` and the README.
    public var meaning: String {
        switch self {
        case .success: return "the match (or game) completed"
        case .failure: return "unexpected internal error"
        case .peerLeft: return "the opponent left before the match was over"
        case .rejected: return "the host refused us (busy, protocol version)"
        case .unreachable: return "the host could not be reached before --connect-timeout"
        case .timeout: return "no handshake in time, the peer went silent, or a move time limit ran out"
        case .protocolError: return "protocol or rules violation (by the peer, or reported by it)"
        case .scriptError: return "our --player script is unreadable, invalid, exhausted or illegal"
        case .cannotListen: return "the host could not listen (address in use, permission)"
        case .bonjourUnavailable: return "Bonjour is unavailable (no avahi-daemon) for browse or join NAME"
        case .localNetworkWaitTimedOut: return "local network access still not allowed after --wait-timeout"
        case .localNetworkNotAllowed: return "NoAuth, no app manifest, or local network turned off mid-match"
        case .wrongCode: return "a private game's code is wrong or missing"
        case .transportSecurityRefused: return "refused by the manifest's transport security policy"
        case .entitlementMissing: return "the app's entitlements lack the multicast entitlement an operation needs"
        case .usage: return "bad command-line usage"
        case .dataError: return "replay: the record is unreadable, corrupted or lacks the game"
        case .outputFailed: return "standard output failed (closed pipe, full disk); the peer is told"
        case .interrupted: return "interrupted by Ctrl-C (the peer is told)"
        case .terminated: return "stopped by SIGTERM/SIGHUP (the peer is told)"
        }
    }

    /// How a run stopped by Ctrl-C, a shutdown or a quit ends: 143 for a shutdown (SIGTERM, SIGHUP), else 130.
    public init(stoppedBy reason: ByeReason) {
        self = reason == .shutdown ? .terminated : .interrupted
    }

    /// The table shown at the end of `tictactoe --help`.
    public static var helpTable: String {
        "EXIT CODES:\n" + allCases.map { "  \(DisplayWidth.padded(String($0.rawValue), to: 4))\($0.meaning)" }
            .joined(separator: "\n")
    }
}

extension ExitStatus {
    /// The exit code of a run that `error` ends, for every front end: the error's own (`ExitStatusConvertible`). A
    /// cancellation is a stop when the run was stopped (`stop`: Ctrl-C, a shutdown), else unexpected, as is an error
    /// whose type has no code.
    public init(failure error: any Error, stop: ByeReason? = nil) {
        switch error {
        case let error as any ExitStatusConvertible: self = error.exitStatus
        case is CancellationError: self = stop.map(ExitStatus.init(stoppedBy:)) ?? .failure
        default: self = .failure
        }
    }
}
