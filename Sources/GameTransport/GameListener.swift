import GamePairing
import GameProtocol
import LocalNetworkPrivacy
import Logging
import NIOCore
import NIOPosix
import PairingCode
import Synchronization

/// The host's listener: serves one match at a time and keeps listening after a match ends or a peer misbehaves.
/// Errors are caught per connection, so one bad peer never stops the host.
///
/// A connection counts against "one match at a time" only once its hello is valid. Until then it is one of many
/// handshakes under way, each with the handshake deadline (`ConnectionTimeouts.handshake`), so a socket that sends
/// nothing, or a byte at a time, blocks nobody: the first valid hello that finds the host free gets the match, and a
/// valid hello while a match runs is answered `reject(busy)`. At most `maximumPendingHandshakes` connections may
/// wait for their hello at once; one more closes the oldest of them (a real joiner sends its hello at once, so idle
/// sockets cannot crowd it out, and a thousand of them cannot use up the host's file descriptors).
///
/// With `security: .tlsPSK`, protocol 2: every connection is TLS 1.2 PSK from its first byte, its key from a fresh
/// `PSKHostExchange`, and the hello/accept handshake runs inside TLS, where only a v2 hello from a player is
/// accepted (`HostHandshake.answer` with version 2); a plaintext v1 hello is answered with a plaintext
/// `reject(version)`. In plaintext only a v1 hello is accepted. A failed secure handshake is a `pairingFailed` event
/// with the joiner's address and whether it was a wrong code (and goes to `SecureHost.onFailure`); the listener goes
/// on serving.
///
/// A private game (`SecureHost.privateGame`) also limits pairing attempts (`PairingAttempts`): each connection is
/// admitted or refused as it is accepted, before any TLS byte (a refused one is closed at once: `pairingRefused`),
/// each wrong code is counted (`wrongCodeCounted`), and three in a row replace the code with a fresh one
/// (`codeReplaced`, carrying the new code for the host's screen). Time for these limits is the listener's `clock`.
///
/// Where it listens is the gate's `ListenCapability`: every interface is `::` with IPV6_V6ONLY off, so IPv6 and IPv4
/// joiners (an IPv6-only LAN's link-local addresses too) reach it, falling back to 0.0.0.0 where IPv6 is off.
public final class GameListener: Sendable {
    /// What the listener reports besides matches.
    public enum Event: Sendable {
        /// Listening and free to serve a joiner (again after each match).
        case listening(host: String, port: Int)
        case rejectedBusy(remote: String)
        case handshakeFailed(remote: String, error: String)
        /// Protocol 2: a joiner's secure handshake failed; `reason` says whether it used another code
        /// (`.wrongCode`) or failed otherwise. `remote` is its source address (HOST:PORT).
        case pairingFailed(remote: String, reason: PairingFailure)
        /// A private game refused a connection before its handshake (closed without a TLS byte): `source` (an IP
        /// address) may try again after `retryAfter` at the earliest; `reason` says which limit applied.
        case pairingRefused(source: String, retryAfter: Duration, reason: String)
        /// A private game counted a wrong code from `source`: `inARow` on the current code (this one included),
        /// `fromSource` from that address lately.
        case wrongCodeCounted(source: String, inARow: Int, fromSource: Int)
        /// A private game replaced its code after wrong codes: `code` is the new one (show `code.revealed` to the
        /// host's player; it describes itself redacted, so logging the event does not leak it), `reason` in words.
        /// Joiners with the old code now fail as wrong codes.
        case codeReplaced(code: GameCode, reason: String)
        /// A joiner got in: the wrong codes so far no longer count (clear any "wrong codes" notice).
        case wrongCodesForgiven
        /// A spectator (`spectators`) got in (`joined`) or left: its name and address, and how many watch now.
        case spectator(remote: String, name: String, joined: Bool, watching: Int)
    }

    /// What to do after a match.
    public enum Next: Sendable { case keepListening, stop }

    /// How many connections may wait for their hello at once by default.
    public static let defaultMaximumPendingHandshakes = 64

    /// The gate's permission to listen, and where.
    public let capability: ListenCapability
    public let port: Int
    public let hostName: String
    /// The time limits the host holds its joiner to, announced in the accept (nil: none).
    public let limits: TimeLimits?
    /// How many connections may wait for their hello at once; one more closes the oldest.
    public let maximumPendingHandshakes: Int
    /// Plaintext (protocol 1) unless told otherwise.
    public let security: HostSecurity
    /// Where spectators go (protocol 2 only; nil: the host takes none).
    public let spectators: SpectatorHub?
    let timeouts: ConnectionTimeouts
    /// A private game's attempt limits (nil otherwise).
    let pairingGate: PairingGate?
    let group: EventLoopGroup
    let logger: Logger

    private struct State: Sendable {
        /// The bound channel (nil before the bind).
        var channel: Channel?
        /// `stop()` came (before the bind, too).
        var stopped = false
        /// A match is running (its joiner's hello was valid and found the host free).
        var playing = false
        /// Connections waiting for their hello.
        var handshakes: HandshakeQueue<Channel>
        /// Connections set up but not yet taken by the accept loop. Each must be closed through its own
        /// `executeThenClose` (an async channel dropped with its writer unfinished traps), and the server's stream
        /// drops what it still holds when the server closes: held here until the loop takes them,
        /// closed by the listener if it never does.
        var unclaimed: [ObjectIdentifier: GameAsyncChannel] = [:]
        /// The accept loop has ended: a connection set up from now on is closed at once.
        var acceptLoopEnded = false
    }
    private let state: Mutex<State>

    public init(
        capability: ListenCapability,
        port: Int = Endpoint.defaultPort,
        hostName: String,
        limits: TimeLimits? = nil,
        timeouts: ConnectionTimeouts = .default,
        maximumPendingHandshakes: Int = GameListener.defaultMaximumPendingHandshakes,
        security: HostSecurity = .plaintext,
        spectators: SpectatorHub? = nil,
        clock: any Clock<Duration>,
        group: EventLoopGroup = EventLoops.group,
        logger: Logger = Logger(label: "tictactoe.listener")
    ) {
        self.capability = capability
        self.security = security
        // Watching is protocol 2's (only its hello has a role).
        self.spectators = security.protocolVersion >= GameMessage.encryptedProtocolVersion ? spectators : nil
        if case .tlsPSK(let host) = security, let code = host.privateGame {
            self.pairingGate = PairingGate(code: code, clock: clock)
        } else {
            self.pairingGate = nil
        }
        self.port = port
        self.hostName = hostName
        self.limits = limits
        self.timeouts = timeouts
        self.maximumPendingHandshakes = max(1, maximumPendingHandshakes)
        self.group = group
        self.logger = logger
        self.state = Mutex(State(handshakes: HandshakeQueue(capacity: max(1, maximumPendingHandshakes))))
    }

    /// How many connections are waiting for their hello now.
    public var connectionsAwaitingHello: Int { state.withLock { $0.handshakes.count } }

    /// Whether a match is running.
    public var isPlaying: Bool { state.withLock { $0.playing } }

    /// Stops listening and closes the connections still waiting for their hello; `run` returns once the match in
    /// progress (if any) has ended.
    /// Its spectators hear `bye(spectatorsHear)` and are let go (the hub takes new ones when a listener runs again).
    public func stop(spectatorsHear reason: ByeReason = .seriesOver) {
        let (server, waiting) = state.withLock { state -> (Channel?, [Channel]) in
            state.stopped = true
            return (state.channel, state.handshakes.removeAll())
        }
        server?.close(promise: nil)
        for channel in waiting { channel.close(promise: nil) }
        spectators?.dismissAll(reason)
    }

    /// Binds and serves until `onMatch` answers `.stop` or `stop()` is called. Throws if the address cannot be bound.
    public func run(
        onEvent: @escaping @Sendable (Event) -> Void,
        onMatch: @escaping @Sendable (inout PeerLink) async -> Next
    ) async throws {
        let (server, bindHost) = try await bind()
        let stoppedAlready = state.withLock { state -> Bool in
            state.channel = server.channel
            return state.stopped
        }
        if stoppedAlready {  // stopped while binding: serve nobody
            try? await server.channel.close()
            return
        }
        let boundPort = server.channel.localAddress?.port ?? port
        onEvent(.listening(host: bindHost, port: boundPort))
        logger.info("listening on \(bindHost):\(boundPort)")

        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { inbound in
                defer {
                    for child in endAcceptLoop() { group.addTask { try? await child.executeThenClose { _, _ in } } }
                }
                for try await accepted in inbound {
                    let (child, stats, attempt): (GameAsyncChannel, ConnectionStats, PairingGate.Attempt?)
                    switch accepted {
                    case .refused(let channel, let source, let retryAfter, let reason):
                        // Closed before any handler was added: the joiner got no TLS byte.
                        channel.close(promise: nil)
                        logger.info("refused a pairing attempt from \(source): \(reason)")
                        onEvent(.pairingRefused(source: source, retryAfter: retryAfter, reason: reason))
                        continue
                    case .admitted(let channel, let connectionStats, let admittedAttempt):
                        (child, stats, attempt) = (channel, connectionStats, admittedAttempt)
                        claim(child)
                    }
                    let admitted = state.withLock { state -> (ticket: Int, evicted: Channel?)? in
                        state.stopped ? nil : state.handshakes.admit(child.channel)
                    }
                    guard let (ticket, evicted) = admitted else {
                        // Stopped: closed through its own `executeThenClose`, which finishes its writer (one dropped
                        // unfinished traps).
                        try? await child.executeThenClose { _, _ in }
                        if let attempt { _ = pairingGate?.record(attempt, .otherFailure) }
                        continue
                    }
                    // Too many connections without a hello: the oldest goes (its own task reports it).
                    evicted?.close(promise: nil)
                    group.addTask {
                        guard case .played(let next) = await self.serve(
                            child, ticket: ticket, stats: stats, attempt: attempt, onEvent: onEvent, onMatch: onMatch)
                        else { return }
                        let stopped = self.state.withLock { state -> Bool in
                            state.playing = false
                            return state.stopped
                        }
                        if next == .stop {
                            self.stop()
                        } else if !stopped {
                            // Free again: say so, so that scripts know when the next joiner will be served.
                            onEvent(.listening(host: bindHost, port: boundPort))
                        }
                    }
                }
            }
        }
    }

    /// Keeps a connection just set up until the accept loop takes it (`State.unclaimed`); closes it if the loop has
    /// ended.
    func hold(_ child: GameAsyncChannel) {
        let late = state.withLock { state -> Bool in
            if state.acceptLoopEnded { return true }
            state.unclaimed[ObjectIdentifier(child.channel)] = child
            return false
        }
        if late { Task { try? await child.executeThenClose { _, _ in } } }
    }

    /// The accept loop has taken `child`: it owns it now.
    private func claim(_ child: GameAsyncChannel) {
        _ = state.withLock { $0.unclaimed.removeValue(forKey: ObjectIdentifier(child.channel)) }
    }

    /// Marks the accept loop ended; returns the connections it never took, to be closed.
    private func endAcceptLoop() -> [GameAsyncChannel] {
        state.withLock { state in
            state.acceptLoopEnded = true
            defer { state.unclaimed = [:] }
            return Array(state.unclaimed.values)
        }
    }

    /// How a connection ended: before a match (a failed handshake, a rejection), or after one (and what next).
    private enum Served {
        case noMatch
        case played(Next)
    }

    /// What a valid hello finds: the match is its own, or the host is busy or stopping.
    private enum Reservation {
        case reserved, busy, stopping
    }

    /// Takes the match for a valid hello, if the host is free.
    private func reserveMatch() -> Reservation {
        state.withLock { state -> Reservation in
            if state.stopped { return .stopping }
            if state.playing { return .busy }
            state.playing = true
            return .reserved
        }
    }

    /// The connection's first frame has come (or it ended): it no longer waits for its hello. Returns false if it had
    /// been taken out already (closed as the oldest of too many, or by `stop()`), and whether the listener stopped.
    private func finishHandshake(_ ticket: Int) -> (wasWaiting: Bool, stopped: Bool) {
        state.withLock { state in
            let waiting = state.handshakes.contains(ticket)
            state.handshakes.finish(ticket)
            return (waiting, state.stopped)
        }
    }

    /// Handshake (concurrently with any other connection's), then the match if the hello is valid and the host free.
    private func serve(
        _ asyncChannel: GameAsyncChannel,
        ticket: Int,
        stats: ConnectionStats,
        attempt: PairingGate.Attempt?,
        onEvent: @Sendable (Event) -> Void,
        onMatch: @Sendable (inout PeerLink) async -> Next
    ) async -> Served {
        let channel = asyncChannel.channel
        // Taken on accept (`ConnectionStats.remoteAddress`): the channel forgets it once closed.
        let remote = stats.remoteAddress.map(describe) ?? "?"
        var reserved = false
        // A private game's attempt is recorded once, when the handshake ends (or the connection does).
        var pending = attempt
        let recordAttempt = { (outcome: PairingGate.Policy.Outcome) -> (reports: [PairingGate.Report], abandoned: Bool) in
            guard let attempt = pending, let gate = self.pairingGate else { return ([], false) }
            pending = nil
            return gate.record(attempt, outcome)
        }
        defer { _ = recordAttempt(.otherFailure) }
        do {
            return try await asyncChannel.executeThenClose { inbound, outbound in
                var link = PeerLink(
                    peerName: "", role: .host, stats: stats, inbound: inbound.makeAsyncIterator(),
                    outbound: outbound, channel: channel, linger: TimeAmount(timeouts.linger)
                )
                let received = await readFirstFrame(&link)
                let (wasWaiting, stopped) = finishHandshake(ticket)
                // The keys matched once TLS completed (even if no hello followed); a mismatch is a wrong code.
                let outcome: PairingGate.Policy.Outcome = stats.secureSession != nil
                    ? .success : received.secureFailure == .keyMismatch ? .wrongCode : .otherFailure
                let (reports, abandoned) = recordAttempt(outcome)
                if let failure = received.failure {
                    reportNoHello(
                        failure, secureFailure: received.secureFailure, wasWaiting: wasWaiting, stopped: stopped,
                        reports: reports, remote: remote, onEvent: onEvent)
                    return .noMatch
                }
                report(reports, onEvent: onEvent)
                guard let first = received.message else { return .noMatch }
                if abandoned {  // its keys matched the code that was replaced meanwhile: closed on return
                    onEvent(.handshakeFailed(remote: remote, error: "the code was replaced during its handshake"))
                    return .noMatch
                }
                var answer = HostHandshake.answer(
                    to: first, hostName: hostName, version: security.protocolVersion,
                    takesSpectators: spectators != nil, limits: limits)
                if case .accept = answer, case .hello(_, let name, .spectator, _) = first, let spectators {
                    try await admitSpectator(
                        &link, accept: answer, name: name, remote: remote, hub: spectators, onEvent: onEvent)
                    return .noMatch
                }
                (answer, reserved) = reserveMatch(answering: answer)
                try await link.send(answer)
                guard case .accept = answer, case .hello(_, let peerName, _, let peerLimits) = first else {
                    if case .reject(let reason, _) = answer, reason == .busy {
                        onEvent(.rejectedBusy(remote: remote))
                    } else {
                        onEvent(.handshakeFailed(remote: remote, error: Self.refusal(answer)))
                    }
                    await link.closeGracefully()
                    return .noMatch
                }
                link = link.withPeer(name: peerName, limits: peerLimits)
                return .played(await onMatch(&link))
            }
        } catch {
            logger.info("connection from \(remote) ended: \(error)")
            onEvent(.handshakeFailed(remote: remote, error: "\(error)"))
            return reserved ? .played(.keepListening) : .noMatch
        }
    }

    /// A connection's first frame, or why none came (`failure`, with `secureFailure` when the secure handshake failed).
    private struct FirstFrame {
        var message: GameMessage?
        var failure: String?
        var secureFailure: SecureChannelError?
    }

    /// Reads the connection's first frame: its hello, if it is a valid peer.
    private func readFirstFrame(_ link: inout PeerLink) async -> FirstFrame {
        do {
            let first = try await link.next()
            return FirstFrame(message: first, failure: first == nil ? "closed before hello" : nil)
        } catch {
            return FirstFrame(message: nil, failure: "\(error)", secureFailure: error as? SecureChannelError)
        }
    }

    /// A connection that ended before its hello: a failed secure handshake is a failed pairing, anything else a failed
    /// handshake (a connection closed as the oldest of too many says so), each with what a private game's policy did.
    /// Nothing is reported if `stop()` closed it.
    private func reportNoHello(
        _ failure: String, secureFailure: SecureChannelError?, wasWaiting: Bool, stopped: Bool,
        reports: [PairingGate.Report], remote: String, onEvent: @Sendable (Event) -> Void
    ) {
        if stopped { return }  // closed by stop(): not the peer's doing
        if wasWaiting, let secureFailure, case .tlsPSK(let host) = security {
            host.onFailure(remote, secureFailure)
            onEvent(.pairingFailed(remote: remote, reason: PairingFailure(secureFailure)))
            report(reports, onEvent: onEvent)
            return
        }
        report(reports, onEvent: onEvent)
        let why = wasWaiting
            ? failure
            : "closed before its hello: \(maximumPendingHandshakes) newer connections were waiting for their handshake"
        onEvent(.handshakeFailed(remote: remote, error: why))
    }

    /// A player's hello the host accepts takes the match if the host is free; otherwise the answer becomes a refusal.
    /// Any other answer stays as it is.
    private func reserveMatch(answering answer: GameMessage) -> (answer: GameMessage, reserved: Bool) {
        guard case .accept = answer else { return (answer, false) }
        switch reserveMatch() {
        case .reserved:
            return (answer, true)
        case .busy:
            return (.reject(reason: .busy, text: "\(hostName) is already playing a game; try again later"), false)
        case .stopping:
            return (.reject(reason: .shuttingDown, text: "\(hostName) is no longer hosting"), false)
        }
    }

    /// A spectator's hello the host accepts: it takes a seat in the hub and watches until it leaves, or is answered
    /// `reject(busy)` when every seat is taken.
    private func admitSpectator(
        _ link: inout PeerLink, accept: GameMessage, name: String, remote: String, hub spectators: SpectatorHub,
        onEvent: @Sendable (Event) -> Void
    ) async throws {
        guard spectators.reserve() else {
            try await link.send(.reject(
                reason: .busy,
                text: "\(hostName) has no room for more spectators (\(spectators.capacity) at most); "
                    + "try again when one leaves"))
            onEvent(.rejectedBusy(remote: remote))
            await link.closeGracefully()
            return
        }
        do {
            try await link.send(accept)
        } catch {
            spectators.release()  // its seat goes back: the accept never reached it
            throw error
        }
        await watch(&link, name: name, remote: remote, hub: spectators, onEvent: onEvent)
    }

    /// What the host answered a hello it did not accept, in words (the texts as they are, not Swift's debug form).
    static func refusal(_ answer: GameMessage) -> String {
        switch answer {
        case .reject(let reason, let text): return "refused its hello (\(reason)): \(text)"
        case .error(let code, let text): return "answered error \(code.rawValue) \(code): \(text)"
        default: return "answered \(answer.kind)"
        }
    }

    /// A spectator's connection, once accepted: in the hub until it closes (or is dropped as too slow). What the
    /// spectator sends is read and discarded (its heartbeat is the pipeline's).
    private func watch(
        _ link: inout PeerLink, name: String, remote: String, hub: SpectatorHub, onEvent: @Sendable (Event) -> Void
    ) async {
        let channel = link.channel
        await SpectatorHub.prepare(channel)
        guard hub.add(channel) else {
            await link.closeGracefully()
            return
        }
        logger.info("spectator \(name) from \(remote) watching (\(hub.count) now)")
        onEvent(.spectator(remote: remote, name: name, joined: true, watching: hub.count))
        while case .some = try? await link.next() {}
        hub.remove(channel)
        logger.info("spectator \(name) from \(remote) left (\(hub.count) watching)")
        onEvent(.spectator(remote: remote, name: name, joined: false, watching: hub.count))
    }

    /// Reports what a private game's policy did, in order.
    private func report(_ reports: [PairingGate.Report], onEvent: @Sendable (Event) -> Void) {
        for item in reports {
            switch item {
            case .wrongCodeCounted(let source, let inARow, let fromSource):
                logger.info("wrong code from \(source): \(inARow) in a row, \(fromSource) from that address")
                onEvent(.wrongCodeCounted(source: source.description, inARow: inARow, fromSource: fromSource))
            case .codeReplaced(let code, let reason):
                logger.notice("\(reason)")  // never the code itself
                onEvent(.codeReplaced(code: code, reason: reason))
            case .wrongCodesForgiven:
                onEvent(.wrongCodesForgiven)
            }
        }
    }
}
