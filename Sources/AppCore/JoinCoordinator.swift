import AppManifest
import AppProcess
import Bonjour
import FoundationEssentials
import GameClient
import GamePairing
import GameProtocol
import GameTransport
import LocalNetworkPrivacy
import Logging
import MatchPlay
import PairingCode

#if canImport(Glibc)
import Glibc
#endif

/// What to join.
public struct JoinRequest: Sendable {
    /// A game's Bonjour name, or an address.
    public var target: JoinTarget
    /// How long to keep trying to reach the host (resolving a name included; waiting for permission not).
    public var connectTimeout: Duration
    /// Every resolved address but the last gets at most this long.
    public var perAddressTimeout: Duration
    /// How long to wait for local network permission (nil: until it comes).
    public var waitTimeout: Duration?
    /// Which screen or command joins (the gate logs it).
    public var origin: OperationOrigin
    /// Encrypted (protocol 2, with a private game's code or none for an open game: the default) or plaintext
    /// (protocol 1: `--plaintext`, only where the manifest's transport security policy allows it).
    public var security: JoinSecurity
    /// Play (the default), or watch (`tictactoe watch`: encrypted games only, at a host that takes spectators).
    public var role: PeerRole

    public init(
        target: JoinTarget, connectTimeout: Duration = .seconds(10), perAddressTimeout: Duration = .seconds(3),
        waitTimeout: Duration? = nil, origin: OperationOrigin, security: JoinSecurity = .encrypted(code: nil),
        role: PeerRole = .player
    ) {
        self.role = role
        self.security = security
        self.target = target
        self.connectTimeout = connectTimeout
        self.perAddressTimeout = perAddressTimeout
        self.waitTimeout = waitTimeout
        self.origin = origin
    }
}

/// How a joiner protects its connection.
public enum JoinSecurity: Sendable {
    /// Protocol 2: TLS keyed by CPace on `code` (a private game's), or on the public code of open games when nil.
    case encrypted(code: GameCode?)
    /// Protocol 1, unencrypted.
    case plaintext

    /// What App Transport Security judges.
    var connectionSecurity: ConnectionSecurity {
        if case .plaintext = self { return .plaintext }
        return .encryptedGame
    }

    /// The connection's configuration for this security.
    var transport: GameTransport.JoinerSecurity {
        switch self {
        case .encrypted(let code): return .tlsPSK(.pairing(code: code ?? .open))
        case .plaintext: return .plaintext
        }
    }

    var code: GameCode? {
        if case .encrypted(let code) = self { return code }
        return nil
    }
}

/// How to give a private game's code, for messages.
public let codeOptionsHint = "--code-file FILE, --code - (one line from standard input) or the environment variable "
    + "TICTACTOE_CODE"

/// Joins a host by Bonjour name or by address and plays one match, for every front end.
///
/// A name needs permission to browse: it waits for it (saying why), then resolves the name (retrying while it does
/// not answer, until the connect timeout) and reports `.resolved`. An address is resolved by the app and its first
/// address cleared by the gate before anything connects (waiting, saying why, while it must). Then each address is
/// tried in turn (Happy Eyeballs within each; a host that answers busy is asked again, in `waiting(.hostBusy)`, until
/// the connect timeout), the match is played with `options.side`, and the result is the exit
/// status, with every failure mapped by `ExitStatus(failure:)`. `onConnection` hands each connection to the caller, so
/// that it can cancel it.
public func joinMatch(
    _ request: JoinRequest,
    options: MatchOptions,
    gate: LocalNetworkGate,
    reporter: MatchReporter,
    stop: StopSignal? = nil,
    logger: Logger = Logger(label: "tictactoe.join"),
    onConnection: @Sendable (GameConnection?) -> Void = { _ in }
) async -> ExitStatus {
    let controller: MatchRunner.Controller
    do throws(PlayerSpecError) {
        controller = try options.controller(moveTime: options.joinerEngineMoveTime)
    } catch {
        return reportFailure(error, reporter: reporter, stop: stop)
    }
    if request.role != .spectator { reporter.report(.seed(options.seed)) }
    let elapsed = options.clock.stopwatch()
    let found: JoinEndpoints
    do {
        switch try await joinEndpoints(
            request, options: options, gate: gate, reporter: reporter, elapsed: elapsed, stop: stop, logger: logger)
        {
        case .found(let endpoints): found = endpoints
        case .refused(let status): return status
        }
    } catch {
        return reportFailure(error, reporter: reporter, stop: stop)
    }
    let deadline = found.deadline
    /// A private host closes an attempt that comes too soon after another from this address (one a second, longer
    /// after its code was replaced) before its handshake: an encrypted joiner asks again while its time lasts.
    let mayRetryRefusal: @Sendable () -> Bool = {
        if case .plaintext = request.security { return false }
        return deadline - elapsed() > .seconds(1)
    }
    let attempts = JoinAttempts(
        request: request, options: options, controller: controller, gate: gate, reporter: reporter, stop: stop,
        logger: logger, deadline: deadline, elapsed: elapsed, mayRetryRefusal: mayRetryRefusal)
    var lastFailure: Error = ConnectionError.unreachable("no address")
    // An IP literal's address as the gate cleared it: the first attempt only, an attempt after it asks the gate again.
    var precleared = found.precleared
    var untried = found.endpoints[...]
    while let endpoint = untried.popFirst() {
        let end = await attempts.attempt(
            endpoint, next: untried.first, precleared: precleared, onConnection: onConnection)
        precleared = []
        switch end {
        case .ended(let status):
            return status
        case .failed(let error):
            lastFailure = error
        case .askAgain(let error):
            lastFailure = error
            untried = ([endpoint] + untried)[...]
        case .keepAsking(let error):
            lastFailure = error
            untried = [endpoint]
        }
    }
    return reportFailure(lastFailure, reporter: reporter, stop: stop)
}

/// The addresses a join tries, and when its connect timeout ends.
private struct JoinEndpoints {
    var endpoints: [Endpoint]
    /// An IP literal's address as the gate cleared it: the connection's first attempt uses it (one decision).
    var precleared: [ConnectCapability] = []
    /// The end of the connect timeout on the join's stopwatch: it counts from the moment access is allowed (waiting
    /// for permission has its own timeout).
    var deadline: Duration
}

/// What looking for the addresses to join came to.
private enum EndpointsLookup {
    case found(JoinEndpoints)
    /// The game as its TXT record describes it cannot be joined as asked (said).
    case refused(ExitStatus)
}

/// The addresses to join. A name: after permission to browse (waited for), resolved until the connect timeout, and
/// refused when the game does not fit `request.security`. An address: App Transport Security first, then its first
/// address cleared by the gate (an IP literal) or its lookup allowed (a name), before anything is sent.
private func joinEndpoints(
    _ request: JoinRequest, options: MatchOptions, gate: LocalNetworkGate, reporter: MatchReporter,
    elapsed: @Sendable () -> Duration, stop: StopSignal?, logger: Logger
) async throws -> EndpointsLookup {
    let access = LocalNetworkAccess(gate: gate, clock: options.clock)
    let onWaiting: @Sendable (String) -> Void = { reporter.report(.connectionState(.waiting(.notAllowed($0)))) }
    switch request.target {
    case .bonjour(let name):
        let browse = try await access.obtain(
            { $0.browse(GameService.type, for: request.origin) }, waitTimeout: request.waitTimeout,
            onWaiting: onWaiting)
        let deadline = elapsed() + request.connectTimeout
        let game = try await resolve(
            name, with: GameResolver(capability: browse), until: deadline, elapsed: elapsed,
            clock: options.clock, stop: stop)
        let endpoints = try game.endpointsToJoin { logger.warning("\($0)") }  // no loopback from the LAN
        reporter.report(.discovery(.resolved(name: game.name, addresses: endpoints.map(\.description))))
        // The privacy report says what the name led to (the decision above is the browse's).
        gate.report?.recordOperation(
            "resolve", destination: "\(game.name) (\(GameService.type)): "
                + endpoints.map(\.description).joined(separator: " "),
            origin: request.origin)
        if let refusal = mismatch(game, request.security) {
            reporter.report(.error(refusal.message, refusal.status))
            return .refused(refusal.status)
        }
        for endpoint in endpoints { try checkTransportSecurity(to: endpoint.host, request.security, gate: gate) }
        return .found(JoinEndpoints(endpoints: endpoints, deadline: deadline))
    case .address(let typed):
        // A link-local IPv6 address without an interface of this machine: each interface that can reach it.
        let zoned = try JoinAddresses.zoned(typed, interfaces: InterfaceAddress.current())
        if zoned != [typed] {
            logger.info("\(typed) is link-local: trying it on \(zoned.map(\.host).joined(separator: ", "))")
        }
        let endpoint = zoned[0]
        // App Transport Security first: a connection the manifest forbids fails at once, without a prompt.
        try checkTransportSecurity(to: endpoint.host, request.security, gate: gate)
        // Ask (or wait, up to the wait timeout) before anything is sent: for an IP literal, to connect to it; for a
        // name, to look it up. The connection then clears each address itself.
        var precleared: [ConnectCapability] = []
        if let first = EndpointResolution.literalAddresses(of: endpoint)?.first {
            precleared = [try await access.obtain(
                { $0.connect(to: first, for: request.origin) }, waitTimeout: request.waitTimeout,
                onWaiting: onWaiting)]
        } else {
            _ = try await access.obtain(
                { $0.lookUp(endpoint, for: request.origin) }, waitTimeout: request.waitTimeout,
                onWaiting: onWaiting)
        }
        return .found(JoinEndpoints(
            endpoints: zoned, precleared: precleared, deadline: elapsed() + request.connectTimeout))
    }
}

/// A join's attempts at its addresses, with what every attempt shares.
private struct JoinAttempts {
    let request: JoinRequest
    let options: MatchOptions
    let controller: MatchRunner.Controller
    let gate: LocalNetworkGate
    let reporter: MatchReporter
    let stop: StopSignal?
    let logger: Logger
    /// The end of the connect timeout, on `elapsed`.
    let deadline: Duration
    let elapsed: @Sendable () -> Duration
    /// Whether an attempt the host closed before its handshake is made again.
    let mayRetryRefusal: @Sendable () -> Bool

    /// How an attempt at one address ended.
    enum End {
        /// The join is over with this status (said).
        case ended(ExitStatus)
        /// The address failed: the next one is tried.
        case failed(Error)
        /// The host closed the attempt before its handshake: this address is asked again, then the rest.
        case askAgain(Error)
        /// The host is busy with someone else: only this address is asked again, for the rest of the time.
        case keepAsking(Error)
    }

    /// One attempt at `endpoint` (`next` is the address tried after it; nil: this is the last): connects with what is
    /// left of the connect timeout (at most the per-address timeout unless it is the last), then plays or watches.
    func attempt(
        _ endpoint: Endpoint, next: Endpoint?, precleared: [ConnectCapability],
        onConnection: @Sendable (GameConnection?) -> Void
    ) async -> End {
        let isLast = next == nil
        let left = deadline - elapsed()
        let budget = isLast ? max(left, .seconds(1)) : min(max(left, .seconds(1)), request.perAddressTimeout)
        let (reporter, mayRetryRefusal) = (reporter, mayRetryRefusal)
        let connection = GameConnection(
            to: endpoint, localName: options.name,
            configuration: .init(
                connectTimeout: budget, timeouts: options.timeouts, clock: options.clock,
                security: request.security.transport, role: request.role,
                limits: options.gameTime.map { TimeLimits(game: $0) }),
            gate: gate, origin: request.origin, logger: logger, precleared: precleared,
            onStateChange: { state in
                // A failed address that is not the last is not the end: the next one is tried.
                if case .failed = state, !isLast { return }
                // Nor is an encrypted attempt closed before its handshake while time remains: it is asked again.
                if case .failed(.closedDuringHandshake) = state, mayRetryRefusal() { return }
                reporter.report(.connectionState(state))
            }
        )
        onConnection(connection)
        defer { onConnection(nil) }
        // A stop while connecting cancels the attempt; once the match runs, the runner says bye itself.
        let stop = stop
        let stopWatcher = Task {
            guard let stop else { return }
            for await _ in stop.stream() {
                if case .ready = connection.state { break }
                connection.cancel()
                break
            }
        }
        defer { stopWatcher.cancel() }
        do {
            return .ended(try await play(on: connection))
        } catch where closedBeforeHandshake(error) && mayRetryRefusal() {
            let askAgain = await waitBeforeAskingAgain(
                endpoint, reporter: reporter, logger: logger, clock: options.clock, stop: stop)
            if askAgain { return .askAgain(error) }
            return .ended(reportFailure(CancellationError(), reporter: reporter, stop: stop))
        } catch {
            return failed(error, at: endpoint, next: next)
        }
    }

    /// Plays the match on `connection` (or watches it, for a spectator) and says its summary; the exit status.
    private func play(on connection: GameConnection) async throws -> ExitStatus {
        if request.role == .spectator {
            let end = try await connection.run { link in await watch(&link, reporter: reporter, stop: stop) }
            reporter.report(.watchEnded(end))
            return end.exitStatus
        }
        let (end, score, rtt, failure) = try await connection.run { link in
            var runner = MatchRunner(
                role: .joiner, controller: controller, policy: options.policy, reporter: reporter,
                moveDelay: options.moveDelay, gameTime: options.gameTime, clock: options.clock
            )
            let end = await runner.run(&link, stop: stop, revocation: gate.revocations(for: link))
            return (end, runner.session.score, link.stats.lastRoundTrip, runner.localFailure)
        }
        let status = failure.map { reportFailure($0, reporter: reporter, stop: nil) } ?? end.exitStatus
        reporter.report(.summary(MatchSummary(score: score, seed: options.seed, roundTrip: rtt,
                                              exit: status, end: end.name)))
        return status
    }

    /// What an attempt's failure means: the next address, this one again while the host is busy, or the end of the
    /// join with the failure said (in the joiner's words where the fix is on this side).
    private func failed(_ error: Error, at endpoint: Endpoint, next: Endpoint?) -> End {
        let isLast = next == nil
        switch error {
        case let error as ConnectionError:
            switch error {
            case .unreachable, .timedOut, .badAddress:
                if isLast { return .ended(reportFailure(error, reporter: reporter, stop: stop)) }
                logger.info("\(endpoint): \(error); trying \(next.map { "\($0)" } ?? "")")
                return .failed(error)  // the next address
            case .rejected(let reason, _) where reason == RejectReason.busy.description && !isLast:
                // This address is the host, busy with someone else: keep asking it for the rest of the time.
                logger.info("\(endpoint): busy; asking it again until the connect timeout")
                return .keepAsking(error)
            case .rejected(let reason, let text) where reason == RejectReason.version.description:
                if case .plaintext = request.security {
                    // A protocol 1 joiner at an encrypted host: the fix is on this side.
                    reporter.report(.error(
                        "rejected by the host (version): \(text), or join without --plaintext", .rejected))
                    return .ended(.rejected)
                }
                return .ended(reportFailure(error, reporter: reporter, stop: stop))
            case .wrongCode where request.security.code == nil:
                // The open game's public code did not fit: the host runs a private game.
                reporter.report(.error(
                    "\(endpoint) hosts a private game: give its code with \(codeOptionsHint)", .wrongCode))
                return .ended(.wrongCode)
            case .wrongCode:
                reporter.report(.error(
                    "wrong code: \(endpoint) did not accept the code given (ask its host for the code on their "
                        + "screen; it changes after three wrong codes in a row)", .wrongCode))
                return .ended(.wrongCode)
            default:
                return .ended(reportFailure(error, reporter: reporter, stop: stop))
            }
        case SecureChannelError.plaintextHost:
            reporter.report(.error(
                "\(endpoint) speaks protocol 1 (unencrypted); this joiner needs protocol 2 (encrypted): update "
                    + "the host's tictactoe, or join with --plaintext (loopback always; elsewhere only where the "
                    + "manifest's App Transport Security allows plaintext)", .rejected))
            return .ended(.rejected)
        case let error as SecureChannelError:
            // In the words the connection's failed state used (said once: the transcript does not repeat it).
            return .ended(reportFailure(error.connectionError, reporter: reporter, stop: stop))
        default:
            return .ended(reportFailure(error, reporter: reporter, stop: stop))
        }
    }
}

/// Watches a match (the link's hello asked to be a spectator): reports each position the host sends until the host
/// says goodbye (`bye(series-over)`: the host is done, a completed watch) or the connection ends. A stop says
/// goodbye to the host (`bye`) and ends the watch.
private func watch(_ link: inout PeerLink, reporter: MatchReporter, stop: StopSignal?) async -> MatchSession.End {
    let writer = link.writer
    let leaving = Task {
        guard let stop else { return }
        for await reason in stop.stream() {
            writer.write(.bye(reason))
            writer.flush()
            writer.shutOutput()
            return
        }
    }
    defer { leaving.cancel() }
    var end = MatchSession.End.peerLeft(nil)
    reading: while true {
        do {
            guard let message = try await link.next() else { break reading }
            switch message {
            case .watch(let match):
                reporter.report(.watched(match))
            case .bye(let reason):
                end = reason == .seriesOver ? .completed(by: .peer) : .peerLeft(reason)
                break reading
            case .error(let code, let text):
                end = .peerReportedError(code: code, text: text)
                break reading
            case .ping, .pong:
                continue
            default:
                let text = "a spectator expects watch frames, got \(message.kind)"
                writer.write(.error(code: .unexpectedMessage, text: text))
                writer.flush()
                end = .peerViolation(code: .unexpectedMessage, text: text)
                break reading
            }
        } catch let error as GameProtocolError {
            end = .peerViolation(code: error.errorCode, text: "\(error)")
            break reading
        } catch let error as LivenessError {
            end = .peerTimedOut("\(error)")
            break reading
        } catch {
            break reading
        }
    }
    if let reason = stop?.raised { end = .localLeft(reason) }
    await link.closeGracefully()
    return end
}

/// Why a game as its TXT record describes it cannot be joined with `security`, before connecting: a private game
/// without a code (exit 13), an unencrypted game without --plaintext or an encrypted one with it (exit 4).
private func mismatch(_ game: ResolvedGame, _ security: JoinSecurity) -> (message: String, status: ExitStatus)? {
    let name = "'\(game.name)'"
    switch (game.security, security) {
    case (.private?, .encrypted(nil)):
        return ("\(name) is a private game: give its code with \(codeOptionsHint)", .wrongCode)
    case (.plaintext?, .encrypted):
        return ("\(name) is an unencrypted game (protocol 1): join it with --plaintext (allowed on loopback; elsewhere "
                    + "only where the manifest's App Transport Security allows plaintext), or ask its host to play "
                    + "encrypted", .rejected)
    case (.open?, .plaintext), (.private?, .plaintext):
        return ("\(name) is an encrypted game (protocol 2): join it without --plaintext", .rejected)
    default:
        return nil
    }
}

/// Whether the host closed the connection before its handshake completed (as the connection or as TLS saw it).
private func closedBeforeHandshake(_ error: Error) -> Bool {
    switch error {
    case ConnectionError.closedDuringHandshake, SecureChannelError.closedDuringHandshake: return true
    default: return false
    }
}

/// Says that the host closed the attempt before its handshake and waits a second; false when stopped meanwhile.
private func waitBeforeAskingAgain(
    _ endpoint: Endpoint, reporter: MatchReporter, logger: Logger, clock: any Clock<Duration>, stop: StopSignal?
) async -> Bool {
    let pause = Duration.seconds(1)
    logger.info("\(endpoint): closed before the handshake; asking again in \(formatSeconds(pause))")
    reporter.report(.connectionState(.waiting(.peerUnreachable(
        "the host closed the attempt before its handshake (a private game takes one attempt a second)", retryIn: pause))))
    try? await clock.sleep(for: pause)
    return stop?.raised == nil
}

/// The manifest's App Transport Security policy for a game connection to `host` (loopback always passes, without
/// reading the manifest); a refusal is thrown (exit 14).
private func checkTransportSecurity(to host: String, _ security: JoinSecurity, gate: LocalNetworkGate) throws {
    if Loopback.isLoopback(host: host) { return }
    try gate.manifest().checkTransportSecurity(to: host, security: security.connectionSecurity)
}

/// Resolves a game's name, retrying while it does not answer until `deadline` (on `elapsed`, the time on `clock`);
/// an incompatible game is refused.
private func resolve(
    _ name: String, with resolver: GameResolver, until deadline: Duration, elapsed: @Sendable () -> Duration,
    clock: any Clock<Duration>, stop: StopSignal?
) async throws -> ResolvedGame {
    var lastError = BonjourError.notFound(name: name)
    while true {
        if stop?.raised != nil { throw CancellationError() }
        let remaining = deadline - elapsed()
        guard remaining > .zero else { throw lastError }
        do {
            let game = try await resolver.resolve(name, timeout: min(max(remaining, .milliseconds(500)), .seconds(5)))
            if case .incompatible(let reason) = game.compatibility {
                throw ConnectionError.rejected(reason: "incompatible", text: "'\(name)' cannot be joined: \(reason)")
            }
            return game
        } catch let error as BonjourError {
            switch error {
            case .unavailable, .notAllowed, .disabled, .libraryMissing:
                throw error
            case .notFound, .noAddress, .failed:
                lastError = error
                try await clock.sleep(for: .milliseconds(300))
            }
        }
    }
}
