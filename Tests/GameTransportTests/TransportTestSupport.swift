import GameWire
import Foundation
import GameProtocol
import GameTransport
import NIOCore
import NIOPosix
import TicTacToeTestSupport
import XCTest

@testable import LocalNetworkPrivacy

// Helpers for the loopback tests. Everything binds and connects to 127.0.0.1 only, on ports the kernel picks.
// Waits poll with generous limits (10 s) so a loaded 2-core machine cannot make them flake; no test asserts a
// speed beyond such an upper bound.

let loopback = "127.0.0.1"

let testOrigin = OperationOrigin("transport tests")

/// The gate of the loopback tests: a real one over a decision nobody answers, so only loopback (cleared without
/// asking) can be used: the same rule production code lives by.
let loopbackGate: LocalNetworkGate = {
    do {
        return try LocalNetworkGate.fixture(
            in: Scratch.path("tictactoe-transport-tests-" + UUID().uuidString), manifest: nil)
    } catch {
        fatalError("the loopback gate: \(error)")
    }
}()

/// Permission to listen on 127.0.0.1, from the loopback gate.
func loopbackListenCapability() -> ListenCapability {
    guard case .granted(let capability) = loopbackGate.listen(on: .address(loopback), for: testOrigin) else {
        fatalError("the gate must clear loopback without asking")
    }
    return capability
}

extension GameConnection {
    /// A connection for the loopback tests, through the loopback gate.
    convenience init(
        to endpoint: Endpoint, localName: String, configuration: Configuration = .init(clock: ContinuousClock()),
        onStateChange: @escaping @Sendable (ConnectionState) -> Void = { _ in }
    ) {
        self.init(to: endpoint, localName: localName, configuration: configuration, gate: loopbackGate,
                  origin: testOrigin, onStateChange: onStateChange)
    }
}

/// A flag one task sets and another waits for.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

struct TestTimeout: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Moves `clock` through a connection's waits between attempts until it ends (fails, is cancelled or is ready):
/// for each wait its states announce, waits for the wait's sleep to begin and moves the clock by `step` of that
/// state. Returns the steps. Event-driven: no real time passes, nothing is polled.
func advanceThroughWaits(
    _ states: Recorder<ConnectionState>, on clock: ManualClock, step: @escaping (ConnectionState) -> Duration?
) async -> [Duration] {
    var advanced: [Duration] = []
    while true {
        let waits = advanced.count + 1
        await states.waitUntil("wait \(waits) or the end") { seen in
            seen.last.map { $0.isFinal || $0.name == "ready" } == true || seen.filter { $0.name == "waiting" }.count >= waits
        }
        let seen = states.all.filter { $0.name == "waiting" }
        guard seen.count >= waits, let delay = step(seen[waits - 1]) else { return advanced }
        await clock.waitForSleepers(1)
        advanced.append(delay)
        await clock.advance(by: delay)
    }
}

/// Runs `operation` in a new task and waits at most `timeout` seconds for it, so a hang fails the test instead of
/// stopping the whole run.
func within<T: Sendable>(
    _ timeout: Double = 10,
    _ what: String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let result = Recorder<Result<T, Error>>()
    let task = Task {
        do {
            result.append(.success(try await operation()))
        } catch {
            result.append(.failure(error))
        }
    }
    guard await eventually(timeout: timeout, { !result.all.isEmpty }) else {
        task.cancel()
        throw TestTimeout(what: what)
    }
    return try result.all[0].get()
}

/// Timeouts short enough for tests; the handshake keeps its default unless a test is about it.
func testTimeouts(
    handshake: Duration = .seconds(5),
    pingInterval: Duration = .seconds(1),
    silence: Duration = .milliseconds(3500),
    linger: Duration = .milliseconds(500)
) -> ConnectionTimeouts {
    ConnectionTimeouts(handshake: handshake, pingInterval: pingInterval, silence: silence, linger: linger)
}

extension GameListener.Event {
    var listeningPort: Int? {
        if case .listening(_, let port) = self { return port }
        return nil
    }

    var handshakeFailure: String? {
        if case .handshakeFailed(_, let error) = self { return error }
        return nil
    }

    /// A protocol 2 joiner's failed attempt: its address and why.
    var pairingFailure: (remote: String, reason: PairingFailure)? {
        if case .pairingFailed(let remote, let reason) = self { return (remote, reason) }
        return nil
    }

    var isRejectedBusy: Bool {
        if case .rejectedBusy = self { return true }
        return false
    }
}

/// A `GameListener` on 127.0.0.1 and a kernel-chosen port, running in a task until `stop()`.
final class RunningListener: @unchecked Sendable {
    let listener: GameListener
    let events = Recorder<GameListener.Event>()
    let port: Int
    private let task: Task<Void, Error>

    init(
        hostName: String = "Host",
        timeouts: ConnectionTimeouts = testTimeouts(),
        maximumPendingHandshakes: Int = GameListener.defaultMaximumPendingHandshakes,
        security: HostSecurity = .plaintext,
        clock: any Clock<Duration> = ContinuousClock(),
        onMatch: @escaping @Sendable (inout PeerLink) async -> GameListener.Next
    ) async throws {
        let listener = GameListener(
            capability: loopbackListenCapability(), port: 0, hostName: hostName, timeouts: timeouts,
            maximumPendingHandshakes: maximumPendingHandshakes, security: security, clock: clock)
        let events = self.events
        self.listener = listener
        self.task = Task { try await listener.run(onEvent: { events.append($0) }, onMatch: onMatch) }
        guard await eventually({ events.all.contains { $0.listeningPort != nil } }) else {
            listener.stop()
            throw TestTimeout(what: "the listener to bind")
        }
        self.port = events.all.compactMap(\.listeningPort)[0]
        XCTAssertNotEqual(port, 0)
    }

    var endpoint: Endpoint { Endpoint(host: loopback, port: port) }

    var handshakeFailures: [String] { events.all.compactMap(\.handshakeFailure) }

    /// Why each protocol 2 joiner's attempt failed, in order.
    var pairingFailures: [PairingFailure] { events.all.compactMap(\.pairingFailure?.reason) }

    /// Stops listening and waits (at most 10 s) for `run` to return.
    func stop(file: StaticString = #filePath, line: UInt = #line) async {
        listener.stop()
        let task = self.task
        do {
            try await within(10, "the listener to stop") { try await task.value }
        } catch {
            XCTFail("listener did not stop cleanly: \(error)", file: file, line: line)
        }
    }
}

/// A match body for the host that reads until the joiner closes (or the connection fails) and records how it ended.
func readUntilClosed(_ link: inout PeerLink, messages: Recorder<GameMessage>? = nil) async -> Error? {
    do {
        while let message = try await link.next() { messages?.append(message) }
        return nil
    } catch {
        return error
    }
}

/// A port on 127.0.0.1 that nothing listens on: bound by us, then closed.
func closedPort() async throws -> Int {
    let channel = try await ServerBootstrap(group: EventLoops.group)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .bind(host: loopback, port: 0)
        .get()
    let port = channel.localAddress!.port!
    try await channel.close()
    return port
}

/// Connects as `name` and runs `body` once accepted. While the host still says busy, as it may for a moment after the
/// previous peer's connection ended, the connection asks again by itself (up to its 10 s connect timeout).
func joinWhenFree<T>(
    _ endpoint: Endpoint,
    name: String,
    timeouts: ConnectionTimeouts = testTimeouts(),
    _ body: (inout PeerLink) async throws -> T
) async throws -> T {
    let connection = GameConnection(
        to: endpoint, localName: name, configuration: .init(connectTimeout: .seconds(10), timeouts: timeouts, clock: ContinuousClock())
    )
    return try await connection.run(body)
}

// MARK: A raw TCP peer

/// A peer that speaks bytes, not the game pipeline: it can send anything and reads the host's frames.
struct RawClient {
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var pending = ByteBuffer()
    private var decoder = GameMessageDecoder(maximumFrameLength: Int(UInt16.max))

    init(
        inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) {
        self.inbound = inbound
        self.outbound = outbound
    }

    func send(bytes: [UInt8]) async throws {
        try await outbound.write(ByteBuffer(bytes: bytes))
    }

    func send(_ message: GameMessage) async throws {
        var buffer = ByteBuffer()
        buffer.writeGameMessage(message)
        try await outbound.write(buffer)
    }

    /// The next frame from the host, or nil at EOF.
    mutating func next() async throws -> GameMessage? {
        while true {
            if let message = try decoder.decode(buffer: &pending) { return message }
            guard let chunk = try await inbound.next() else {
                let left = pending.readableBytes
                if left > 0 { throw GameProtocolError.truncatedFrame(bufferedBytes: left) }
                return nil
            }
            pending.writeImmutableBuffer(chunk)
        }
    }

    /// Every frame until the host closes the connection.
    mutating func readToEnd() async throws -> [GameMessage] {
        var messages: [GameMessage] = []
        while let message = try await next() { messages.append(message) }
        return messages
    }
}

/// Connects a `RawClient` to 127.0.0.1:`port`, runs `body`, closes. The connection is closed after 20 s at the
/// latest, so a test cannot hang on it.
func withRawClient<T>(port: Int, _ body: (inout RawClient) async throws -> T) async throws -> T {
    let channel = try await ClientBootstrap(group: EventLoops.group)
        .connect(host: loopback, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    let raw = channel.channel
    let watchdog = raw.eventLoop.scheduleTask(in: .seconds(20)) { raw.close(promise: nil) }
    defer { watchdog.cancel() }
    return try await channel.executeThenClose { inbound, outbound in
        var client = RawClient(inbound: inbound.makeAsyncIterator(), outbound: outbound)
        return try await body(&client)
    }
}

/// A TCP server that records what it receives and, on the first bytes from a client, writes `reply` (possibly
/// nothing: a host that hangs mid-handshake) and optionally closes.
final class ScriptedServer: @unchecked Sendable {
    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let received: Recorder<ByteBuffer>
        let reply: [UInt8]
        let closeAfterReply: Bool
        var answered = false

        init(_ received: Recorder<ByteBuffer>, reply: [UInt8], closeAfterReply: Bool) {
            self.received = received
            self.reply = reply
            self.closeAfterReply = closeAfterReply
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received.append(unwrapInboundIn(data))
            guard !answered else { return }
            answered = true
            if !reply.isEmpty {
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: reply)), promise: nil)
            }
            if closeAfterReply { context.close(promise: nil) }
        }
    }

    let received = Recorder<ByteBuffer>()
    private let channel: Channel
    var port: Int { channel.localAddress!.port! }
    var endpoint: Endpoint { Endpoint(host: loopback, port: port) }

    init(reply: [UInt8] = [], closeAfterReply: Bool = false) async throws {
        let received = self.received
        channel = try await ServerBootstrap(group: EventLoops.group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(
                        Handler(received, reply: reply, closeAfterReply: closeAfterReply)
                    )
                }
            }
            .bind(host: loopback, port: 0)
            .get()
    }

    /// The frames received so far.
    var frames: [GameMessage] {
        var bytes = ByteBuffer()
        received.all.forEach { bytes.writeImmutableBuffer($0) }
        var decoder = GameMessageDecoder()
        var messages: [GameMessage] = []
        while let message = try? decoder.decode(buffer: &bytes) { messages.append(message) }
        return messages
    }

    func stop() async {
        try? await channel.close()
    }
}
