import GameProtocol

/// Why a secure (protocol 2) connection failed before its first game frame.
public enum SecureChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Both sides ran the key exchange but hold different keys: the TLS Finished check failed (the host saw a bad
    /// record MAC, the joiner the host's `bad_record_mac` alert). With a PAKE behind the exchange: a wrong code.
    case keyMismatch
    /// A v2 host got a plaintext v1 hello; it answered with a plaintext `reject(version)` and closed.
    case plaintextJoiner
    /// A v2 joiner got a plaintext v1 answer (a v1 host's `error` frame for the TLS bytes it could not read).
    case plaintextHost
    /// Our own key exchange refused the peer's hint or identity, or produced an unusable one (the reason given).
    case exchangeFailed(String)
    /// The connection closed before the TLS handshake completed.
    case closedDuringHandshake
    /// Any other TLS handshake failure (no shared cipher suite, a peer that is not TLS, an alert), as BoringSSL says.
    case handshakeFailed(String)

    public var description: String {
        switch self {
        case .keyMismatch:
            return "the keys do not match: the peer used another key (a wrong code)"
        case .plaintextJoiner:
            return "the joiner speaks protocol 1 (unencrypted): answered that this host speaks protocol 2 (encrypted)"
        case .plaintextHost:
            return "the host speaks protocol 1 (unencrypted), this joiner protocol 2 (encrypted): ask the host to "
                + "update tictactoe, or join with --plaintext"
        case .exchangeFailed(let why):
            return "the key exchange failed: \(why)"
        case .closedDuringHandshake:
            return "the peer closed the connection during the TLS handshake"
        case .handshakeFailed(let why) where why.contains("UNKNOWN_PSK_IDENTITY"):
            return "the host refused this joiner's key exchange: it runs a tictactoe that pairs another way; update "
                + "both to the same version (TLS said \(why))"
        case .handshakeFailed(let why) where Self.notTLSMarkers.contains(where: why.contains):
            return "the other end answers, but it is not a tictactoe game: it does not speak the encrypted handshake "
                + "(TLS said \(why))"
        case .handshakeFailed(let why):
            return "the encrypted handshake failed: the other end is not a tictactoe game this version can talk to "
                + "(TLS said \(why))"
        }
    }

    /// A TLS handshake failure, from what our side's exchange did and BoringSSL's error text.
    ///
    /// A key mismatch is a MAC or decryption failure after our side computed a key: the host cannot decrypt the
    /// joiner's Finished (`DECRYPTION_FAILED_OR_BAD_RECORD_MAC`), the joiner receives the `bad_record_mac` alert
    /// (`SSLV3_ALERT_BAD_RECORD_MAC`); `decrypt_error` is accepted too. The same failure before any key was computed
    /// is not a mismatch (nothing was keyed yet).
    static func classifyHandshakeFailure(
        _ boringSSLText: String, keyComputed: Bool, exchangeFailure: String?
    ) -> SecureChannelError {
        if let exchangeFailure { return .exchangeFailed(exchangeFailure) }
        if keyComputed, macFailureMarkers.contains(where: boringSSLText.contains) { return .keyMismatch }
        if boringSSLText.contains(eofMarker) { return .closedDuringHandshake }
        return .handshakeFailed(reasons(in: boringSSLText))
    }

    private static let macFailureMarkers = [
        "DECRYPTION_FAILED_OR_BAD_RECORD_MAC", "BAD_RECORD_MAC", "DECRYPT_ERROR", "DIGEST_CHECK_FAILED",
    ]
    /// BoringSSL's reasons for bytes that are no TLS at all (an HTTP server's answer, a plaintext protocol).
    private static let notTLSMarkers = [
        "WRONG_VERSION_NUMBER", "HTTP_REQUEST", "HTTPS_PROXY_REQUEST", "UNKNOWN_PROTOCOL", "UNEXPECTED_RECORD",
        "RECORD_TOO_LARGE", "ENCRYPTED_LENGTH_TOO_LONG", "PACKET_LENGTH_TOO_LONG",
    ]
    /// NIOSSL's synthetic error for a connection that ended during the handshake.
    private static let eofMarker = "EOF during handshake"

    /// The reason names out of NIOSSL's error texts ("Error: 268435703 error:100000f7:SSL
    /// routines:OPENSSL_internal:WRONG_VERSION_NUMBER at /path:line" → "WRONG_VERSION_NUMBER").
    static func reasons(in text: String) -> String {
        let names = text.split(separator: ":").compactMap { part -> Substring? in
            let name = part.prefix { $0.isUppercase || $0.isNumber || $0 == "_" }
            return name.count >= 4 && name.contains("_") && !name.hasPrefix("OPENSSL_") ? name : nil
        }
        return names.isEmpty ? text : names.joined(separator: ", ")
    }
}

extension SecureChannelError {
    /// How the connection's state reports it (`ConnectionState.failed`); `GameConnection.run` throws the
    /// `SecureChannelError` itself, except a key mismatch, which it throws as `ConnectionError.wrongCode`.
    public var connectionError: ConnectionError {
        switch self {
        case .keyMismatch: return .wrongCode
        case .plaintextHost, .plaintextJoiner: return .rejected(reason: "version", text: description)
        case .closedDuringHandshake: return .closedDuringHandshake
        case .exchangeFailed, .handshakeFailed: return .secureHandshakeFailed(description)
        }
    }
}

/// Why a protocol 2 joiner's attempt failed, as the host sees it (`GameListener.Event.pairingFailed`).
public enum PairingFailure: Sendable, Hashable, CustomStringConvertible {
    /// The keys did not match: the joiner used another code (a wrong guess, a typo, or the open code on a private
    /// game), or an active attacker sat in between.
    case wrongCode
    /// Any other failure of the secure handshake (a v1 joiner, a malformed share, not TLS at all, a closed socket).
    case handshake(SecureChannelError)

    public init(_ error: SecureChannelError) {
        self = error == .keyMismatch ? .wrongCode : .handshake(error)
    }

    public var description: String {
        switch self {
        case .wrongCode: return "wrong code"
        case .handshake(let error): return error.description
        }
    }
}

extension SecureChannelError: ExitStatusConvertible {
    /// As the connection error it stands for.
    public var exitStatus: ExitStatus { connectionError.exitStatus }
}
