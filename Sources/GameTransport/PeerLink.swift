import GameProtocol
import LocalNetworkPrivacy
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An established game connection after a successful handshake: the peer's name, its frames and our writer.
///
/// Handed to the match code by `GameListener` and `GameConnection` for the duration of one match; the connection
/// closes when that code returns.
public struct PeerLink {
    /// The peer's player name, as it sent it (sanitize before showing it in a terminal).
    public private(set) var peerName: String
    /// The time limits the peer announced in the handshake: what it holds us to (`MatchSession.peerLimits`).
    public private(set) var peerLimits: TimeLimits = .none
    /// Our side of the connection.
    public let role: MatchSession.Role
    /// The peer's address, for messages and logs.
    public let remoteAddress: String
    /// The peer's socket address (nil if the channel does not know it).
    public let remoteSocketAddress: SocketAddress?
    /// Round-trip measurements from the heartbeat.
    public let stats: ConnectionStats

    private var inbound: NIOAsyncChannelInboundStream<GameMessage>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<GameMessage>
    let channel: Channel
    private let linger: TimeAmount
    /// Frames read from `inbound` so far (the handshake's included): what `divert` leaves in the stream is the rest.
    private var consumed: Int

    init(
        peerName: String,
        role: MatchSession.Role,
        stats: ConnectionStats,
        inbound: NIOAsyncChannelInboundStream<GameMessage>.AsyncIterator,
        consumed: Int = 0,
        outbound: NIOAsyncChannelOutboundWriter<GameMessage>,
        channel: Channel,
        linger: TimeAmount
    ) {
        self.peerName = peerName
        self.role = role
        self.stats = stats
        self.consumed = consumed
        self.inbound = inbound
        self.outbound = outbound
        self.channel = channel
        self.linger = linger
        self.remoteSocketAddress = stats.remoteAddress ?? channel.remoteAddress
        self.remoteAddress = remoteSocketAddress.map(describe) ?? "?"
    }

    func withPeer(name: String, limits: TimeLimits?) -> PeerLink {
        var copy = self
        copy.peerName = name
        copy.peerLimits = limits ?? .none
        return copy
    }

    /// The next message from the peer; nil when it closed the connection. Throws `GameProtocolError` for bytes that
    /// are not a valid frame (the peer has already been sent an `error` frame) and `LivenessError` for a peer that
    /// went silent.
    public mutating func next() async throws -> GameMessage? {
        let message = try await inbound.next()
        if message != nil { consumed += 1 }
        return message
    }

    /// Hands the rest of the peer's frames, and the connection's end, to `sink` as they are read: called on the
    /// connection's event loop, in order, with no async stream or task switch per frame (a match's loop). Frames that
    /// arrived before (right behind the handshake) are delivered first: this reads them from the inbound stream, in
    /// order, before anything read later. Must be called on the connection's event loop (a task that prefers
    /// `executor`); `next()` must not be used afterwards.
    public mutating func divert(to sink: @escaping (PeerEvent) -> Void) async {
        channel.eventLoop.preconditionInEventLoop()
        // Until the stream's frames are delivered, later ones wait here (on the event loop, like the sink).
        final class Holding {
            var events: [PeerEvent] = []
            var held = true
        }
        let holding = Holding()
        // A connection that closed already has had its handlers removed, the relay too (a fast peer's last frames,
        // `bye` then its close, can come before the match begins): everything it read went to the inbound stream,
        // which holds it, then its end. The stream is read to that end.
        let relay = try? channel.pipeline.syncOperations.handler(type: GameFrameHandler.self)
        let diverted = relay?.divert { event in
            if holding.held { holding.events.append(event) } else { sink(event) }
        } ?? (passedOn: consumed, endedAlready: true)
        var left = diverted.passedOn - consumed
        while left > 0 || diverted.endedAlready {
            do {
                guard let message = try await next() else {
                    sink(.ended(nil))
                    break
                }
                sink(.message(message))
                left -= 1
            } catch {
                sink(.ended(error))
                break
            }
        }
        channel.eventLoop.preconditionInEventLoop()
        for event in holding.events { sink(event) }
        holding.events = []
        holding.held = false
    }

    /// Sends one message (flushed).
    public func send(_ message: GameMessage) async throws {
        try await outbound.write(message)
    }

    /// The connection's event loop as a task executor: code that prefers it (`withTaskExecutorPreference`) reads and
    /// writes this link's frames on the thread that handles its socket, without a thread hop per frame.
    public var executor: any TaskExecutor { EventLoopTaskExecutor(channel.eventLoop) }

    /// The sending half, which can be used from another task than the one reading.
    public var writer: PeerWriter { PeerWriter(outbound: outbound, channel: channel, linger: linger) }

    /// The event loop of the connection.
    var eventLoop: any EventLoop { channel.eventLoop }

    /// Succeeds once the connection is closed (its handlers removed).
    var closeFuture: EventLoopFuture<Void> { channel.closeFuture }

    /// Whether TCP_NODELAY is set on the socket, as getsockopt(2) reads it back.
    func tcpNoDelay() async throws -> Bool {
        try await channel.getOption(.tcpOption(.tcp_nodelay)) != 0
    }

    /// Ends the connection without losing our last frames: shuts our output, discards what the peer still sends
    /// until it closes its end (or `linger` passes), then closes.
    public mutating func closeGracefully() async {
        let channel = self.channel
        try? await channel.close(mode: .output)
        let hardClose = channel.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
        while let _ = try? await inbound.next() {}
        hardClose.cancel()
        try? await channel.close()
    }
}

/// The sending half of a `PeerLink`.
public struct PeerWriter: Sendable {
    let outbound: NIOAsyncChannelOutboundWriter<GameMessage>
    let channel: Channel
    let linger: TimeAmount

    /// Sends one message (flushed).
    public func send(_ message: GameMessage) async throws {
        try await outbound.write(message)
    }

    /// Puts one message into the pipeline without flushing it: a match writes the frames of one step this way and
    /// then calls `flush()` once (one TLS record and one write(2) for the lot). On the connection's event loop (where
    /// a match runs) the frame goes in at once, with no task switch; from elsewhere it is carried there, in order. A
    /// frame that cannot be written (the connection is closing) is dropped: the reading side says why.
    public func write(_ message: GameMessage) {
        channel.write(message, promise: nil)
    }

    /// Sends what `write` queued.
    public func flush() {
        channel.flush()
    }

    /// Shuts our output (the peer reads EOF after our last frame) and closes the whole connection after the linger
    /// time unless the peer closes first. The reader keeps draining until then.
    public func shutOutput() {
        let channel = self.channel
        channel.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
    }

    /// The connection's event loop, where a match runs.
    public var eventLoop: any EventLoop { channel.eventLoop }

    /// Closes the connection now.
    public func closeNow() {
        channel.close(promise: nil)
    }

    /// Runs `body` after `delay` on the connection's event loop unless the returned closure cancels it first: a
    /// timer that wakes no other thread (a match's turn time limit).
    public func schedule(
        after delay: Duration, _ body: @escaping @Sendable () -> Void
    ) -> @Sendable () -> Void {
        let (seconds, attoseconds) = delay.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let amount: TimeAmount = nanoseconds.overflow
            ? .nanoseconds(.max) : .nanoseconds(nanoseconds.partialValue &+ attoseconds / 1_000_000_000)
        let task = channel.eventLoop.scheduleTask(in: amount) { body() }
        return { task.cancel() }
    }
}

/// HOST:PORT as people read it: an IPv4 peer of a dual-stack listener (`::ffff:a.b.c.d`, IPv4-mapped) as its IPv4
/// address, an IPv6 address in brackets.
func describe(_ address: SocketAddress) -> String {
    switch address {
    case .v4, .v6:
        var ip = address.numericHost  // a link-local IPv6 peer keeps its interface: [fe80::1%lab0]:7878
        if ip.lowercased().hasPrefix("::ffff:"), ip.dropFirst(7).contains(".") { ip = String(ip.dropFirst(7)) }
        let port = address.port.map(String.init) ?? "?"
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    default:
        return "\(address)"
    }
}

/// A readable reason for a failed connect (refused, unreachable, timed out, unresolvable).
func describeConnectError(_ error: Error) -> (text: String, permanent: Bool) {
    if let error = error as? NIOConnectionError {
        if let first = error.connectionErrors.first { return describeConnectError(first.error) }
        return ("cannot resolve host '\(error.host)'", true)
    }
    if let error = error as? IOError {
        switch error.errnoCode {
        case ECONNREFUSED: return ("connection refused (is the host running?)", false)
        case EHOSTUNREACH: return ("host unreachable", false)
        case ENETUNREACH: return ("network unreachable", false)
        case ETIMEDOUT: return ("connection timed out", false)
        case EADDRNOTAVAIL: return ("address not available", true)
        case EINVAL:
            return ("this machine cannot connect to that address as written (a link-local IPv6 address, fe80::…, "
                        + "needs the interface to reach it on: [fe80::…%INTERFACE]:PORT)", true)
        case ENETDOWN: return ("the network is down (is this machine connected?)", false)
        case ECONNRESET: return ("the host reset the connection", false)
        case EACCES, EPERM: return ("this machine's firewall or policy forbids connecting to that address", true)
        case EAFNOSUPPORT: return ("this machine has no IPv4 or no IPv6 for that address", true)
        default: return ("the connection failed: \(String(cString: strerror(error.errnoCode)).lowercased())", false)
        }
    }
    if let error = error as? ChannelError, case .connectTimeout = error {
        return ("no answer from the host", false)
    }
    return ("\(error)", false)
}
