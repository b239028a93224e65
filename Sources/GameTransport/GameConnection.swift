import GameProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The joiner's connection to a host, with explicit states like `NWConnection`.
///
/// `run` drives it through `setup → preparing → ready` (asking the `ConnectionGate` first, and sitting in
/// `waiting(reason)` while the gate says wait or while the host is unreachable, retrying with backoff until the
/// connect timeout), performs the hello/accept handshake, hands the `PeerLink` to the match code, and ends in
/// `cancelled` (normal end or `cancel()`) or `failed(error)`. Every transition is reported to `onStateChange`.
public final class GameConnection: Sendable {
    public struct Configuration: Sendable {
        /// How long attempts to reach the host may go on (counted from the first attempt the gate allowed).
        public var connectTimeout: TimeAmount = .seconds(10)
        public var timeouts: ConnectionTimeouts = .default
        public init(connectTimeout: TimeAmount = .seconds(10), timeouts: ConnectionTimeouts = .default) {
            self.connectTimeout = connectTimeout
            self.timeouts = timeouts
        }
    }

    public let endpoint: Endpoint
    public let localName: String
    private let configuration: Configuration
    private let gate: ConnectionGate
    private let group: EventLoopGroup
    private let logger: Logger
    private let onStateChange: @Sendable (ConnectionState) -> Void
    private let machine = NIOLockedValueBox(ConnectionStateMachine())
    private let cancelled = NIOLockedValueBox<(flag: Bool, channel: Channel?)>((false, nil))

    public init(
        to endpoint: Endpoint,
        localName: String,
        configuration: Configuration = .init(),
        gate: ConnectionGate = OpenGate(),
        group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "tictactoe.connection"),
        onStateChange: @escaping @Sendable (ConnectionState) -> Void = { _ in }
    ) {
        self.endpoint = endpoint
        self.localName = localName
        self.configuration = configuration
        self.gate = gate
        self.group = group
        self.logger = logger
        self.onStateChange = onStateChange
    }

    /// The current state.
    public var state: ConnectionState { machine.withLockedValue { $0.state } }

    /// Stops the connection wherever it is; `run` then throws `CancellationError` (or returns, if the match code
    /// finishes first).
    public func cancel() {
        let channel = cancelled.withLockedValue { value -> Channel? in
            value.flag = true
            return value.channel
        }
        channel?.close(promise: nil)
        _ = feed(.cancel)
    }

    private var isCancelled: Bool { cancelled.withLockedValue { $0.flag } }

    @discardableResult
    private func feed(_ input: ConnectionStateMachine.Input) -> ConnectionStateMachine.Action {
        let (before, action, after) = machine.withLockedValue { machine -> (ConnectionState, ConnectionStateMachine.Action, ConnectionState) in
            let before = machine.state
            let action = machine.handle(input)
            return (before, action, machine.state)
        }
        if before != after {
            logger.debug("connection \(endpoint): \(before.name) -> \(after)")
            onStateChange(after)
        }
        return action
    }

    /// Connects, performs the handshake and runs `body` with the established link. Throws `ConnectionError` when
    /// the connection fails before `body` runs.
    public func run<Result>(_ body: (inout PeerLink) async throws -> Result) async throws -> Result {
        var action = feed(.start)
        var deadline: NIODeadline?
        while true {
            if isCancelled { throw CancellationError() }
            switch action {
            case .none:
                action = .checkGate
            case .checkGate:
                action = await checkGate()
            case .scheduleRetry(let seconds):
                let wake = NIODeadline.now() + .nanoseconds(Int64(seconds * 1e9))
                let sleepUntil = min(wake, deadline ?? wake)
                try? await Task.sleep(nanoseconds: UInt64(max(0, (sleepUntil - .now()).nanoseconds)))
                if isCancelled { throw CancellationError() }
                if let deadline, NIODeadline.now() >= deadline {
                    action = feed(.connectTimedOut)
                } else {
                    action = feed(.retryTimerFired)
                }
            case .connect:
                let start = deadline ?? (NIODeadline.now() + configuration.connectTimeout)
                deadline = start
                do {
                    let (channel, stats) = try await connect(deadline: start)
                    return try await handshakeAndRun(channel, stats: stats, body)
                } catch let failure as ConnectAttemptFailure {
                    action = feed(.connectFailed(failure.text, deadlinePassed: failure.permanent || NIODeadline.now() >= start))
                }
            case .tearDown:
                if case .failed(let error) = state { throw error }
                throw CancellationError()
            }
        }
    }

    private func checkGate() async -> ConnectionStateMachine.Action {
        let changes = gate.changes()
        var iterator = changes.makeAsyncIterator()
        while true {
            switch await gate.evaluate(endpoint) {
            case .allow:
                return feed(.gateAllowed)
            case .wait(let why):
                feed(.gateWaiting(why))
                if isCancelled { return .tearDown }
                guard await iterator.next() != nil else {
                    // The gate will never change its mind; wait stays the answer until cancelled.
                    while !isCancelled { try? await Task.sleep(nanoseconds: 200_000_000) }
                    return .tearDown
                }
            }
        }
    }

    private struct ConnectAttemptFailure: Error {
        var text: String
        var permanent: Bool
    }

    private func connect(deadline: NIODeadline) async throws -> (GameAsyncChannel, ConnectionStats) {
        let timeouts = configuration.timeouts
        let stats = ConnectionStats()
        let remaining = max(deadline - .now(), .milliseconds(100))
        do {
            let channel = try await ClientBootstrap(group: group)
                .connectTimeout(remaining)
                .channelOption(.socketOption(.so_keepalive), value: 1)
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .connect(host: endpoint.host, port: endpoint.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.configureGamePipeline(timeouts: timeouts, stats: stats)
                    }
                }
            return (channel, stats)
        } catch {
            let (text, permanent) = describeConnectError(error)
            throw ConnectAttemptFailure(text: text, permanent: permanent)
        }
    }

    private func handshakeAndRun<Result>(
        _ asyncChannel: GameAsyncChannel,
        stats: ConnectionStats,
        _ body: (inout PeerLink) async throws -> Result
    ) async throws -> Result {
        let channel = asyncChannel.channel
        let alreadyCancelled = cancelled.withLockedValue { value -> Bool in
            value.channel = channel
            return value.flag
        }
        if alreadyCancelled { channel.close(promise: nil) }
        let linger = configuration.timeouts.linger
        return try await asyncChannel.executeThenClose { inbound, outbound in
            var iterator = inbound.makeAsyncIterator()
            let first: GameMessage?
            do {
                try await outbound.write(.hello(version: GameMessage.protocolVersion, name: localName))
                first = try await iterator.next()
                if isCancelled { throw CancellationError() }
            } catch is CancellationError {
                throw CancellationError()
            } catch let error as LivenessError {
                feed(.handshakeFailed(.timedOut("\(error)")))
                throw state.failure ?? error
            } catch let error as GameProtocolError {
                feed(.handshakeFailed(.protocolViolation("\(error)")))
                throw state.failure ?? error
            } catch {
                if isCancelled { throw CancellationError() }
                feed(.handshakeFailed(.closedDuringHandshake))
                throw state.failure ?? error
            }
            switch first {
            case .accept(_, let name)?:
                feed(.handshakeSucceeded(peerName: name))
                var link = PeerLink(
                    peerName: name, role: .joiner, stats: stats, inbound: iterator, outbound: outbound,
                    channel: channel, linger: linger
                )
                do {
                    let result = try await body(&link)
                    feed(.closed(nil))
                    return result
                } catch {
                    feed(.closed(.peerError("\(error)")))
                    throw error
                }
            case .reject(let reason, let text)?:
                feed(.handshakeFailed(.rejected(reason: reason.description, text: text)))
            case .error(let code, let text)?:
                feed(.handshakeFailed(.peerError("\(code): \(text)")))
            case nil:
                feed(.handshakeFailed(.closedDuringHandshake))
            case let other?:
                let text = "expected accept, got \(other.kind)"
                try? await outbound.write(.error(code: .unexpectedMessage, text: text))
                feed(.handshakeFailed(.protocolViolation(text)))
            }
            var link = PeerLink(
                peerName: "", role: .joiner, stats: stats, inbound: iterator, outbound: outbound,
                channel: channel, linger: linger
            )
            await link.closeGracefully()
            throw state.failure ?? ConnectionError.closedDuringHandshake
        }
    }
}

extension ConnectionState {
    var failure: ConnectionError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
