import NIOCore
import NIOSSL

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
