import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import NIOTLS

/// TLS 1.2 with a pre-shared key from the PAKE, through NIOSSL (BoringSSL): the only NIOSSL code of the app.
///
/// Exactly TLS 1.2 (NIOSSL's PSK callbacks are TLS 1.2 only), exactly one cipher suite, no certificates. NIOSSL keeps
/// the PSK identity hint per `NIOSSLContext`, not per connection, and its PSK callbacks get no per-connection data,
/// so every connection gets its own context, made when its channel is set up (cheap without certificates: no trust
/// store is read).
enum PSKTLS {
    /// The one cipher suite (TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256, 0xCCAC): ECDHE for forward secrecy, the
    /// PSK authenticates, ChaCha20-Poly1305 encrypts. BoringSSL's name; NIOSSL stops the process (a precondition in
    /// `NIOSSLContext`) on a name BoringSSL does not know, so it lives here alone, with a test that builds a context.
    static let cipherSuite = "ECDHE-PSK-CHACHA20-POLY1305"
    /// The suite's code point.
    static let cipherSuiteValue: UInt16 = 0xCCAC
    /// How NIOSSL names the protocol version we pin.
    static let tlsVersionName = "TLSv1.2"

    /// The settings both sides share: TLS 1.2 only, the one suite, no certificates, no renegotiation.
    static func baseConfiguration(shutdownTimeout: TimeAmount) -> TLSConfiguration {
        var configuration = TLSConfiguration.makePreSharedKeyConfiguration()
        configuration.cipherSuites = cipherSuite
        configuration.minimumTLSVersion = .tlsv12
        configuration.maximumTLSVersion = .tlsv12
        configuration.certificateVerification = .none
        configuration.renegotiationSupport = .none
        configuration.shutdownTimeout = shutdownTimeout
        return configuration
    }

    /// The host's TLS handler for one connection: the exchange's hint, and its key for the joiner's identity.
    static func serverHandler(
        exchange: any PSKHostExchange, record: PSKHandshakeRecord, shutdownTimeout: TimeAmount
    ) throws -> NIOSSLServerHandler {
        let hint = try exchange.hint()
        if let problem = PSKText.problem(with: hint) {
            throw SecureChannelError.exchangeFailed("the host's hint is unusable: \(problem)")
        }
        var configuration = baseConfiguration(shutdownTimeout: shutdownTimeout)
        configuration.pskHint = hint
        configuration.pskServerProvider = { context in
            try record.run {
                if let problem = PSKText.problem(with: context.clientIdentity) {
                    throw SecureChannelError.exchangeFailed("the joiner's identity is unusable: \(problem)")
                }
                let key = try exchange.key(forIdentity: context.clientIdentity)
                if let problem = PSKText.problem(withKey: key) {
                    throw SecureChannelError.exchangeFailed("the host's \(problem)")
                }
                return PSKServerIdentityResponse(key: NIOSSLSecureBytes(key))
            }
        }
        return NIOSSLServerHandler(context: try NIOSSLContext(configuration: configuration))
    }

    /// The joiner's TLS handler for one connection attempt: the exchange's identity and key for the host's hint.
    static func clientHandler(
        exchange: any PSKJoinerExchange, record: PSKHandshakeRecord, shutdownTimeout: TimeAmount
    ) throws -> NIOSSLClientHandler {
        var configuration = baseConfiguration(shutdownTimeout: shutdownTimeout)
        configuration.pskClientProvider = { context in
            try record.run {
                guard let hint = context.hint else {
                    throw SecureChannelError.exchangeFailed("the host sent no PSK identity hint")
                }
                if let problem = PSKText.problem(with: hint) {
                    throw SecureChannelError.exchangeFailed("the host's hint is unusable: \(problem)")
                }
                let (identity, key) = try exchange.identityAndKey(forHint: hint)
                if let problem = PSKText.problem(with: identity) {
                    throw SecureChannelError.exchangeFailed("the joiner's identity is unusable: \(problem)")
                }
                if let problem = PSKText.problem(withKey: key) {
                    throw SecureChannelError.exchangeFailed("the joiner's \(problem)")
                }
                return PSKClientIdentityResponse(key: NIOSSLSecureBytes(key), identity: identity)
            }
        }
        return try NIOSSLClientHandler(context: try NIOSSLContext(configuration: configuration), serverHostname: nil)
    }

    /// The cipher suites a context built from `baseConfiguration` allows, as code points (for the tests).
    static func configuredCipherSuites() -> [UInt16] {
        baseConfiguration(shutdownTimeout: .seconds(1)).cipherSuiteValues.map(\.rawValue)
    }

    /// How NIOSSL's version reads in a `SecureSession`.
    static func name(of version: TLSVersion) -> String {
        switch version {
        case .tlsv1: return "TLSv1.0"
        case .tlsv11: return "TLSv1.1"
        case .tlsv12: return "TLSv1.2"
        case .tlsv13: return "TLSv1.3"
        }
    }
}

/// What one connection's PSK callback did: it runs inside BoringSSL, which keeps only "no key" of a thrown error,
/// so the error and whether a key was computed are kept here for `SecureChannelHandler` to explain the failure.
final class PSKHandshakeRecord: Sendable {
    private struct State {
        var keyComputed = false
        var failure: String?
    }
    private let state = NIOLockedValueBox(State())

    /// Runs the callback's body, noting a computed key or the error (which still goes to NIOSSL, failing the
    /// handshake).
    func run<Response>(_ body: () throws -> Response) throws -> Response {
        do {
            let response = try body()
            state.withLockedValue { $0.keyComputed = true }
            return response
        } catch {
            fail(error)
            throw error
        }
    }

    var keyComputed: Bool { state.withLockedValue { $0.keyComputed } }
    var failure: String? { state.withLockedValue { $0.failure } }

    /// Notes a failure (of the callback, or before the handshake began: making the exchange, or its hint).
    func fail(_ error: Error) {
        var text = "\(error)"
        if case SecureChannelError.exchangeFailed(let why) = error { text = why }
        state.withLockedValue { $0.failure = text }
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

extension ChannelPipeline.SynchronousOperations {
    /// Puts protocol 2's handlers in front of the game pipeline: the first-bytes sniffer, then TLS, then the error
    /// mapping. Must run on the channel's event loop, before `configureGamePipeline`'s own handlers.
    func addHostSecurityHandlers(_ host: SecureHost, stats: ConnectionStats, linger: TimeAmount) throws {
        let record = PSKHandshakeRecord()
        let tls: NIOSSLServerHandler?
        do {
            tls = try PSKTLS.serverHandler(exchange: try host.makeExchange(), record: record, shutdownTimeout: linger)
        } catch {
            record.fail(error)
            tls = nil
        }
        try addHandler(FirstBytesSniffer(side: .host(linger: linger)))
        if let tls { try addHandler(tls) }
        try addHandler(SecureChannelHandler(record: record, stats: stats))
    }

    func addJoinerSecurityHandlers(_ joiner: SecureJoiner, stats: ConnectionStats, linger: TimeAmount) throws {
        let record = PSKHandshakeRecord()
        let tls: NIOSSLClientHandler?
        do {
            tls = try PSKTLS.clientHandler(exchange: try joiner.makeExchange(), record: record, shutdownTimeout: linger)
        } catch {
            record.fail(error)
            tls = nil
        }
        try addHandler(FirstBytesSniffer(side: .joiner))
        if let tls { try addHandler(tls) }
        try addHandler(SecureChannelHandler(record: record, stats: stats))
    }
}
