import GameProtocol
import LocalNetworkPrivacy
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The joiner's connection to a host, with explicit states like `NWConnection`.
///
/// `run` drives it through `setup → preparing → ready` and ends in `cancelled` (normal end or `cancel()`) or
/// `failed(error)`; every transition is reported to `onStateChange`. Before each attempt it resolves the endpoint
/// itself and asks the local network gate to clear every address (loopback is cleared without asking): while the
/// gate says wait (not determined, denied) it sits in `waiting(.notAllowed(reason))` and goes on by itself when the
/// decision changes; a refusal (no manifest) fails at once. Cleared addresses are raced by NIO's Happy Eyeballs
/// (IPv6 first), retried with backoff while unreachable until the connect timeout. Then the hello/accept handshake,
/// and the `PeerLink` goes to the match code. A host that answers `reject(busy)` (it is playing someone else) is
/// asked again the same way, in `waiting(.hostBusy)`, until the connect timeout; then the connection fails as
/// rejected (busy).
///
/// With `Configuration.security` `.tlsPSK`, protocol 2: TLS 1.2 PSK from the first byte, the hello/accept handshake
/// inside it (hello version 2, role player); in plaintext, protocol 1 (hello version 1, which has no role). A key
/// mismatch (the host's code is not ours: a wrong code, or none for a private game) ends `run` with
/// `ConnectionError.wrongCode`, and the state is `failed(.wrongCode)`; its other failures (a v1 host, the exchange
/// refusing) end `run` with the `SecureChannelError` itself, the state reporting the nearest `ConnectionError`.
public final class GameConnection: Sendable {
    public struct Configuration: Sendable {
        /// How long attempts to reach the host may go on (counted from the first attempt the gate allowed).
        public var connectTimeout: Duration = .seconds(10)
        public var timeouts: ConnectionTimeouts = .default
        /// Measures the connect timeout and the waits between attempts (tests pass a clock they advance).
        public var clock: any Clock<Duration>
        /// Plaintext (protocol 1) unless told otherwise.
        public var security: JoinerSecurity
        /// What the hello asks to be: a player, or a spectator (protocol 2 only: a version 1 hello has no role).
        public var role: PeerRole
        /// The time limits the joiner holds the host to, announced in the hello (nil: none).
        public var limits: TimeLimits?
        public init(
            connectTimeout: Duration = .seconds(10), timeouts: ConnectionTimeouts = .default,
            clock: any Clock<Duration>, security: JoinerSecurity = .plaintext,
            role: PeerRole = .player, limits: TimeLimits? = nil
        ) {
            self.role = role
            self.limits = limits
            self.connectTimeout = connectTimeout
            self.timeouts = timeouts
            self.clock = clock
            self.security = security
        }
    }

    /// The configuration's clock as the connection uses it: time since the connection was made, and sleeping.
    private struct Timekeeper: Sendable {
        let elapsed: @Sendable () -> Duration
        let sleep: @Sendable (Duration) async throws -> Void

        init<C: Clock>(_ clock: C) where C.Duration == Duration {
            elapsed = clock.stopwatch()
            sleep = { try await clock.sleep(for: $0) }
        }
    }

    public let endpoint: Endpoint
    public let localName: String
    private let configuration: Configuration
    private let time: Timekeeper
    private let gate: LocalNetworkGate
    private let origin: OperationOrigin
    private let group: EventLoopGroup
    private let logger: Logger
    private let onStateChange: @Sendable (ConnectionState) -> Void
    private let machine = Mutex(ConnectionStateMachine())
    private let cancelled = Mutex<(flag: Bool, channel: Channel?, wake: AsyncStream<Void>.Continuation?)>(
        (false, nil, nil))
    /// The endpoint's addresses as the caller had the gate clear them just before (it waited for permission first):
    /// the first attempt uses them instead of asking again (one decision in the privacy report, not two); a retry asks.
    private let precleared: Mutex<[ConnectCapability]>

    public init(
        to endpoint: Endpoint,
        localName: String,
        configuration: Configuration,
        gate: LocalNetworkGate,
        origin: OperationOrigin,
        group: EventLoopGroup = EventLoops.group,
        logger: Logger = Logger(label: "tictactoe.connection"),
        precleared: [ConnectCapability] = [],
        onStateChange: @escaping @Sendable (ConnectionState) -> Void = { _ in }
    ) {
        self.precleared = Mutex(precleared)
        self.endpoint = endpoint
        self.localName = localName
        self.configuration = configuration
        self.time = Timekeeper(configuration.clock)
        self.gate = gate
        self.origin = origin
        self.group = group
        self.logger = logger
        self.onStateChange = onStateChange
    }

    /// The current state.
    public var state: ConnectionState { machine.withLock { $0.state } }

    /// Stops the connection wherever it is; `run` then throws `CancellationError` (or returns, if the match code
    /// finishes first).
    public func cancel() {
        let (channel, wake) = cancelled.withLock { value -> (Channel?, AsyncStream<Void>.Continuation?) in
            value.flag = true
            return (value.channel, value.wake)
        }
        wake?.finish()  // a wait for the gate ends
        channel?.close(promise: nil)
        _ = feed(.cancel)
    }

    private var isCancelled: Bool { cancelled.withLock { $0.flag } }

    @discardableResult
    private func feed(_ input: ConnectionStateMachine.Input) -> ConnectionStateMachine.Action {
        let (before, action, after) = machine.withLock { machine -> (ConnectionState, ConnectionStateMachine.Action, ConnectionState) in
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
        var deadline: Duration?  // on `time`, from the first attempt the gate allowed
        var cleared: [ConnectCapability] = []
        while true {
            if isCancelled { throw CancellationError() }
            switch action {
            case .none:
                action = .checkGate
            case .checkGate:
                (action, cleared) = await checkGate()
            case .scheduleRetry(let delay):
                let wake = time.elapsed() + delay
                let sleepUntil = min(wake, deadline ?? wake)
                let pause = sleepUntil - time.elapsed()
                if pause > .zero { try? await time.sleep(pause) }
                if isCancelled { throw CancellationError() }
                if let deadline, time.elapsed() >= deadline {
                    action = feed(.connectTimedOut)
                } else {
                    action = feed(.retryTimerFired)
                }
            case .connect:
                let start = deadline ?? (time.elapsed() + configuration.connectTimeout)
                deadline = start
                do {
                    let left = start - time.elapsed()
                    let remaining = max(TimeAmount(left), .milliseconds(100))
                    let (channel, stats) = try await connect(cleared, timeout: remaining)
                    return try await handshakeAndRun(channel, stats: stats, body)
                } catch let failure as ConnectAttemptFailure {
                    action = feed(.connectFailed(failure.text, deadlinePassed: failure.permanent || time.elapsed() >= start))
                } catch let busy as HostBusy {
                    action = feed(.hostBusy(busy.text, deadlinePassed: time.elapsed() >= start))
                }
            case .tearDown:
                if case .failed(let error) = state { throw error }
                throw CancellationError()
            }
        }
    }

    /// Asks the gate to clear the endpoint's addresses, waiting (in `waiting(.notAllowed)`) while it says wait: a host
    /// name is first cleared for its lookup, then looked up, then each address is cleared. Returns `.connect` with the
    /// cleared addresses, or what the state machine says after a failure.
    private func checkGate() async -> (ConnectionStateMachine.Action, [ConnectCapability]) {
        // Wakes on each change of the decision, and ends when the connection is cancelled.
        let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let changes: AsyncStream<LocalNetworkAuthorization> = gate.changes()  // subscribed before the first check
        let forward = Task {
            for await _ in changes { wake.yield() }
            wake.finish()
        }
        defer {
            forward.cancel()
            cancelled.withLock { $0.wake = nil }
        }
        if cancelled.withLock({ value -> Bool in
            value.wake = wake
            return value.flag
        }) {
            return (.tearDown, [])
        }
        var wakeup = wakeups.makeAsyncIterator()
        let addresses: [SocketAddress]
        if let literal = EndpointResolution.literalAddresses(of: endpoint) {
            let given = precleared.withLock { given in
                defer { given = [] }  // once: a retry asks the gate again
                return given
            }
            if !given.isEmpty, given.map(\.address) == literal { return (feed(.gateAllowed), given) }
            addresses = literal
        } else {
            let endpoint = self.endpoint
            let origin = self.origin
            switch await waitForClearance({ [gate.lookUp(endpoint, for: origin)] }, &wakeup) {
            case .left(let action): return (action, [])
            case .cleared(let lookups):
                do {
                    addresses = try await EndpointResolution.addresses(of: lookups[0])
                } catch {
                    return (feed(.connectFailed("\(error)", deadlinePassed: true)), [])
                }
            }
        }
        let origin = self.origin
        switch await waitForClearance({ addresses.map { gate.connect(to: $0, for: origin) } }, &wakeup) {
        case .left(let action): return (action, [])
        case .cleared(let cleared): return (feed(.gateAllowed), cleared)
        }
    }

    private enum Cleared<Capability> {
        case cleared([Capability])
        case left(ConnectionStateMachine.Action)
    }

    /// Asks `clear` again at each wake-up until it grants something (what it grants, with any waiting or refused
    /// addresses left out), the gate refuses, or the connection is cancelled.
    private func waitForClearance<Capability>(
        _ clear: () -> [Clearance<Capability>], _ wakeup: inout AsyncStream<Void>.Iterator
    ) async -> Cleared<Capability> {
        while true {
            let clearances = clear()
            let cleared = clearances.compactMap(\.capability)
            if !cleared.isEmpty { return .cleared(cleared) }
            for case .refused(let error) in clearances {
                return .left(feed(.gateRefused("\(error)")))
            }
            guard case .waiting(let reason, let seen)? = clearances.first else {
                return .left(feed(.gateRefused("no address")))
            }
            // A prompt answered at once (a question on a terminal) changed the decision already: ask again.
            if gate.authorization != seen { continue }
            feed(.gateWaiting(reason))
            if isCancelled { return .left(.tearDown) }
            guard await wakeup.next() != nil else {
                if isCancelled { return .left(.tearDown) }
                // The decision cannot be watched, so the wait could never end by itself: say so and give up.
                return .left(feed(.gateRefused("the local network decision cannot be watched for changes (see the log)")))
            }
            if isCancelled { return .left(.tearDown) }
        }
    }

    private struct ConnectAttemptFailure: Error {
        var text: String
        var permanent: Bool
    }

    /// The host answered `reject(busy)`: worth asking again.
    private struct HostBusy: Error {
        var text: String
    }

    /// Races the cleared addresses with NIO's Happy Eyeballs; NIO resolves nothing itself (`ClearedAddressResolver`).
    private func connect(
        _ cleared: [ConnectCapability], timeout remaining: TimeAmount
    ) async throws -> (GameAsyncChannel, ConnectionStats) {
        let timeouts = configuration.timeouts
        let security = configuration.security.pipelineSecurity
        let stats = ConnectionStats()
        let loop = group.next()
        do {
            let channel = try await ClientBootstrap(group: loop)
                .resolver(ClearedAddressResolver(capabilities: cleared, loop: loop))
                .connectTimeout(remaining)
                .channelOption(.socketOption(.so_keepalive), value: 1)
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .connect(host: endpoint.host, port: cleared.first?.address.port ?? endpoint.port) { channel in
                    // Each attempt's channel is known at once, so that `cancel()` closes a connect under way.
                    let cancelledAlready = self.cancelled.withLock { value -> Bool in
                        value.channel = channel
                        return value.flag
                    }
                    if cancelledAlready { channel.close(promise: nil) }
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.configureGamePipeline(timeouts: timeouts, stats: stats, security: security)
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
        let alreadyCancelled = cancelled.withLock { value -> Bool in
            value.channel = channel
            return value.flag
        }
        if alreadyCancelled { channel.close(promise: nil) }
        let linger = TimeAmount(configuration.timeouts.linger)
        return try await asyncChannel.executeThenClose { inbound, outbound in
            var iterator = inbound.makeAsyncIterator()
            let first = try await sendHelloAndReadAnswer(&iterator, outbound)
            switch first {
            case .accept(_, let name, let limits)?:
                feed(.handshakeSucceeded(peerName: name))
                var link = PeerLink(
                    peerName: name, role: .joiner, stats: stats, inbound: iterator, consumed: 1, outbound: outbound,
                    channel: channel, linger: linger
                ).withPeer(name: name, limits: limits)
                do {
                    let result = try await body(&link)
                    feed(.closed(nil))
                    return result
                } catch {
                    feed(.closed(.peerError("\(error)")))
                    throw error
                }
            case .reject(let reason, let text)? where reason == .busy:
                var link = PeerLink(
                    peerName: "", role: .joiner, stats: stats, inbound: iterator, consumed: 1, outbound: outbound,
                    channel: channel, linger: linger
                )
                await link.closeGracefully()
                throw HostBusy(text: text)
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
                peerName: "", role: .joiner, stats: stats, inbound: iterator, consumed: first == nil ? 0 : 1,
                outbound: outbound, channel: channel, linger: linger
            )
            await link.closeGracefully()
            throw state.failure ?? ConnectionError.closedDuringHandshake
        }
    }

    /// Sends our hello and reads the host's first frame (nil: it closed without one). A failure is reported
    /// (`handshakeFailed`) and thrown as the caller takes it: cancellation as `CancellationError`, a key mismatch as
    /// `ConnectionError.wrongCode`, protocol 2's other failures as they are, the rest as the state's failure if any.
    private func sendHelloAndReadAnswer(
        _ iterator: inout NIOAsyncChannelInboundStream<GameMessage>.AsyncIterator,
        _ outbound: NIOAsyncChannelOutboundWriter<GameMessage>
    ) async throws -> GameMessage? {
        do {
            // A channel that failed already (a TLS handshake can fail within one round trip) refuses the write;
            // its inbound stream says why.
            var writeError: Error?
            do {
                try await outbound.write(
                    .hello(
                        version: configuration.security.protocolVersion, name: localName, role: configuration.role,
                        limits: configuration.limits))
            } catch {
                writeError = error
            }
            let first = try await iterator.next()
            if first == nil, let writeError { throw writeError }
            if isCancelled { throw CancellationError() }
            return first
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as SecureChannelError {
            // Protocol 2's own failures (a v1 host, the exchange refusing) go to the caller as they are; a key
            // mismatch as `ConnectionError.wrongCode`, the app's own word for it.
            if isCancelled { throw CancellationError() }
            feed(.handshakeFailed(error.connectionError))
            if error == .keyMismatch { throw ConnectionError.wrongCode }
            throw error
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
    }
}

extension ConnectionState {
    var failure: ConnectionError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
