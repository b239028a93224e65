import Foundation
import GameProtocol
import GameRules
import GameTransport
import LocalNetworkPrivacy
import Logging
import Synchronization
import NIOCore
import NIOPosix

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

    public init(
        target: ListenTarget = .everyInterface, port: Int, matches: Int, advertise: Bool = true,
        origin: OperationOrigin, waitTimeout: Duration? = nil, endsWithFirstMatch: Bool = false
    ) {
        self.endsWithFirstMatch = endsWithFirstMatch
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
/// a time with `options.side`, keeps listening after a peer misbehaves or leaves, and stops after `request.matches`
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
    do {
        try options.checkPlayer()  // fail on a bad script before asking or listening
    } catch {
        reporter.report(.error("\(error)", .scriptError))
        return .scriptError
    }
    let listen: ListenCapability
    do {
        let target = request.target
        listen = try await LocalNetworkAccess(gate: gate).obtain(
            { $0.listen(on: target, for: request.origin) }, waitTimeout: request.waitTimeout,
            onWaiting: { reporter.report(.connectionState(.waiting(.notAllowed($0)))) }
        )
    } catch {
        return reportFailure(error, reporter: reporter, stop: stop)
    }
    let advertising = request.advertise
        ? BonjourHostAdvertising.make(for: listen, name: options.name, gate: gate, origin: request.origin,
                                      reporter: reporter)
        : nil
    // Advertised while free for a joiner; withdrawn while a game runs (a host serves one) and at the end.
    defer { advertising?.stop() }
    reporter.report(.seed(options.seed))
    let listener = GameListener(
        capability: listen, port: request.port, hostName: options.name, timeouts: options.timeouts, logger: logger
    )
    onListener(listener)
    let state = HostRunState()
    let matches = request.matches
    // Turning access off closes a LAN listener at once (a match in progress ends by itself as local-network-off):
    // nobody on the LAN is served while access is off.
    let revocations = listen.isLoopback ? nil : gate.revocations()
    let revocationWatch = Task {
        guard let revocations else { return }
        for await _ in revocations {
            state.revoke()
            listener.stop()
            return
        }
    }
    defer { revocationWatch.cancel() }
    do {
        try await listener.run(
            onEvent: { event in
                switch event {
                case .listening(let host, let port):
                    reporter.report(.listening(host: host, port: port, name: options.name))
                    advertising?.advertise(port: port)
                case .rejectedBusy(let remote):
                    reporter.report(.rejectedBusy(remote: remote))
                case .handshakeFailed(let remote, let error):
                    reporter.report(.peerFailed(remote: remote, error: error))
                }
            },
            onMatch: { link in
                advertising?.withdraw()
                guard let controller = try? options.controller() else { return .stop }
                var runner = MatchRunner(
                    role: .host, controller: controller, policy: options.policy, reporter: reporter,
                    moveDelay: options.moveDelay
                )
                let end = await runner.run(&link, stop: stop, revocation: gate.isExempt(link.remoteSocketAddress) ? nil : gate.revocations())
                let rtt = link.stats.lastRoundTrip.map { Double($0.nanoseconds) / 1e6 }
                let next = state.record(end: end, score: runner.session.score, rtt: rtt, localFailure: runner.localFailure,
                                        matches: matches, stopRaised: stop?.raised != nil || request.endsWithFirstMatch)
                if let failure = runner.localFailure { reporter.report(.error(failure, .scriptError)) }
                return next
            }
        )
    } catch {
        let message = "cannot listen on \(Endpoint(host: listen.target.bindHost, port: request.port)): \(error). "
            + "If another program has the port, pick another one (0: any free port)"
        reporter.report(.error(message, .cannotListen))
        return .cannotListen
    }
    let (status, last, revoked) = state.final(stop: stop?.raised)
    if revoked {
        reporter.report(.error(
            "local network access was turned off, so the host stopped listening: turn it on (Settings, "
                + "`tictactoe privacy grant`) and host again", status))
    }
    if let last {
        reporter.report(.summary(MatchSummary(score: last.score, seed: options.seed, roundTripMilliseconds: last.rtt,
                                              exit: status, end: last.end.name)))
    }
    return status
}

/// What the host's matches came to: touched from the listener's tasks and the revocation watch.
private final class HostRunState: Sendable {
    struct Last { var end: MatchSession.End; var score: MatchSession.Score; var rtt: Double? }
    private struct Counts {
        var completed = 0
        var last: Last?
        var scriptFailed = false
        var revoked = false
    }
    private let counts = Mutex(Counts())

    func record(end: MatchSession.End, score: MatchSession.Score, rtt: Double?, localFailure: String?, matches: Int,
                stopRaised: Bool) -> GameListener.Next {
        counts.withLock { counts in
            counts.last = Last(end: end, score: score, rtt: rtt)
            if localFailure != nil { counts.scriptFailed = true; return .stop }
            if stopRaised || counts.revoked { return .stop }
            if case .completed = end { counts.completed += 1 }
            return matches > 0 && counts.completed >= matches ? .stop : .keepListening
        }
    }

    /// Local network access was turned off: the host stops.
    func revoke() { counts.withLock { $0.revoked = true } }

    func final(stop: ByeReason?) -> (ExitStatus, Last?, revoked: Bool) {
        counts.withLock { counts in
            if counts.scriptFailed { return (.scriptError, counts.last, false) }
            if let stop { return (stop == .shutdown ? .terminated : .interrupted, counts.last, false) }
            if counts.revoked { return (.localNetworkNotAllowed, counts.last, true) }
            return (counts.last?.end.exitStatus ?? .success, counts.last, false)
        }
    }
}
