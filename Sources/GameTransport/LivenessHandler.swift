import GameProtocol
import NIOConcurrencyHelpers
import NIOCore

/// Round-trip times measured with ping/pong, and what protects the connection, readable from any thread.
public final class ConnectionStats: Sendable {
    private let box = NIOLockedValueBox<(last: TimeAmount?, count: Int)>((nil, 0))
    private let secure = NIOLockedValueBox<SecureSession?>(nil)

    public init() {}

    /// The TLS version and cipher suite once a protocol-2 handshake has completed; nil in plaintext.
    public var secureSession: SecureSession? { secure.withLockedValue { $0 } }

    func recordSecureSession(_ session: SecureSession) {
        secure.withLockedValue { $0 = session }
    }

    /// The last measured round trip, if any.
    public var lastRoundTrip: TimeAmount? { box.withLockedValue { $0.last } }
    /// How many pongs have come back.
    public var pongCount: Int { box.withLockedValue { $0.count } }

    func record(_ roundTrip: TimeAmount) {
        box.withLockedValue { $0 = (roundTrip, $0.count + 1) }
    }
}

/// Why the liveness handler gave up on a peer.
public enum LivenessError: Error, Sendable, Hashable, CustomStringConvertible {
    case handshakeTimeout(seconds: Double)
    case peerSilent(seconds: Double)

    public var description: String {
        switch self {
        case .handshakeTimeout(let seconds):
            return "no handshake from the peer within \(formatSeconds(seconds))"
        case .peerSilent(let seconds):
            return "nothing heard from the peer for \(formatSeconds(seconds))"
        }
    }
}

/// Handshake timeout, then heartbeat: pings every `pingInterval`, answers pings, measures round trips from pongs,
/// and fails the connection when the peer has been silent for `silence`. Ping and pong never reach the application.
final class LivenessHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = GameMessage
    typealias InboundOut = GameMessage
    typealias OutboundIn = GameMessage
    typealias OutboundOut = GameMessage

    private let timeouts: ConnectionTimeouts
    private let stats: ConnectionStats
    private var handshakeTimer: Scheduled<Void>?
    private var heartbeat: RepeatedTask?
    private var lastRead = NIODeadline.now()
    private var live = false
    private var failed = false

    init(timeouts: ConnectionTimeouts, stats: ConnectionStats) {
        self.timeouts = timeouts
        self.stats = stats
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { armHandshakeTimer(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        armHandshakeTimer(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastRead = .now()
        switch self.unwrapInboundIn(data) {
        case .ping(let value):
            context.writeAndFlush(self.wrapOutboundOut(.pong(value)), promise: nil)
        case .pong(let value):
            let now = NIODeadline.now().uptimeNanoseconds
            if value <= now { stats.record(.nanoseconds(Int64(now - value))) }
        default:
            if !live { goLive(context: context) }
            context.fireChannelRead(data)
        }
    }

    private func armHandshakeTimer(context: ChannelHandlerContext) {
        guard handshakeTimer == nil, !live else { return }
        let seconds = Double(timeouts.handshake.nanoseconds) / 1e9
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        handshakeTimer = context.eventLoop.scheduleTask(in: timeouts.handshake) {
            let (handler, context) = loopBound.value
            handler.fail(context: context, code: .handshakeTimeout, error: .handshakeTimeout(seconds: seconds))
        }
    }

    private func goLive(context: ChannelHandlerContext) {
        live = true
        handshakeTimer?.cancel()
        handshakeTimer = nil
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        heartbeat = context.eventLoop.scheduleRepeatedTask(
            initialDelay: timeouts.pingInterval,
            delay: timeouts.pingInterval
        ) { _ in
            let (handler, context) = loopBound.value
            handler.beat(context: context)
        }
    }

    private func beat(context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        if now - lastRead >= timeouts.silence {
            let seconds = Double((now - lastRead).nanoseconds) / 1e9
            fail(context: context, code: .heartbeatTimeout, error: .peerSilent(seconds: seconds))
            return
        }
        context.writeAndFlush(self.wrapOutboundOut(.ping(now.uptimeNanoseconds)), promise: nil)
    }

    private func fail(context: ChannelHandlerContext, code: ProtocolErrorCode, error: LivenessError) {
        guard !failed else { return }
        failed = true
        stop()
        context.writeAndFlush(self.wrapOutboundOut(.error(code: code, text: "\(error)")), promise: nil)
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }

    private func stop() {
        handshakeTimer?.cancel()
        handshakeTimer = nil
        heartbeat?.cancel()
        heartbeat = nil
    }
}
