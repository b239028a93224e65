import Bonjour
import Foundation
import GameProtocol
import GameTransport
import LocalNetworkPrivacy
import Logging
import NIOCore

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

    public init(
        target: JoinTarget, connectTimeout: Duration = .seconds(10), perAddressTimeout: Duration = .seconds(3),
        waitTimeout: Duration? = nil, origin: OperationOrigin
    ) {
        self.target = target
        self.connectTimeout = connectTimeout
        self.perAddressTimeout = perAddressTimeout
        self.waitTimeout = waitTimeout
        self.origin = origin
    }
}

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
    do {
        controller = try options.controller()
    } catch {
        reporter.report(.error("\(error)", .scriptError))
        return .scriptError
    }
    reporter.report(.seed(options.seed))
    let access = LocalNetworkAccess(gate: gate)
    let onWaiting: @Sendable (String) -> Void = { reporter.report(.connectionState(.waiting(.notAllowed($0)))) }
    let deadline = ContinuousClock.now + request.connectTimeout
    let endpoints: [Endpoint]
    do {
        switch request.target {
        case .bonjour(let name):
            let browse = try await access.obtain(
                { $0.browse(GameService.type, for: request.origin) }, waitTimeout: request.waitTimeout,
                onWaiting: onWaiting)
            let game = try await resolve(name, with: GameResolver(capability: browse), until: deadline, stop: stop)
            endpoints = try game.endpointsToJoin { logger.warning("\($0)") }  // no loopback from the LAN
            reporter.report(.discovery(.resolved(name: game.name, addresses: endpoints.map(\.description))))
        case .address(let endpoint):
            // Ask (or wait, up to the wait timeout) before anything is sent: for an IP literal, to connect to it; for a
            // name, to look it up. The connection then clears each address itself.
            if let first = EndpointResolution.literalAddresses(of: endpoint)?.first {
                _ = try await access.obtain(
                    { $0.connect(to: first, for: request.origin) }, waitTimeout: request.waitTimeout,
                    onWaiting: onWaiting)
            } else {
                _ = try await access.obtain(
                    { $0.lookUp(endpoint, for: request.origin) }, waitTimeout: request.waitTimeout,
                    onWaiting: onWaiting)
            }
            endpoints = [endpoint]
        }
    } catch {
        return reportFailure(error, reporter: reporter, stop: stop)
    }
    var lastFailure: Error = ConnectionError.unreachable("no address")
    var untried = endpoints[...]
    while let endpoint = untried.popFirst() {
        let isLast = untried.isEmpty
        let left = deadline - .now
        let budget = isLast ? max(left, .seconds(1)) : min(max(left, .seconds(1)), request.perAddressTimeout)
        let connection = GameConnection(
            to: endpoint, localName: options.name,
            configuration: .init(connectTimeout: TimeAmount(budget), timeouts: options.timeouts),
            gate: gate, origin: request.origin, logger: logger,
            onStateChange: { state in
                // A failed address that is not the last is not the end: the next one is tried.
                if case .failed = state, !isLast { return }
                reporter.report(.connectionState(state))
            }
        )
        onConnection(connection)
        defer { onConnection(nil) }
        // A stop while connecting cancels the attempt; once the match runs, the runner says bye itself.
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
            let (end, score, rtt, failure) = try await connection.run { link in
                var runner = MatchRunner(
                    role: .joiner, controller: controller, policy: options.policy, reporter: reporter,
                    moveDelay: options.moveDelay
                )
                let end = await runner.run(&link, stop: stop, revocation: gate.revocations(for: link))
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
            lastFailure = error
            switch error {
            case .unreachable, .timedOut, .badAddress:
                if isLast { return reportFailure(error, reporter: reporter, stop: stop) }
                logger.info("\(endpoint): \(error); trying \(untried.first.map { "\($0)" } ?? "")")
                continue  // the next address
            case .rejected(let reason, _) where reason == RejectReason.busy.description && !isLast:
                // This address is the host, busy with someone else: keep asking it for the rest of the time.
                logger.info("\(endpoint): busy; asking it again until the connect timeout")
                untried = [endpoint]
                continue
            default:
                return reportFailure(error, reporter: reporter, stop: stop)
            }
        } catch {
            return reportFailure(error, reporter: reporter, stop: stop)
        }
    }
    return reportFailure(lastFailure, reporter: reporter, stop: stop)
}

/// Resolves a game's name, retrying while it does not answer until `deadline`; an incompatible game is refused.
private func resolve(
    _ name: String, with resolver: GameResolver, until deadline: ContinuousClock.Instant, stop: StopSignal?
) async throws -> ResolvedGame {
    var lastError = BonjourError.notFound(name: name)
    while true {
        if stop?.raised != nil { throw CancellationError() }
        let remaining = deadline - .now
        guard remaining > .zero else { throw lastError }
        do {
            let game = try await resolver.resolve(name, timeout: min(max(remaining, .milliseconds(500)), .seconds(5)))
            if case .incompatible(let reason) = game.compatibility {
                throw ConnectionError.rejected(reason: "incompatible", text: "'\(name)' cannot be joined: \(reason)")
            }
            return game
        } catch let error as BonjourError {
            switch error {
            case .unavailable, .notAllowed, .disabled:
                throw error
            case .notFound, .noAddress, .failed:
                lastError = error
                try await Task.sleep(for: .milliseconds(300))
            }
        }
    }
}
