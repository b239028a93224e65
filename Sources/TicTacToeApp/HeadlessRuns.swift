import Foundation
import GameProtocol
import GameRules
import GameTransport
import LocalNetworkPrivacy
import Logging
import NIOCore
import NIOPosix

/// What `tictactoe host` and `tictactoe join` share.
public struct MatchOptions: Sendable {
    public var name: String
    public var player: PlayerSpec
    public var seed: UInt64
    /// Games in the match; nil for a joiner that follows the host.
    public var games: Int?
    public var timeouts: ConnectionTimeouts
    /// Pause before each of our moves.
    public var moveDelay: Duration

    public init(
        name: String, player: PlayerSpec, seed: UInt64, games: Int?, timeouts: ConnectionTimeouts = .default,
        moveDelay: Duration = .zero
    ) {
        self.moveDelay = moveDelay
        self.name = name
        self.player = player
        self.seed = seed
        self.games = games
        self.timeouts = timeouts
    }

    var policy: MatchRunner.RematchPolicy { games.map { .upTo($0) } ?? .followPeer }
}

/// Hosts matches without a terminal UI: listens, plays each joiner with the configured player, keeps listening
/// after a peer misbehaves or leaves, and stops after `matches` completed matches (0: never).
public func runHost(
    _ options: MatchOptions,
    listen: ListenCapability,
    port: Int,
    matches: Int,
    reporter: MatchReporter,
    stop: StopSignal,
    logger: Logger = Logger(label: "tictactoe.host"),
    advertising: HostAdvertising? = nil,
    onListener: @Sendable (GameListener) -> Void = { _ in }
) async -> ExitStatus {
    // Advertised while free for a joiner; withdrawn while a game runs (a host serves one) and at the end.
    defer { advertising?.stop() }
    do {
        _ = try options.player.makePlayer(seed: options.seed)  // fail on a bad script before listening
    } catch {
        reporter.report(.error("\(error)", .scriptError))
        return .scriptError
    }
    reporter.report(.seed(options.seed))
    let listener = GameListener(
        capability: listen, port: port, hostName: options.name, timeouts: options.timeouts, logger: logger
    )
    onListener(listener)
    let state = HostRunState()
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
                guard let player = try? options.player.makePlayer(seed: options.seed) else { return .stop }
                var runner = MatchRunner(
                    role: .host, player: player, policy: options.policy, reporter: reporter, moveDelay: options.moveDelay
                )
                let end = await runner.run(&link, stop: stop)
                let rtt = link.stats.lastRoundTrip.map { Double($0.nanoseconds) / 1e6 }
                let next = state.record(end: end, score: runner.session.score, rtt: rtt, localFailure: runner.localFailure,
                                        matches: matches, stopRaised: stop.raised != nil)
                if let failure = runner.localFailure { reporter.report(.error(failure, .scriptError)) }
                return next
            }
        )
    } catch {
        let message = "cannot listen on \(Endpoint(host: listen.target.bindHost, port: port)): \(error). "
            + "If another program has the port, pick another with --port (or --port 0 for any free one)"
        reporter.report(.error(message, .cannotListen))
        return .cannotListen
    }
    let (status, last) = state.final(stop: stop.raised)
    if let last {
        reporter.report(.summary(MatchSummary(score: last.score, seed: options.seed, roundTripMilliseconds: last.rtt,
                                              exit: status, end: last.end.name)))
    }
    return status
}

private final class HostRunState: @unchecked Sendable {
    struct Last { var end: MatchSession.End; var score: MatchSession.Score; var rtt: Double? }
    private let lock = NSLock()
    private var completed = 0
    private var last: Last?
    private var scriptFailed = false

    func record(end: MatchSession.End, score: MatchSession.Score, rtt: Double?, localFailure: String?, matches: Int,
                stopRaised: Bool) -> GameListener.Next {
        lock.withLock {
            last = Last(end: end, score: score, rtt: rtt)
            if localFailure != nil { scriptFailed = true; return .stop }
            if stopRaised { return .stop }
            if case .completed = end { completed += 1 }
            return matches > 0 && completed >= matches ? .stop : .keepListening
        }
    }

    func final(stop: ByeReason?) -> (ExitStatus, Last?) {
        lock.withLock {
            if scriptFailed { return (.scriptError, last) }
            if let stop { return (stop == .shutdown ? .terminated : .interrupted, last) }
            return (last?.end.exitStatus ?? .success, last)
        }
    }
}

/// Joins a host reachable at any of `endpoints` (e.g. the addresses Bonjour resolved), trying them in order: every
/// address but the last gets at most `perAddressTimeout`, the last the whole `connectTimeout`.
public func runJoin(
    _ options: MatchOptions,
    endpoints: [Endpoint],
    connectTimeout: TimeAmount,
    perAddressTimeout: TimeAmount = .seconds(3),
    gate: LocalNetworkGate,
    origin: OperationOrigin = .joinCommand,
    reporter: MatchReporter,
    stop: StopSignal,
    logger: Logger = Logger(label: "tictactoe.join")
) async -> ExitStatus {
    precondition(!endpoints.isEmpty, "runJoin needs an endpoint")
    let player: any Player
    do {
        player = try options.player.makePlayer(seed: options.seed)
    } catch {
        reporter.report(.error("\(error)", .scriptError))
        return .scriptError
    }
    reporter.report(.seed(options.seed))
    var remaining = endpoints
    while true {
        let endpoint = remaining.removeFirst()
        let connection = GameConnection(
            to: endpoint,
            localName: options.name,
            configuration: .init(
                connectTimeout: remaining.isEmpty ? connectTimeout : min(connectTimeout, perAddressTimeout),
                timeouts: options.timeouts
            ),
            gate: gate,
            origin: origin,
            logger: logger,
            onStateChange: { reporter.report(.connectionState($0)) }
        )
        // A stop while connecting cancels the attempt; once the match runs, the runner says bye itself.
        let stopWatcher = Task {
            for await _ in stop.stream() {
                if case .ready = connection.state { break }
                connection.cancel()
                break
            }
        }
        defer { stopWatcher.cancel() }
        do {
            let (end, score, rtt, failure) = try await connection.run { link in
                var runner = MatchRunner(
                    role: .joiner, player: player, policy: options.policy, reporter: reporter,
                    moveDelay: options.moveDelay
                )
                let end = await runner.run(&link, stop: stop)
                return (end, runner.session.score, link.stats.lastRoundTrip.map { Double($0.nanoseconds) / 1e6 },
                        runner.localFailure)
            }
            var status = end.exitStatus
            if let failure {
                reporter.report(.error(failure, .scriptError))
                status = .scriptError
            } else if case .localLeft(let reason) = end {
                status = reason == .shutdown ? .terminated : .interrupted
            }
            reporter.report(.summary(MatchSummary(score: score, seed: options.seed, roundTripMilliseconds: rtt,
                                                  exit: status, end: end.name)))
            return status
        } catch let error as ConnectionError {
            if let next = remaining.first {
                switch error {
                case .unreachable, .timedOut, .badAddress:
                    logger.info("\(endpoint): \(error); trying \(next)")
                    continue  // the next address
                default: break
                }
            }
            let status: ExitStatus
            switch error {
            case .unreachable, .badAddress: status = .unreachable
            case .localNetworkRefused: status = .localNetworkNotAllowed
            case .timedOut: status = .timeout
            case .rejected: status = .rejected
            case .protocolViolation, .peerError: status = .protocolError
            case .closedDuringHandshake: status = .peerLeft
            }
            reporter.report(.error("\(error)", status))
            return status
        } catch {
            let status: ExitStatus =
                stop.raised == .shutdown ? .terminated : (stop.raised != nil ? .interrupted : .failure)
            reporter.report(.error(stop.raised != nil ? "stopped before the match began" : "\(error)", status))
            return status
        }
    }
}
