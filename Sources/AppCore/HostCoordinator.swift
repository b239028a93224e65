import AppManifest
import AppProcess
import FoundationEssentials
import GameClient
import GamePairing
import GameProtocol
import GameRules
import GameTransport
import LocalNetworkPrivacy
import Logging
import MatchPlay
import NIOCore
import NIOPosix
import PairingCode
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What to host.
public struct HostRequest: Sendable {
    /// Where to listen (every interface by default: IPv6 and IPv4).
    public var target: ListenTarget
    /// The TCP port (0: any free one, reported in `.listening`).
    public var port: Int
    /// Completed matches to serve before stopping (0: keep serving).
    public var matches: Int
    /// Advertise with Bonjour while free for a joiner.
    public var advertise: Bool
    /// Which screen or command hosts (the gate logs it).
    public var origin: OperationOrigin
    /// How long to wait for local network permission (nil: until it comes).
    public var waitTimeout: Duration?
    /// Stop after the first match, however it ended (a person hosting from a UI).
    public var endsWithFirstMatch: Bool
    /// Open (protocol 2 on the public code: the default), private (a 6-digit code joiners must bring) or plaintext
    /// (protocol 1, only where the manifest's transport security policy allows it: loopback always).
    public var security: GameSecurity
    /// Shows a private game's code to the host's player, and each code that replaces it after wrong codes (with the
    /// reason): the host's screen, or stderr of a headless host. Never the transcript, never the log.
    public var showCode: @Sendable (_ code: GameCode, _ replacedBecause: String?) -> Void
    /// Where a private game's first code comes from (libsodium's CSPRNG; a test may fix it).
    public var makeCode: @Sendable () -> GameCode
    /// This machine's interface addresses, read each time the host is free for a joiner to list where joiners reach
    /// it (`JoinAddresses`); getifaddrs unless a test gives its own.
    public var interfaces: @Sendable () -> [InterfaceAddress]
    /// How many spectators may watch at once (0: none). Encrypted games only (watching is protocol 2's).
    public var spectators: Int

    public init(
        target: ListenTarget = .everyInterface, port: Int, matches: Int, advertise: Bool = true,
        origin: OperationOrigin, waitTimeout: Duration? = nil, endsWithFirstMatch: Bool = false,
        security: GameSecurity = .open,
        showCode: @escaping @Sendable (_ code: GameCode, _ replacedBecause: String?) -> Void = { _, _ in },
        makeCode: @escaping @Sendable () -> GameCode = { GameCode.random() },
        interfaces: @escaping @Sendable () -> [InterfaceAddress] = { InterfaceAddress.current() },
        spectators: Int = 0
    ) {
        self.interfaces = interfaces
        self.spectators = spectators
        self.endsWithFirstMatch = endsWithFirstMatch
        self.security = security
        self.showCode = showCode
        self.makeCode = makeCode
        self.target = target
        self.port = port
        self.matches = matches
        self.advertise = advertise
        self.origin = origin
        self.waitTimeout = waitTimeout
    }
}

/// Hosts matches, for every front end: asks the gate for permission to listen (waiting, saying why, while it must),
/// advertises with Bonjour when others could join (not on loopback, not on NoAuth: it says why), serves one joiner at
/// a time with `options.side` (a joiner that does not move or answer within `options.moveTimeout` loses on time),
/// keeps listening after a peer misbehaves, leaves or runs out of time, and stops after `request.matches`
/// completed matches or `stop`. Everything is reported to `reporter`; the result is the exit status.
public func hostMatches(
    _ request: HostRequest,
    options: MatchOptions,
    gate: LocalNetworkGate,
    reporter: MatchReporter,
    stop: StopSignal? = nil,
    logger: Logger = Logger(label: "tictactoe.host"),
    onListener: @Sendable (GameListener) -> Void = { _ in }
) async -> ExitStatus {
    do throws(PlayerSpecError) {
        try options.checkPlayer()  // fail on a bad script before asking or listening
    } catch {
        return reportFailure(error, reporter: reporter, stop: stop)
    }
    if let refused = refusePlaintextOnTheLAN(request, gate: gate, reporter: reporter, stop: stop) { return refused }
    // A private game keeps one code across rounds of listening (joiners were told it); the listener replaces it
    // after wrong codes.
    let privateCode = request.security == .private ? PrivateGameCode(request.makeCode()) : nil
    // Spectators stay across rounds and matches; they are told goodbye when the host stops.
    let spectators = request.spectators > 0 && request.security != .plaintext
        ? SpectatorHub(capacity: request.spectators, hostName: options.name) : nil
    defer { spectators?.closeAll(stop?.raised ?? .seriesOver) }
    let round = ListeningRound(
        request: request, options: options, gate: gate, reporter: reporter, stop: stop, logger: logger,
        state: HostRunState(), privateCode: privateCode, spectators: spectators)
    var advertising: BonjourHostAdvertising?  // decided with the first permission to listen
    var advertisingDecided = false
    // Advertised while it listens, saying whether a match runs (`state=playing`: joiners are told it is busy) and how
    // many spectators it takes (`watch=N`); withdrawn when local network access is turned off, and at the end.
    defer { advertising?.stop() }
    reporter.report(.seed(options.seed))
    // Each round waits for permission to listen, then serves until done; turning access off ends the round at once
    // (the listener closes, a match with a LAN peer ends as local-network-off) and the host waits again.
    rounds: while true {
        let listen: ListenCapability
        do {
            let target = request.target
            listen = try await LocalNetworkAccess(gate: gate, clock: options.clock).obtain(
                { $0.listen(on: target, for: request.origin) }, waitTimeout: request.waitTimeout,
                onWaiting: { reporter.report(.connectionState(.waiting(.notAllowed($0)))) }
            )
        } catch {
            return reportFailure(error, reporter: reporter, stop: stop)
        }
        if !advertisingDecided, request.advertise {
            advertising = BonjourHostAdvertising.make(
                for: listen, name: options.name, security: request.security, gate: gate, origin: request.origin,
                reporter: reporter)
        }
        advertisingDecided = true
        switch await round.listen(with: listen, advertising: advertising, onListener: onListener) {
        case .again: continue rounds
        case .done: break rounds
        case .failed(let status): return status
        }
    }
    let (status, last) = round.state.final(stop: stop?.raised)
    if let last {
        reporter.report(.summary(MatchSummary(score: last.score, seed: options.seed, roundTrip: last.rtt,
                                              exit: status, end: last.end.name)))
    }
    return status
}

/// Unencrypted hosting (`--plaintext`) on the LAN only where the manifest's transport security policy allows
/// plaintext to local addresses (what a joiner's connection to this host would be): by default it does not. The
/// refusal's exit status (said), or nil: hosting may go on.
private func refusePlaintextOnTheLAN(
    _ request: HostRequest, gate: LocalNetworkGate, reporter: MatchReporter, stop: StopSignal?
) -> ExitStatus? {
    guard request.security == .plaintext, !Loopback.isLoopback(host: request.target.bindHost) else { return nil }
    let address: String
    switch request.target {
    case .everyInterface: address = "0.0.0.0"
    case .address(let host): address = host
    }
    do {
        try gate.manifest().checkTransportSecurity(to: address, security: .plaintext)
        return nil
    } catch let refusal as TransportSecurityRefusal {
        reporter.report(.error("cannot host an unencrypted game (--plaintext) on the local network: \(refusal)",
                               refusal.exitStatus))
        return refusal.exitStatus
    } catch {
        return reportFailure(error, reporter: reporter, stop: stop)
    }
}

/// A host's rounds of listening, with what every round shares.
private struct ListeningRound {
    let request: HostRequest
    let options: MatchOptions
    let gate: LocalNetworkGate
    let reporter: MatchReporter
    let stop: StopSignal?
    let logger: Logger
    let state: HostRunState
    let privateCode: PrivateGameCode?
    let spectators: SpectatorHub?

    /// How a round of listening ended.
    enum End {
        /// Access was turned off while the host still had matches to serve: it waits for permission again.
        case again
        /// The host is done (or stopped).
        case done
        /// It could not listen: the failure's exit status (said).
        case failed(ExitStatus)
    }

    /// One round: listens on `listen` and serves joiners until the host is done, is stopped, or local network access
    /// is turned off (the listener closes, the advertisement is withdrawn).
    func listen(
        with listen: ListenCapability, advertising advertiser: BonjourHostAdvertising?,
        onListener: @Sendable (GameListener) -> Void
    ) async -> End {
        let listener = GameListener(
            capability: listen, port: request.port, hostName: options.name,
            limits: TimeLimits(move: options.moveTimeout, game: options.gameTime), timeouts: options.timeouts,
            security: hostSecurity(request.security, privateCode: privateCode), spectators: spectators,
            clock: options.clock, logger: logger
        )
        onListener(listener)
        let (state, reporter, stop) = (state, reporter, stop)
        let revocations = listen.isLoopback ? nil : gate.revocations()
        let revocationWatch = Task {
            guard let revocations else { return }
            for await _ in revocations {
                state.revoke()
                if let advertiser {
                    advertiser.withdraw()
                    reporter.report(.discovery(.advertisingUnavailable(message: "local network access was turned off")))
                }
                listener.stop(spectatorsHear: .quit)
                return
            }
        }
        defer { revocationWatch.cancel() }
        // Ctrl-C or a shutdown: no new joiner (a match in progress says bye through its runner).
        let stopWatch = Task {
            guard let stop else { return }
            for await reason in stop.stream() {
                listener.stop(spectatorsHear: reason)
                return
            }
        }
        defer { stopWatch.cancel() }
        do {
            try await serve(listener, options: options, request: request, gate: gate, state: state,
                            advertising: advertiser, privateCode: privateCode, reporter: reporter, stop: stop)
        } catch {
            let endpoint = Endpoint(host: listen.target.bindHost, port: request.port)
            let failure = ListenFailure(endpoint: endpoint, error: error)
            return .failed(reportFailure(failure, reporter: reporter, stop: stop))
        }
        revocationWatch.cancel()
        if state.takeRevoked(), !state.isDone, stop?.raised == nil { return .again }
        return .done
    }
}

/// A round's serving: joiners one at a time until the host is done or the listener is stopped.
private func serve(
    _ listener: GameListener, options: MatchOptions, request: HostRequest, gate: LocalNetworkGate,
    state: HostRunState, advertising: HostAdvertising?, privateCode: PrivateGameCode?, reporter: MatchReporter,
    stop: StopSignal?
) async throws {
    let codeShown = Mutex(false)
    /// How many more spectators the host takes now (advertised as `watch=N`).
    var spectatorRoom: Int { listener.spectators?.room ?? 0 }
    // Connections a private game refuses before their handshake: the first from an address in full, then counts
    // (`RefusalDigest`), the ones due looked for every second and the rest said when the round ends. An open game
    // refuses none: it has no ticker.
    let refusals = Mutex(RefusalDigest())
    let elapsed = options.clock.stopwatch()
    let sayRefusals: @Sendable ([RefusalDigest.Line]) -> Void = { report($0, to: reporter) }
    let refusalTicker = request.security == .private ? Task {
        while (try? await options.clock.sleep(for: .seconds(1))) != nil {
            sayRefusals(refusals.withLock { $0.isEmpty ? [] : $0.tick(at: elapsed()) })
        }
    } : nil
    defer {
        refusalTicker?.cancel()
        sayRefusals(refusals.withLock { $0.tick(at: elapsed() + $0.interval) })
    }
    try await listener.run(
        onEvent: { event in
            switch event {
            case .listening(let host, let port):
                let addresses = JoinAddresses.list(listeningOn: host, port: port, interfaces: request.interfaces())
                reporter.report(.listening(host: host, port: port, name: options.name, security: request.security,
                                           addresses: addresses))
                let firstTime = codeShown.withLock { shown in
                    defer { shown = true }
                    return !shown
                }
                if let privateCode, firstTime {
                    request.showCode(privateCode.current, nil)
                }
                advertising?.update(GameActivity(playing: false, spectatorRoom: spectatorRoom))
                advertising?.advertise(port: port)
            case .rejectedBusy(let remote):
                reporter.report(.rejectedBusy(remote: remote))
            case .handshakeFailed(let remote, let error):
                reporter.report(.peerFailed(remote: remote, error: error))
            case .pairingFailed(let remote, let reason):
                reporter.report(.peerFailed(remote: remote, error: reason.description))  // "wrong code"
            case .pairingRefused(let source, _, let reason):
                sayRefusals(refusals.withLock { $0.refused(source, reason: reason, at: elapsed()) })
            case .codeReplaced(let code, let reason):
                request.showCode(code, reason)
                reporter.report(.codeReplaced(reason: reason))
            case .spectator(let remote, let name, let joined, let watching):
                reporter.report(.spectator(name: name, address: remote, joined: joined, watching: watching))
                advertising?.update(GameActivity(playing: listener.isPlaying, spectatorRoom: spectatorRoom))
            case .wrongCodeCounted, .wrongCodesForgiven:
                // Each wrong code was reported with its address (`pairingFailed`); the count is in the replacement's
                // reason.
                break
            }
        },
        onMatch: { link in
            advertising?.update(GameActivity(playing: true, spectatorRoom: spectatorRoom))
            guard let controller = try? options.controller(moveTime: options.moveTimeout) else { return .stop }
            // The match's reports also reach the spectators (the whole position after each change).
            let matchReporter: MatchReporter = listener.spectators.map { SpectatorFeed(reporter, hub: $0) } ?? reporter
            var runner = MatchRunner(
                role: .host, controller: controller, policy: options.policy, reporter: matchReporter,
                moveDelay: options.moveDelay, turnTimeLimit: options.moveTimeout, gameTime: options.gameTime,
                clock: options.clock
            )
            let end = await runner.run(&link, stop: stop, revocation: gate.revocations(for: link))
            let next = state.record(
                end: end, score: runner.session.score, rtt: link.stats.lastRoundTrip, localFailure: runner.localFailure,
                matches: request.matches, stopRaised: stop?.raised != nil || request.endsWithFirstMatch)
            if let failure = runner.localFailure { _ = reportFailure(failure, reporter: reporter, stop: nil) }
            return next
        }
    )
}

/// Says the digest's lines of connections refused before their handshake.
private func report(_ refusals: [RefusalDigest.Line], to reporter: MatchReporter) {
    for line in refusals {
        switch line {
        case .first(let source, let reason):
            reporter.report(.peerFailed(remote: source, error: "refused before its handshake: \(reason)"))
        case .more(let source, let count):
            let attempts = count == 1 ? "1 more attempt" : "\(count) more attempts"
            reporter.report(.peerFailed(remote: source, error: "refused \(attempts) before their handshake"))
        }
    }
}

/// The listener's security for `security`: TLS-PSK on CPace with the public code (open), on the private game's code
/// with the attempt limits (private), or none (plaintext).
private func hostSecurity(_ security: GameSecurity, privateCode: PrivateGameCode?) -> HostSecurity {
    switch security {
    case .open: return .tlsPSK(.pairing(code: .open))
    case .private: return .tlsPSK(.privateGame(privateCode ?? PrivateGameCode(GameCode.random())))
    case .plaintext: return .plaintext
    }
}

/// What the host's matches came to: touched from the listener's tasks and the revocation watch.
private final class HostRunState: Sendable {
    struct Last { var end: MatchSession.End; var score: MatchSession.Score; var rtt: Duration? }
    private struct Counts {
        var completed = 0
        var last: Last?
        /// Our own player failed: the host stops with the failure's exit code.
        var localFailure: PlayerSpecError?
        /// The host has served what it was asked to (or must stop): no further round.
        var done = false
        /// Access was turned off during this round.
        var revoked = false
    }
    private let counts = Mutex(Counts())

    func record(end: MatchSession.End, score: MatchSession.Score, rtt: Duration?, localFailure: PlayerSpecError?,
                matches: Int, stopRaised: Bool) -> GameListener.Next {
        counts.withLock { counts in
            counts.last = Last(end: end, score: score, rtt: rtt)
            if case .completed = end { counts.completed += 1 }
            if let localFailure { counts.localFailure = localFailure }
            if localFailure != nil || stopRaised || (matches > 0 && counts.completed >= matches) {
                counts.done = true
                return .stop
            }
            return counts.revoked ? .stop : .keepListening
        }
    }

    /// Local network access was turned off: this round ends.
    func revoke() { counts.withLock { $0.revoked = true } }

    /// Whether access was turned off during the round (and forgets it for the next one).
    func takeRevoked() -> Bool {
        counts.withLock { counts in
            defer { counts.revoked = false }
            return counts.revoked
        }
    }

    var isDone: Bool { counts.withLock { $0.done } }

    func final(stop: ByeReason?) -> (ExitStatus, Last?) {
        counts.withLock { counts in
            if let failure = counts.localFailure { return (failure.exitStatus, counts.last) }
            if let stop { return (ExitStatus(stoppedBy: stop), counts.last) }
            return (counts.last?.end.exitStatus ?? .success, counts.last)
        }
    }
}

/// The host could not listen on its address (in use, no permission): exit 9.
struct ListenFailure: ExitStatusConvertible, CustomStringConvertible {
    var endpoint: Endpoint
    var error: any Error

    var exitStatus: ExitStatus { .cannotListen }

    var description: String {
        "cannot listen on \(endpoint): \(error). If another program has the port, pick another one (0: any free port)"
    }
}
