import FoundationEssentials
import GameProtocol
import GameRules
import Lobby

/// Everything a host, join, browse or lobby tells its front end, in the order it happens: the one event stream that
/// both the headless reporters (text, JSON lines) and the terminal UI read.
public enum MatchReport: Sendable {
    case seed(UInt64)
    /// Listening on `host`:`port` as `name`; `security` says whether games are encrypted and need a code.
    /// `addresses` are the addresses a joiner can use, in the order to show them (link-local last; only loopback when
    /// only this machine can join; empty when this machine has no usable address).
    case listening(host: String, port: Int, name: String, security: GameSecurity = .open, addresses: [JoinAddress] = [])
    case connectionState(ConnectionState)
    /// The match's connection is up: `cipher` is the TLS cipher suite of an encrypted game (nil: plaintext).
    case connected(peerName: String, address: String, role: MatchSession.Role, cipher: String? = nil)
    /// A private game replaced its code (`reason` in words). The code itself never travels in reports: the host's
    /// front end shows it from `HostRequest.showCode`.
    case codeReplaced(reason: String)
    case session(MatchSession.Event)
    case rejectedBusy(remote: String)
    case peerFailed(remote: String, error: String)
    case summary(MatchSummary)
    case error(String, ExitStatus)
    /// A UI's move was refused by the rules (the UI should not have offered it).
    case localMoveRejected(String)
    /// What Bonjour says: advertised (as which name), withdrawn, resolved, the list of games.
    case discovery(DiscoveryReport)
    /// What happened in the LAN lobby (`tictactoe lobby`; the TUI's Lobby screen reads `LobbyUpdate`).
    case lobby(LobbyEvent)
    /// An engine (`--player engine:COMMAND`) was started for the local side: its name (its answer to `name`), its
    /// process id and the file its standard error goes to.
    case engineStarted(name: String, pid: Int32, log: String)
    /// The local side's engine failed during game `game` and lost it (the local side resigned): `kind` is one word
    /// (`timeout`, `exited`, `protocol`, `illegal-move`, …), `reason` one line, `log` its standard error's file. The
    /// next game starts a fresh process.
    case engineFailed(game: Int, engine: String, kind: String, reason: String, log: String)
    /// A spectator came to watch this host's matches (`joined`) or left: its name and address, and how many watch now.
    case spectator(name: String, address: String, joined: Bool, watching: Int)
    /// What a spectator is shown: the match as it stands (`tictactoe watch`).
    case watched(WatchedMatch)
    /// The watch ended: `.completed` when the host said it is done, otherwise how it ended.
    case watchEnded(MatchSession.End)
}

/// The totals of a run, printed last.
public struct MatchSummary: Sendable, Hashable {
    public var score: MatchSession.Score
    public var seed: UInt64
    /// The last round trip a ping measured (nil: none came back).
    public var roundTrip: Duration?
    public var exit: ExitStatus
    public var end: String

    public init(score: MatchSession.Score, seed: UInt64, roundTrip: Duration?, exit: ExitStatus, end: String) {
        self.score = score
        self.seed = seed
        self.roundTrip = roundTrip
        self.exit = exit
        self.end = end
    }
}

/// Where reports go: a readable transcript or JSON lines.
public protocol MatchReporter: Sendable {
    func report(_ report: MatchReport)
}

extension Board {
    /// The board as nine characters in reading order: X, O or '.'.
    public var compactText: String {
        String((0..<Board.cellCount).map { self[$0].map { Character($0.description) } ?? "." })
    }
}

extension MatchSession.End {
    /// A short machine-readable name.
    public var name: String {
        switch self {
        case .completed: return "completed"
        case .peerLeft: return "peer-left"
        case .peerViolation: return "peer-violation"
        case .peerReportedError: return "peer-error"
        case .peerTimedOut: return "peer-timeout"
        case .localLeft: return "local-left"
        case .localNetworkOff: return "local-network-off"
        case .moveTimeout(.peer, _): return "peer-move-timeout"
        case .moveTimeout(.local, _): return "local-move-timeout"
        case .gameTimeout: return "peer-game-timeout"
        }
    }

    /// What happened, in words (with the peer's own text as it came: front ends show it through
    /// `DisplayText.escaped`).
    public var text: String {
        switch self {
        case .completed(.local): return "completed"
        case .completed(.peer): return "the opponent ended it"
        case .peerLeft(let reason?) where reason == .seriesOver: return "the opponent left"
        case .peerLeft(let reason?): return "the opponent left (\(reason))"
        case .peerLeft(nil): return "the opponent left (connection closed)"
        case .peerViolation(let code, let text): return "protocol error by the opponent (\(code)): \(text)"
        case .peerReportedError(let code, let text):
            return "the opponent reported an error (\(code)): \(text)"
        case .peerTimedOut(let text): return "connection lost: \(text)"
        case .localLeft(let reason): return "we left (\(reason))"
        case .localNetworkOff: return "local network access was turned off"
        case .moveTimeout(.peer, let limit?):
            return "the opponent ran out of time (\(formatSeconds(limit)) for a move or a rematch answer)"
        case .moveTimeout(.peer, nil): return "the opponent ran out of time"
        case .moveTimeout(.local, _): return "we ran out of time (the host's limit for a move or a rematch answer)"
        case .gameTimeout(let limit):
            return "the opponent ran out of time on its game clock (\(formatSeconds(limit)) for the whole game)"
        }
    }

    /// The exit status a headless run ends with.
    public var exitStatus: ExitStatus {
        switch self {
        case .completed: return .success
        case .peerLeft: return .peerLeft
        case .peerViolation, .peerReportedError: return .protocolError
        case .peerTimedOut: return .timeout
        case .localLeft(let reason): return ExitStatus(stoppedBy: reason)
        case .localNetworkOff: return .localNetworkNotAllowed
        case .moveTimeout, .gameTimeout: return .timeout
        }
    }
}
