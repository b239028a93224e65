/// The host's half of one connection's key agreement, run inside the TLS 1.2 PSK handshake (protocol 2).
///
/// The listener makes a fresh one for every accepted connection (`SecureHost.makeExchange`). `hint()` is asked once,
/// before the handshake starts: it travels in clear in the ServerKeyExchange as the PSK identity hint (a PAKE puts
/// its share and a session id there). When the joiner's ClientKeyExchange arrives, `key(forIdentity:)` gets the
/// joiner's PSK identity (its share) and returns the pre-shared key; throwing fails the handshake
/// (`SecureChannelError.exchangeFailed`). Both calls run on the connection's event loop and must not block.
///
/// Hints and identities are 1...128 bytes of printable ASCII (`PSKText`): BoringSSL caps both at 128 bytes and
/// NIOSSL passes them as C strings. Keys are 1...256 bytes.
public protocol PSKHostExchange: Sendable {
    /// The PSK identity hint for this connection (sent in clear).
    func hint() throws -> String
    /// The pre-shared key for the identity the joiner sent (sent in clear); throws to refuse it.
    func key(forIdentity identity: String) throws -> [UInt8]
}

/// The joiner's half of one connection's key agreement inside the TLS 1.2 PSK handshake.
///
/// The connection makes a fresh one for every attempt (`SecureJoiner.makeExchange`). `identityAndKey(forHint:)` gets
/// the host's PSK identity hint and returns the identity to send (in clear) and the pre-shared key; throwing fails
/// the handshake (`SecureChannelError.exchangeFailed`). It runs on the connection's event loop and must not block.
public protocol PSKJoinerExchange: Sendable {
    func identityAndKey(forHint hint: String) throws -> (identity: String, key: [UInt8])
}

/// How a listener protects its connections.
public enum HostSecurity: Sendable {
    /// Protocol 1: frames in clear.
    case plaintext
    /// Protocol 2: TLS 1.2 ECDHE-PSK-CHACHA20-POLY1305 from the first byte; a plaintext v1 hello is answered with a
    /// plaintext `reject(version)`.
    case tlsPSK(SecureHost)
}

/// The host's side of TLS-PSK: where each connection's key exchange comes from, and who hears of failed handshakes.
public struct SecureHost: Sendable {
    /// Makes the exchange for one accepted connection (throwing closes that connection, reported as
    /// `SecureChannelError.exchangeFailed`).
    public var makeExchange: @Sendable () throws -> any PSKHostExchange
    /// Told of every connection whose secure handshake failed (with its address, as `GameListener.Event` gives it),
    /// besides the listener's `handshakeFailed` event: a `keyMismatch` is a joiner with another key (a wrong code).
    public var onFailure: @Sendable (_ remote: String, _ error: SecureChannelError) -> Void
    /// A private game's code, whose attempts the listener limits (`SecureHost.privateGame`); nil for an open game or
    /// a custom exchange (no limits).
    public var privateGame: PrivateGameCode?

    public init(
        makeExchange: @escaping @Sendable () throws -> any PSKHostExchange,
        onFailure: @escaping @Sendable (_ remote: String, _ error: SecureChannelError) -> Void = { _, _ in }
    ) {
        self.makeExchange = makeExchange
        self.onFailure = onFailure
    }
}

/// How a joiner protects its connection.
public enum JoinerSecurity: Sendable {
    /// Protocol 1: frames in clear.
    case plaintext
    /// Protocol 2: TLS 1.2 ECDHE-PSK-CHACHA20-POLY1305 from the first byte; a host answering in plaintext v1 fails
    /// the connection with `SecureChannelError.plaintextHost`.
    case tlsPSK(SecureJoiner)
}

/// The joiner's side of TLS-PSK: where each attempt's key exchange comes from.
public struct SecureJoiner: Sendable {
    /// Makes the exchange for one connection attempt (throwing fails that attempt as `exchangeFailed`).
    public var makeExchange: @Sendable () throws -> any PSKJoinerExchange

    public init(makeExchange: @escaping @Sendable () throws -> any PSKJoinerExchange) {
        self.makeExchange = makeExchange
    }
}

/// What protects an established connection: filled in when the TLS handshake completes (nil in plaintext).
public struct SecureSession: Sendable, Hashable {
    /// The negotiated protocol version, as NIOSSL reports it: "TLSv1.2".
    public var tlsVersion: String
    /// The cipher suite, by its BoringSSL name. NIOSSL does not report the negotiated suite; it is this one because
    /// both sides offer and accept it alone (`PSKTLS.cipherSuite`), which the tests check on the wire.
    public var cipherSuite: String
}

/// The rules for PSK hints and identities: 1...128 bytes of printable ASCII (0x21...0x7E).
public enum PSKText {
    /// BoringSSL's PSK_MAX_IDENTITY_LEN, which bounds hints too.
    public static let maximumLength = 128
    /// BoringSSL's PSK_MAX_PSK_LEN.
    public static let maximumKeyLength = 256

    /// Why `text` cannot be a hint or identity, or nil if it can.
    public static func problem(with text: String) -> String? {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return "it is empty" }
        if bytes.count > maximumLength { return "it has \(bytes.count) bytes, more than \(maximumLength)" }
        if let bad = bytes.first(where: { !(0x21...0x7E).contains($0) }) {
            return "it holds the byte 0x\(String(bad, radix: 16)), not printable ASCII"
        }
        return nil
    }

    /// Why `key` cannot be a pre-shared key, or nil if it can.
    public static func problem(withKey key: [UInt8]) -> String? {
        if key.isEmpty { return "the key is empty" }
        if key.count > maximumKeyLength { return "the key has \(key.count) bytes, more than \(maximumKeyLength)" }
        return nil
    }
}
