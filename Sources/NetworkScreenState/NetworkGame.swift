import GameProtocol
import GameRules
import GameClient
import Localization
import TextSupport
import TerminalWidgets

/// A game against a person over the network, mirrored from the match's reports.
public struct NetworkGame: Sendable {
    public enum Phase: Sendable, Hashable {
        case starting
        case listening(port: Int)
        case connecting
        case playing
        case betweenGames
        case ended(String, failed: Bool)
    }

    public let role: MatchSession.Role
    public let localName: String
    /// What we host on or join ("port 7878", "192.0.2.10:7878").
    public let target: String
    public private(set) var phase: Phase = .starting
    /// The peer's name as it sent it, escaped for the screen (`DisplayText.escaped`), whole: layout cuts it.
    public private(set) var peerName: String?
    public private(set) var connection: String
    public private(set) var game: Game?
    public private(set) var localMark: Mark?
    public private(set) var number = 0
    public private(set) var score = MatchSession.Score()
    public private(set) var cursor = 4
    public private(set) var localOffered = false
    public private(set) var peerOffered = false
    public private(set) var lastResult: GameResult?
    /// The final board of the last game, as the match reported it.
    public private(set) var lastBoard: Board?
    /// The host's advertised name, or why advertising is unavailable (Bonjour).
    public var advertisement: String?
    public private(set) var networkFinished = false
    /// What the host hosts: an open game, or a private one whose code joiners must bring.
    public let security: GameSecurity
    /// The code a joiner gave (six digits; nil: none). Not public: it goes to the join effect and nowhere else.
    package let code: String?
    /// A private host's current code (six digits), for its own screen, and why it replaced the first one.
    public private(set) var privateCode: String?
    public private(set) var codeReplacedBecause: String?
    /// Where joiners reach this host, in the order to show them (the app core lists them when the host listens).
    public private(set) var joinAddresses: [JoinAddress] = []
    /// The latest failed attempts to join this host (a wrong code, a failed handshake), each with its address.
    public private(set) var failedAttempts: [String] = []
    /// How many attempts to join this host failed since it began waiting.
    public private(set) var failedAttemptCount = 0
    /// The host turned the join away for its code (exit 13): missing (`code == nil`) or wrong.
    package private(set) var codeRefused = false
    /// The port a host was asked to listen on (0: any free one); nil for a joiner.
    package let requestedPort: Int?
    /// The lobby's game this is (the one offered with a challenge, or the challenger's joined), nil for the others:
    /// after a match nobody else is invited, so no "wait for another player".
    package var lobbyGame: LobbyGame?
    /// Whom the person challenged, for the game hosted for the challenge (escaped where it is drawn).
    package var challenged: String?
    /// The port the host listened on (from `.listening`), so that hosting again keeps the port joiners were told.
    public private(set) var listenedPort: Int?
    /// Whether a peer played a match with us here (it connected).
    public private(set) var playedMatch = false
    /// How many spectators a host lets watch (0: none), and how many watch now.
    public let spectators: Int
    public private(set) var watching = 0

    /// The most failed attempts the host's screen lists.
    package static let attemptsShown = 3

    /// How long a join may take before it says it failed (the app core's connect timeout for the TUI: resolving a
    /// name and connecting to each of its addresses), counted down on the connecting screen.
    public static let connectSeconds = 10
    /// Seconds left of `connectSeconds` while connecting (nil: not counting: hosting, or not joining yet).
    public private(set) var connectSecondsLeft: Int?
    /// The addresses a joined name resolved to, in the order they are tried.
    public private(set) var tryingAddresses: [String] = []

    /// Waiting for local network permission: the connect timeout has not started (it counts once access is allowed).
    private var waitingForAccess = false

    /// The connecting screen's countdown, under what is being tried (nil: not counting, or waiting for access).
    public var countdownLine: String? {
        guard phase == .connecting, !waitingForAccess, let left = connectSecondsLeft else { return nil }
        return left > 0 ? tr("Gives up in %@ s", String(left)) : tr("Giving up")
    }

    /// Joining a game the list showed at `place` (its host and address): the connecting screen says where, until the
    /// name is resolved afresh.
    package mutating func joining(listedAt place: String) {
        guard role == .joiner, phase == .connecting, !place.isEmpty else { return }
        // `target` is shown escaped already.
        connection = tr("Connecting to %@ at %@…", target, DisplayText.escaped(place))
    }

    /// The join started: count down from `connectSeconds`.
    package mutating func startCountdown() {
        guard role == .joiner, phase == .connecting else { return }
        connectSecondsLeft = Self.connectSeconds
    }

    /// A second passed while connecting; whether to count on. While waiting for permission it starts over.
    package mutating func countDown() -> Bool {
        guard phase == .connecting, let left = connectSecondsLeft else {
            connectSecondsLeft = nil
            return false
        }
        if waitingForAccess {
            connectSecondsLeft = Self.connectSeconds
            return true
        }
        guard left > 0 else { return false }
        connectSecondsLeft = left - 1
        return left - 1 > 0
    }

    package init(role: MatchSession.Role, localName: String, target: String, security: GameSecurity = .open,
         code: String? = nil, port: Int? = nil, spectators: Int = 0) {
        self.requestedPort = port
        self.spectators = spectators
        self.role = role
        self.localName = localName
        self.target = target
        self.security = security
        self.code = code
        self.connection = role == .host ? tr("Starting to host on %@…", target) : tr("Connecting to %@…", target)
        if role == .joiner { phase = .connecting }
    }

    public var isOver: Bool {
        if case .ended = phase { return true }
        return false
    }

    /// What `r` does on an ended screen.
    public enum Retry: Sendable, Hashable {
        /// A host after a match: listen again for the next joiner.
        case waitForAnotherPlayer
        /// After a failure: host or join the same again.
        case retry
    }

    /// What `r` does here, if anything: a host serves the next joiner (after a match) or tries to host again (after a
    /// failure); a joiner whose join failed tries the same target again (a join refused for its code asks for the code
    /// instead). A host that has listened waits until its session has finished (closed its listener), so that the port
    /// is free to listen on again.
    public var retry: Retry? {
        guard case .ended(_, let failed) = phase, !codeRefused else { return nil }
        switch role {
        case .host:
            guard networkFinished || listenedPort == nil else { return nil }
            if playedMatch { return lobbyGame == nil ? .waitForAnotherPlayer : nil }
            return .retry
        case .joiner:
            return failed ? .retry : nil
        }
    }

    /// The same host or join again, from the start: the port the host listened on (else the one asked for), the same
    /// target, code and security for a joiner.
    package func again() -> NetworkGame {
        if let lobbyGame {  // the same again: a game on a free port, or the same challenger's
            var next = NetworkGame(role: role, localName: localName, target: target, security: security,
                                   port: requestedPort)
            next.lobbyGame = lobbyGame
            next.challenged = challenged
            return next
        }
        let port = listenedPort ?? requestedPort
        return NetworkGame(role: role, localName: localName, target: port.map { tr("port %@", String($0)) } ?? target,
                           security: security, code: code, port: port, spectators: spectators)
    }

    /// Whether a peer is connected (so leaving must say bye).
    package var inMatch: Bool { phase == .playing || phase == .betweenGames }

    /// Whether a game is being played that `R` can resign.
    package var canResign: Bool { phase == .playing && game?.isOver == false }

    public var isLocalTurn: Bool {
        guard phase == .playing, let game, let localMark else { return false }
        return !game.isOver && game.turn == localMark
    }

    /// The lines a waiting host's screen shows under "Waiting…": the exact `tictactoe join` line for the first address,
    /// one line for each other address (link-local ones last, then their note), or why nobody else can join. A
    /// private game's lines read the code from standard input (`--code -`): the joiner types the code shown above.
    package var joinLines: [String] {
        let flags = security == .private ? " --code -" : security == .plaintext ? " --plaintext" : ""
        guard let first = joinAddresses.first else {
            return [tr("This machine has no network address now: check its network connection")]
        }
        if joinAddresses.onlyThisMachine {
            return [tr("Only this machine can join: %@", "tictactoe join \(first)\(flags)")]
        }
        var lines = [tr("Join with: %@", "tictactoe join \(first)\(flags)")]
        lines += joinAddresses.dropFirst().map { tr("or: %@", "tictactoe join \($0)\(flags)") }
        if joinAddresses.contains(where: { $0.kind == .linkLocal }) {
            lines.append("(\(tr(JoinAddress.linkLocalNote)))")
        }
        return lines
    }

    /// What the host's screen says of its spectators ("2 watching"); nil when it takes none.
    public var watchingLine: String? {
        guard role == .host, spectators > 0 else { return nil }
        return tr("%@ watching", String(watching))
    }

    /// The status line: what `connection` says, unless the screen already shows the same sentence in full (an ended
    /// match or join), where it says only that it is over, so that no sentence appears twice.
    package var statusLine: String {
        switch phase {
        case .ended(let why, let failed):
            guard connection == why || connection == failedConnection else { return connection }
            if !failed { return tr("Match over") }
            return inMatchBefore ? tr("Disconnected") : tr("Not connected")
        case .starting, .connecting:
            // The screen shows what is tried in full, and the countdown: only the state here.
            if waitingForAccess { return tr("Waiting for local network access") }
            if role == .host { return tr("Not listening yet") }
            return connection == waitingConnection ? tr("Waiting to connect") : tr("Connecting")
        default:
            return connection
        }
    }

    /// The text `connection` had when the join failed ("Failed: …") and when it last waited ("Waiting: …"): the
    /// status line recognises them by the text itself, whatever the language.
    private var failedConnection: String?
    private var waitingConnection: String?

    /// Whether a peer was ever connected in this session (an ended screen then says "Disconnected").
    package var inMatchBefore: Bool { peerName != nil }

    /// A sentence's first letter in capitals (error texts start lower-case, as Unix messages do).
    package static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// An error's text without its trailing period, to end a sentence with one of our own.
    package static func sentence(_ text: String) -> String { text.hasSuffix(".") ? String(text.dropLast()) : text }

    /// The peer's name as sentences show it: escaped, and cut to `nameColumns`.
    package var peer: String { peerName.map { DisplayWidth.truncate($0, to: Self.nameColumns) } ?? tr("the opponent") }

    /// The most columns a name takes in a sentence of the status line.
    package static let nameColumns = 32

    /// What a joiner sees when the host's game code is not the one given (exit 13).
    package static var wrongCode: String { tr("Wrong code, try again") }

    /// What the match reports: its events, a private game's code, its end.
    package mutating func apply(_ event: NetworkEvent) {
        switch event {
        case .privateCode(let code, let replacedBecause):
            privateCode = code
            codeReplacedBecause = replacedBecause
            if replacedBecause != nil, !inMatch, !isOver {
                connection = tr("A new code: the old one no longer works")
            }
        case .finished(let status):
            networkFinished = true
            if status == .wrongCode { refuseCode() }
            if !isOver {
                phase = .ended(status == .success ? tr("Match over") : tr("The connection ended"),
                               failed: status != .success)
                connection = status == .success ? tr("Match over") : tr("Disconnected")
            }
        case .report(let report):
            apply(report)
        }
    }

    private mutating func apply(_ report: MatchReport) {
        switch report {
        case .spectator(_, _, _, let watching):
            self.watching = watching
        case .seed, .summary, .rejectedBusy, .codeReplaced, .engineStarted, .engineFailed, .watched, .watchEnded:
            break
        case .peerFailed(let remote, let error):
            guard role == .host, !inMatch, !isOver else { break }
            failedAttempt(from: remote, error)
        case .listening(_, let port, _, _, let addresses):
            if !inMatch, !isOver {
                listenedPort = port
                phase = .listening(port: port)
                joinAddresses = addresses
                // The screen says it waits, and on which port: the status line says how the game is protected.
                switch security {
                case .open: connection = tr("Encrypted game: anyone on the network can join")
                case .private: connection = tr("Private game: joiners need the code shown here")
                case .plaintext: connection = tr("Unencrypted game (protocol 1): moves can be read on the network")
                }
            }
        case .connectionState(let state):
            switch state {
            case .preparing where tryingAddresses.isEmpty:
                waitingForAccess = false
                connection = tr("Connecting to %@…", target)
            case .waiting(let reason):
                // Any other wait (unreachable, busy) comes after access was allowed.
                if case .notAllowed = reason { waitingForAccess = true } else { waitingForAccess = false }
                connection = tr("Waiting: %@", DisplayText.escaped(reason.description))
                waitingConnection = connection
            case .failed(.wrongCode):
                refuseCode()
            case .failed(let error):
                let why = DisplayText.escaped(error.description)
                connection = tr("Failed: %@", why)
                failedConnection = connection
                phase = .ended(tr("Could not join: %@.", Self.sentence(why)), failed: true)
            default: break
            }
        case .connected(let name, _, _, _):
            playedMatch = true
            peerName = DisplayText.escaped(name)
            connection = tr("Playing against %@", peer)
            phase = .playing
        case .session(let event):
            apply(event)
        case .error(_, .wrongCode):
            refuseCode()
        case .error(let message, _):
            connection = Self.capitalized(Self.sentence(DisplayText.escaped(message))) + "."
            phase = .ended(connection, failed: true)
        case .localMoveRejected(let why):
            connection = tr("Move refused: %@", DisplayText.escaped(why))
        case .discovery(.resolved(_, let addresses)):
            waitingForAccess = false
            tryingAddresses = addresses
            if phase == .connecting, let first = addresses.first {
                connection = addresses.count > 1
                    ? tr("Trying %@ (then %@ more)…", DisplayText.escaped(first), String(addresses.count - 1))
                    : tr("Trying %@…", DisplayText.escaped(first))
            }
        case .discovery(.advertised(let name, _)):
            advertisement = tr("Advertised as %@", DisplayText.escaped(name))
        case .discovery(.advertisingUnavailable(let message)):
            advertisement = tr("Not advertised: %@", DisplayText.escaped(message))
        case .discovery(.withdrawn):
            advertisement = nil
        case .discovery, .lobby:
            break  // a match's screen shows no other discovery, and the Lobby screen reads `LobbyUpdate`
        }
    }

    /// An attempt to join this waiting host failed (a wrong code, a failed handshake).
    private mutating func failedAttempt(from remote: String, _ error: String) {
        let address = DisplayText.escaped(remote)
        let line = error == "wrong code"
            ? tr("Wrong code from %@", address)
            : tr("Failed attempt from %@: %@", address, DisplayText.escaped(error))
        failedAttempts = Array((failedAttempts + [line]).suffix(Self.attemptsShown))
        failedAttemptCount += 1
        // The screen lists the latest attempts: the status line counts them instead of repeating one.
        connection = failedAttemptCount == 1
            ? tr("1 failed attempt to join; still waiting for a joiner")
            : tr("%@ failed attempts to join; still waiting for a joiner", String(failedAttemptCount))
    }

    /// The join ended for its code (exit 13): the app asks for the code next.
    private mutating func refuseCode() {
        codeRefused = true
        connection = code == nil ? tr("A private game: a code is needed") : tr("Failed: wrong code")
        failedConnection = connection
        phase = .ended(code == nil ? tr("This game is private: it needs its code") : Self.wrongCode, failed: true)
    }

    private mutating func apply(_ event: MatchSession.Event) {
        switch event {
        case .gameStarted(let number, let mark, let first):
            self.number = number
            game = Game(firstMover: first)
            localMark = mark
            phase = .playing
            localOffered = false
            peerOffered = false
            lastResult = nil
            cursor = 4
            connection = tr("Playing against %@", peer)
        case .moved(let mark, let cell, _):
            _ = try? game?.play(cell, by: mark)
        case .gameOver(_, let result, let board, let score):
            self.score = score
            lastResult = result
            phase = .betweenGames
            lastBoard = board
            switch result.reason {
            case .forfeit, .timeout: return  // the match is over: no rematch
            default: break
            }
            // The key line under the board says which keys answer: the status line only asks.
            connection = tr("Game %@ over: another game?", String(number))
        case .rematchOffered:
            peerOffered = true
            connection = tr("%@ offers a rematch: r to accept, n to decline", peer)
        case .matchOver(let end, let score):
            self.score = score
            switch end {
            case .completed(.local): phase = .ended(tr("Match over."), failed: false)
            case .completed(.peer):
                // After our resignation the result line already says so: the match simply ends there.
                let resigned = localMark.map { lastResult?.reason == .resignation($0) } ?? false
                phase = .ended(resigned ? tr("Match over.") : tr("Match over: %@ played no more games.", peer),
                               failed: false)
            case .peerLeft: phase = .ended(tr("%@ left before the match was over.", peer), failed: true)
            case .peerTimedOut(let why):
                phase = .ended(tr("Connection lost: %@.", DisplayText.escaped(Self.sentence(why))), failed: true)
            case .peerViolation(_, let text):
                phase = .ended(tr("%@ broke the rules: %@.", peer, DisplayText.escaped(text)), failed: true)
            case .peerReportedError(_, let text):
                phase = .ended(tr("%@ reported an error: %@.", peer, DisplayText.escaped(text)), failed: true)
            case .localLeft: phase = .ended(tr("You left the match."), failed: false)
            case .moveTimeout(.peer, _), .gameTimeout:
                phase = .ended(tr("%@ ran out of time: the match is over.", peer), failed: false)
            case .moveTimeout(.local, _):
                phase = .ended(
                    tr("You ran out of time: the host allows only so long for a move or a rematch answer."),
                    failed: true)
            case .localNetworkOff:
                phase = .ended(tr("Local network access was turned off: turn it on in Settings to play on the LAN."),
                               failed: true)
            }
            if case .ended(let text, _) = phase { connection = text }
        }
    }

    /// A key in the match: rematch or not between games, the cursor and a move while playing; returns what the match
    /// is to be told, if anything.
    package mutating func play(_ key: Key, layout: BoardLayout) -> LocalCommand? {
        switch phase {
        case .betweenGames:
            if key == .character("r"), !localOffered {
                localOffered = true
                connection = peerOffered ? tr("Rematch!") : tr("Rematch offered; waiting for %@…", peer)
                return .rematch(true)
            }
            if key == .character("n") {
                return .rematch(false)
            }
            return nil
        case .playing:
            if let moved = CursorMove.apply(key, to: cursor) {
                cursor = moved
                return nil
            }
            guard isLocalTurn, let game, let localMark,
                  let cell = CursorMove.placement(key, cursor: cursor, layout: layout),
                  game.validate(cell, by: localMark) == nil
            else { return nil }
            cursor = cell
            return .move(cell)
        default:
            return nil
        }
    }
}
