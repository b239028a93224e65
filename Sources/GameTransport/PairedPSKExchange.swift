import GamePairing
import Synchronization
import PairingCode

/// The real key exchange behind the TLS-PSK seam: CPace (GamePairing, draft-irtf-cfrg-cpace-21) on a game code.
///
/// The host's exchange is one `HostPairing` per connection: its hint is the connection's fresh sid and CPace share,
/// and the joiner's identity (its share) finishes CPace into the PSK. The joiner's exchange answers the hint with its
/// own share and the same PSK when both sides used the same code; with another code both still get a key, the two
/// differ, and TLS's Finished check fails: `SecureChannelError.keyMismatch`, which the connection reports as
/// `ConnectionError.wrongCode` and the listener as `PairingFailure.wrongCode`. Open games use `GameCode.open`.
///
/// Neither side prints, logs or describes a code or a key: `GameCode` and `SecretBytes` redact themselves, and the
/// errors thrown here (`PairingError`) describe the malformed hint or identity, never the secret. The seam hands keys
/// on as `[UInt8]` (NIOSSL copies them into its own `NIOSSLSecureBytes` at once).
public final class PairedHostExchange: PSKHostExchange {
    /// A lock, not an actor: the seam is synchronous (BoringSSL calls `key(forIdentity:)` from inside its handshake,
    /// on the connection's event loop, and needs the key before it returns), and `HostPairing` is a value that must
    /// finish once. The lock is never contended (one connection, one event loop); it only makes the one mutation
    /// safe for the compiler's Sendable checking.
    private let pairing: Mutex<HostPairing>
    private let identityHint: String

    /// A fresh sid and CPace share on `code`, for one connection.
    public init(code: GameCode) throws(PairingError) {
        let pairing = try HostPairing(code: code)
        identityHint = pairing.identityHint
        self.pairing = Mutex(pairing)
    }

    /// sid || Ya in lowercase hex (96 characters).
    public func hint() -> String { identityHint }

    /// Finishes CPace with the joiner's share (its identity) and derives the PSK. A second call throws (the pairing
    /// has finished); so does a malformed identity or an invalid share.
    public func key(forIdentity identity: String) throws -> [UInt8] {
        let psk = try pairing.withLock { (pairing: inout HostPairing) throws(PairingError) -> SecretBytes in
            try pairing.preSharedKey(forIdentity: identity)
        }
        return psk.withUnsafeBytes { Array($0) }
    }
}

/// The joiner's side: CPace's responder on `code`, for the host's hint. Stateless, so one value may serve every
/// attempt; `SecureJoiner.pairing(code:)` still makes one per attempt, as the seam asks.
public struct PairedJoinerExchange: PSKJoinerExchange {
    /// The code the joiner was given (`GameCode.open` for an open game).
    public let code: GameCode

    public init(code: GameCode) {
        self.code = code
    }

    /// The identity (Yb in lowercase hex) and the PSK; a malformed hint or an invalid host share throws.
    public func identityAndKey(forHint hint: String) throws -> (identity: String, key: [UInt8]) {
        let (identity, psk) = try JoinerPairing.respond(code: code, identityHint: hint)
        return (identity, psk.withUnsafeBytes { Array($0) })
    }
}

extension SecureHost {
    /// CPace on `code` for every connection (`GameCode.open` for an open game).
    public static func pairing(
        code: GameCode,
        onFailure: @escaping @Sendable (_ remote: String, _ error: SecureChannelError) -> Void = { _, _ in }
    ) -> SecureHost {
        pairing(currentCode: { code }, onFailure: onFailure)
    }

    /// CPace on whatever code `currentCode` gives when a connection arrives (for a host that replaces its code; a
    /// connection keeps the code it started with).
    public static func pairing(
        currentCode: @escaping @Sendable () -> GameCode,
        onFailure: @escaping @Sendable (_ remote: String, _ error: SecureChannelError) -> Void = { _, _ in }
    ) -> SecureHost {
        SecureHost(makeExchange: { try PairedHostExchange(code: currentCode()) }, onFailure: onFailure)
    }
}

extension SecureJoiner {
    /// CPace on `code` for every attempt (`GameCode.open` for an open game).
    public static func pairing(code: GameCode) -> SecureJoiner {
        SecureJoiner { PairedJoinerExchange(code: code) }
    }
}
