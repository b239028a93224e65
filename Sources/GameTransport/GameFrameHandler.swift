import GameProtocol
import GameWire
import NIOCore
import Synchronization

/// Round-trip times measured with ping/pong, what protects the connection and whom it is with, readable from any
/// thread.
public final class ConnectionStats: Sendable {
    private let box = Mutex<(last: Duration?, count: Int)>((nil, 0))
    private let secure = Mutex<SecureSession?>(nil)
    /// The peer's address as the connection was accepted (a host's side; nil: not known then). SwiftNIO's
    /// `channel.remoteAddress` is nil once the channel is closed, and a joiner with a wrong code can be closed on the
    /// event loop before the task that serves it first reads it: a host then reported the attempt as from "?".
    public let remoteAddress: SocketAddress?

    public init(remoteAddress: SocketAddress? = nil) {
        self.remoteAddress = remoteAddress
    }

    /// The TLS version and cipher suite once a protocol-2 handshake has completed; nil in plaintext.
    public var secureSession: SecureSession? { secure.withLock { $0 } }

    func recordSecureSession(_ session: SecureSession) {
        secure.withLock { $0 = session }
    }

    /// The last measured round trip, if any.
    public var lastRoundTrip: Duration? { box.withLock { $0.last } }
    /// How many pongs have come back.
    public var pongCount: Int { box.withLock { $0.count } }

    func record(_ roundTrip: Duration) {
        box.withLock { $0 = (roundTrip, $0.count + 1) }
    }
}

/// Why the liveness handler gave up on a peer.
public enum LivenessError: Error, Sendable, Hashable, CustomStringConvertible {
    case handshakeTimeout(Duration)
    case peerSilent(Duration)

    public var description: String {
        switch self {
        case .handshakeTimeout(let limit):
            return "no handshake from the peer within \(formatSeconds(limit))"
        case .peerSilent(let silence):
            return "nothing heard from the peer for \(formatSeconds(silence))"
        }
    }
}

/// What a diverted link delivers, in order, on its event loop: the peer's frames, then one end.
public enum PeerEvent {
    case message(GameMessage)
    /// The peer closed the connection (or its output), or the connection failed: `error` says how (nil: a clean
    /// close). Nothing follows.
    case ended(Error?)
}

/// A game connection's one handler above the transport (and TLS): framing, protocol errors, liveness and delivery,
/// in that order, for every frame, with no other handler in between.
///
/// - **Framing**: inbound bytes become `GameMessage`s through `GameMessageDecoder` (tested with NIO's decoder
///   verifier); each outbound `GameMessage` becomes one frame. The bytes read are decoded where they lie, and only
///   a frame cut across two reads is copied, into a buffer of our own: holding on to the TLS handler's buffer
///   (as NIO's single-step processor does) makes it copy all 32 KB of it on its next read.
/// - **Protocol errors**: bytes that are not a valid frame (oversized, empty, truncated, unknown) get the peer an
///   `error` frame and a lingering close: our output is shut, the peer's remaining bytes are discarded until it
///   closes (NIO closes the channel at its end of stream) or `linger` passes, and only then does the application see
///   the error. Closing while the peer's bytes sit unread would make the kernel send a reset that can destroy the
///   error frame before the peer reads it.
/// - **Liveness**: a handshake deadline for the first frame, then a heartbeat: pings every `pingInterval`, answers
///   pings, measures round trips from pongs, and fails the connection when the peer has been silent for `silence`.
///   Ping and pong never reach the application.
/// - **Delivery**: frames go on to NIOAsyncChannel's inbound stream (the handshake reads them there) until a match
///   diverts them (`divert(to:)`); from then on they, and the connection's end, go straight to the match's callback
///   on the event loop as they are read: no async stream, no task switch per frame. This handler counts what it
///   passed on; the link counts what it read, so the match knows how many frames to take from the stream first
///   (`PeerLink.divert`).
///
/// One handler rather than a codec pair and three more: five handlers each way would cost each frame a boxed
/// `NIOAny` cast at each, the generic `ByteToMessageHandler` looking up its decoder's metadata at run time, and a
/// buffer allocated per outbound frame by `MessageToByteHandler`.
final class GameFrameHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = GameMessage
    typealias OutboundIn = GameMessage
    typealias OutboundOut = ByteBuffer

    private let timeouts: ConnectionTimeouts
    private let stats: ConnectionStats
    private var decoder: GameMessageDecoder
    /// The start of a frame whose rest has not arrived yet, in a buffer of our own.
    private var partialFrame: ByteBuffer?

    // Framing: a read that arrives while frames are being delivered (a handler below reading again from inside our
    // own write) waits here, so frames are delivered one at a time, in order.
    private var delivering = false
    private var queuedReads: [ByteBuffer] = []

    // Protocol errors.
    /// The peer's protocol error, once it broke the protocol: the rest of its bytes are discarded, the application
    /// hears of it when the connection is closed.
    private var pendingError: Error?
    private var hardClose: Scheduled<Void>?

    // Liveness.
    private var handshakeTimer: Scheduled<Void>?
    private var heartbeat: RepeatedTask?
    private var lastRead = NIODeadline.now()
    private var live = false
    private var failed = false

    /// This handler's place in the pipeline while it is in one: a match on the event loop writes its frames here
    /// (`LoopFrameWriter`), below NIOAsyncChannel's handlers.
    private var context: ChannelHandlerContext?

    // Delivery.
    /// Frames passed on to NIOAsyncChannel while not diverted.
    private(set) var passedOn = 0
    /// How the inbound side ended while not diverted (nil while open); NIOAsyncChannel's stream has it after its frames.
    private var endedBeforeDiversion: PeerEvent?
    private var sink: ((PeerEvent) -> Void)?
    private var ended = false

    init(timeouts: ConnectionTimeouts, stats: ConnectionStats, maximumFrameLength: Int = GameFrame.defaultMaximumLength) {
        self.timeouts = timeouts
        self.stats = stats
        self.decoder = GameMessageDecoder(maximumFrameLength: maximumFrameLength)
    }

    /// From now on, frames and the end go to `sink` (on the event loop), and no longer to NIOAsyncChannel. Returns how
    /// many frames were passed on before, and whether the stream already ended after them.
    func divert(to sink: @escaping (PeerEvent) -> Void) -> (passedOn: Int, endedAlready: Bool) {
        self.sink = sink
        // The stream says how it ended, after its frames: the link reads it there.
        if endedBeforeDiversion != nil { ended = true }
        return (passedOn, endedBeforeDiversion != nil)
    }

    // MARK: Lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { armHandshakeTimer(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        armHandshakeTimer(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        // Nothing reaches a removed handler: the sink goes, since it usually leads back to whoever holds this handler
        // (a match's driver writes through it: `LoopFrameWriter`), and the two would keep each other alive.
        sink = nil
        stopTimers()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The bytes left over at the end: a frame cut short is a protocol error, told to the application (there is
        // no connection left to send the peer an `error` frame on). Not after we failed the connection ourselves:
        // the application has heard why already.
        if pendingError == nil, !failed {
            do {
                try decodeLast(context: context)
            } catch let error as GameProtocolError {
                pendingError = error
            } catch {
                errorCaught(context: context, error: error)
            }
        }
        hardClose?.cancel()
        stopTimers()
        if let error = pendingError {
            end(.ended(error))
            context.fireErrorCaught(error)
        }
        end(.ended(nil))
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent, pendingError == nil {
            do {
                try decodeLast(context: context)
            } catch {
                errorCaught(context: context, error: error)
            }
            // A protocol error found there is told when the connection closes, like any other.
            if pendingError == nil { end(.ended(nil)) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard pendingError == nil else { return }  // the connection is already being closed for the peer's error
        if let error = error as? GameProtocolError {
            protocolError(error, context: context)
            return
        }
        end(.ended(error))
        context.fireErrorCaught(error)
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard pendingError == nil else { return }  // draining
        let bytes = unwrapInboundIn(data)
        guard !delivering else {
            queuedReads.append(bytes)
            return
        }
        delivering = true
        defer { delivering = false }
        var next: ByteBuffer? = bytes
        while let chunk = next {
            do {
                try decode(chunk, context: context)
            } catch {
                queuedReads = []
                errorCaught(context: context, error: error)
                return
            }
            next = queuedReads.isEmpty ? nil : queuedReads.removeFirst()
        }
    }

    /// The end of a batch of reads goes on to NIOAsyncChannel, which delivers what it buffered then, only while the
    /// frames go there: once diverted it is given none, so that its generic (unspecialised) handler costs a match
    /// nothing. Frames it was given before are in its stream by the time a match diverts them (`divert` runs in a
    /// task on the event loop, after the batch that brought them).
    func channelReadComplete(context: ChannelHandlerContext) {
        guard sink == nil else { return }
        context.fireChannelReadComplete()
    }

    /// Delivers every whole frame in `bytes` (after a frame's start left by the last read) and keeps a frame cut short.
    private func decode(_ bytes: ByteBuffer, context: ChannelHandlerContext) throws {
        var buffer = bytes
        if var partial = partialFrame {
            partialFrame = nil
            partial.writeImmutableBuffer(bytes)
            buffer = partial
        }
        while let message = try decoder.decode(buffer: &buffer) {
            deliver(message, context: context)
        }
        if buffer.readableBytes > 0 {
            var own = context.channel.allocator.buffer(capacity: buffer.readableBytes)
            own.writeBuffer(&buffer)
            partialFrame = own
        }
    }

    /// At the end of the stream: what is left must not be the start of a frame.
    private func decodeLast(context: ChannelHandlerContext) throws {
        var buffer = partialFrame ?? ByteBuffer()
        partialFrame = nil
        while let message = try decoder.decodeLast(buffer: &buffer, seenEOF: true) {
            deliver(message, context: context)
        }
    }

    /// One decoded frame: liveness first (ping and pong stop here), then the application.
    private func deliver(_ message: GameMessage, context: ChannelHandlerContext) {
        guard pendingError == nil else { return }
        lastRead = .now()
        switch message {
        case .ping(let value):
            writeFrame(.pong(value), context: context)
            context.flush()
        case .pong(let value):
            let now = NIODeadline.now().uptimeNanoseconds
            if value <= now { stats.record(.nanoseconds(Int64(now - value))) }
        default:
            if !live { goLive(context: context) }
            guard let sink else {
                passedOn += 1
                context.fireChannelRead(wrapInboundOut(message))
                return
            }
            guard !ended else { return }
            sink(.message(message))
        }
    }

    private func end(_ event: PeerEvent) {
        guard !ended else { return }
        if let sink {
            ended = true
            sink(event)
        } else if endedBeforeDiversion == nil {
            endedBeforeDiversion = event
        }
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard pendingError == nil else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        writeFrame(unwrapOutboundIn(data), context: context, promise: promise)
    }

    /// A frame from code on the event loop (`LoopFrameWriter`), not yet flushed; dropped once the connection is
    /// closed or closing for the peer's protocol error, like a write through the pipeline.
    fileprivate func writeFromLoop(_ message: GameMessage) {
        guard let context, pendingError == nil else { return }
        writeFrame(message, context: context)
    }

    fileprivate func flushFromLoop() {
        context?.flush()
    }

    private func writeFrame(_ message: GameMessage, context: ChannelHandlerContext, promise: EventLoopPromise<Void>? = nil) {
        var buffer = context.channel.allocator.buffer(capacity: 32)
        buffer.writeGameMessage(message)
        context.write(wrapOutboundOut(buffer), promise: promise)
    }

    // MARK: Protocol errors

    /// The peer broke the protocol: it gets an `error` frame, then our output shuts once that is written; its bytes
    /// are discarded until it closes or `linger` passes, and the application hears of it when the connection closes.
    private func protocolError(_ error: GameProtocolError, context: ChannelHandlerContext) {
        guard pendingError == nil else { return }
        pendingError = error
        var buffer = context.channel.allocator.buffer(capacity: 64)
        buffer.writeGameMessage(.error(code: error.errorCode, text: "\(error)"))
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in
            bound.value.close(mode: .output, promise: nil)
        }
        let channel = context.channel
        hardClose = context.eventLoop.scheduleTask(in: TimeAmount(timeouts.linger)) { channel.close(promise: nil) }
    }

    // MARK: Liveness

    private func armHandshakeTimer(context: ChannelHandlerContext) {
        guard handshakeTimer == nil, !live else { return }
        let limit = timeouts.handshake
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        handshakeTimer = context.eventLoop.scheduleTask(in: TimeAmount(timeouts.handshake)) {
            let (handler, context) = loopBound.value
            handler.fail(context: context, code: .handshakeTimeout, error: .handshakeTimeout(limit))
        }
    }

    private func goLive(context: ChannelHandlerContext) {
        live = true
        handshakeTimer?.cancel()
        handshakeTimer = nil
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        heartbeat = context.eventLoop.scheduleRepeatedTask(
            initialDelay: TimeAmount(timeouts.pingInterval),
            delay: TimeAmount(timeouts.pingInterval)
        ) { _ in
            let (handler, context) = loopBound.value
            handler.beat(context: context)
        }
    }

    private func beat(context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        if now - lastRead >= TimeAmount(timeouts.silence) {
            let silence = Duration.nanoseconds((now - lastRead).nanoseconds)
            fail(context: context, code: .heartbeatTimeout, error: .peerSilent(silence))
            return
        }
        guard pendingError == nil else { return }
        writeFrame(.ping(now.uptimeNanoseconds), context: context)
        context.flush()
    }

    /// The peer missed the handshake deadline or went silent: an `error` frame, the application told, the
    /// connection closed. While a protocol error is being handled the peer gets no second frame, and the application
    /// hears of the first error only.
    private func fail(context: ChannelHandlerContext, code: ProtocolErrorCode, error: LivenessError) {
        guard !failed else { return }
        failed = true
        stopTimers()
        if pendingError == nil {
            writeFrame(.error(code: code, text: "\(error)"), context: context)
            context.flush()
            end(.ended(error))
            context.fireErrorCaught(error)
        }
        context.close(promise: nil)
    }

    private func stopTimers() {
        handshakeTimer?.cancel()
        handshakeTimer = nil
        heartbeat?.cancel()
        heartbeat = nil
    }
}

/// Writes a connection's frames from its event loop straight into the frame handler: no `NIOAny` box for the
/// message, no pass through the handlers above it (NIOAsyncChannel's), as a match writes a frame for every move.
/// Only on the connection's event loop (`PeerWriter.loopWriter()` makes one there). A connection that closed before
/// has no frame handler any more: its frames are dropped, as `PeerWriter.write` drops them (the reading side says
/// why the match ended).
public struct LoopFrameWriter {
    fileprivate let handler: GameFrameHandler?

    /// Puts one frame into the pipeline without flushing it (see `PeerWriter.write`).
    public func write(_ message: GameMessage) {
        handler?.writeFromLoop(message)
    }

    /// Sends what `write` queued.
    public func flush() {
        handler?.flushFromLoop()
    }
}

extension PeerWriter {
    /// The writer for code that runs on the connection's event loop (a match). Must be called there.
    public func loopWriter() -> LoopFrameWriter {
        channel.eventLoop.preconditionInEventLoop()
        return LoopFrameWriter(handler: try? channel.pipeline.syncOperations.handler(type: GameFrameHandler.self))
    }
}
