import NIOCore
import NIOSSL
import NIOTLS
import Synchronization

/// What one connection's PSK callback did: it runs inside BoringSSL, which keeps only "no key" of a thrown error,
/// so the error and whether a key was computed are kept here for `SecureChannelHandler` to explain the failure.
final class PSKHandshakeRecord: Sendable {
    private struct State {
        var keyComputed = false
        var failure: String?
    }
    private let state = Mutex(State())

    /// Runs the callback's body, noting a computed key or the error (which still goes to NIOSSL, failing the
    /// handshake).
    func run<Response>(_ body: () throws -> Response) throws -> Response {
        do {
            let response = try body()
            state.withLock { $0.keyComputed = true }
            return response
        } catch {
            fail(error)
            throw error
        }
    }

    var keyComputed: Bool { state.withLock { $0.keyComputed } }
    var failure: String? { state.withLock { $0.failure } }

    /// Notes a failure (of the callback, or before the handshake began: making the exchange, or its hint).
    func fail(_ error: Error) {
        var text = "\(error)"
        if case SecureChannelError.exchangeFailed(let why) = error { text = why }
        state.withLock { $0.failure = text }
    }
}

/// Behind the TLS handler: records the secure session when the handshake completes and turns NIOSSL's errors into
/// `SecureChannelError`s (only the first failure goes on; a ragged EOF after the handshake counts as an EOF, since
/// game frames carry their own lengths and a cut frame is caught by the decoder).
final class SecureChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let record: PSKHandshakeRecord
    private let stats: ConnectionStats
    private var handshakeDone = false
    private var failed = false

    init(record: PSKHandshakeRecord, stats: ConnectionStats) {
        self.record = record
        self.stats = stats
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The exchange could not even start (making it, or its hint, failed): fail the connection at once.
        if let failure = record.failure, context.channel.isActive { fail(context: context, because: failure) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        if let failure = record.failure, !handshakeDone { fail(context: context, because: failure) }
    }

    private func fail(context: ChannelHandlerContext, because failure: String) {
        guard !failed else { return }
        failed = true
        context.fireErrorCaught(SecureChannelError.exchangeFailed(failure))
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            handshakeDone = true
            let version = (try? context.pipeline.syncOperations.nioSSL_tlsVersion()) ?? nil
            stats.recordSecureSession(
                SecureSession(
                    tlsVersion: version.map(PSKTLS.name(of:)) ?? "unknown",
                    cipherSuite: PSKTLS.cipherSuite))
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        switch error {
        case let error as SecureChannelError:
            guard !failed else { return }
            failed = true
            context.fireErrorCaught(error)
        case NIOSSLError.handshakeFailed(let boringSSLError):
            guard !failed else { return }
            failed = true
            context.fireErrorCaught(
                SecureChannelError.classifyHandshakeFailure(
                    "\(boringSSLError)", keyComputed: record.keyComputed, exchangeFailure: record.failure))
        case NIOSSLError.uncleanShutdown where handshakeDone:
            return  // the peer closed TCP without close_notify: an EOF, as in plaintext
        default:
            if failed, !handshakeDone { return }  // the aftermath of a failed handshake
            context.fireErrorCaught(error)
        }
    }
}
