import PairingCode
/// How tictactoe's protocol 2 runs CPace (`CPace`, draft-irtf-cfrg-cpace-21, CPACE-RISTR255-SHA512) inside a TLS 1.2
/// PSK handshake, and turns its key into the TLS pre-shared key. These choices are part of the protocol: both ends
/// must make the same ones.
///
/// - Roles: the **host** (TLS server) is CPace's **initiator** A and the **joiner** (TLS client) its **responder**
///   B, always, because the joiner learns the host's share first: the host puts it in the PSK identity hint of its
///   ServerKeyExchange, the joiner answers with its own share as the PSK identity. Fixed roles also rule out the
///   draft's loopback attacks (a party never plays both roles for one sid).
/// - sid: 16 fresh random bytes from the host per connection, sent in the hint next to its share.
/// - PRS: the game code (`GameCode.password`: six ASCII digits, or the open games' fixed password).
/// - CI: `channelIdentifier` = lv_cat(b"tictactoe/2", b"host", b"joiner"): the protocol version and the
///   assignment of roles, which both ends know and which never travel.
/// - ADa = ADb = b"" (the empty string): nothing else travels with the shares.
/// - Hint and identity: `HostHint` (sid || Ya in lowercase hex, 96 characters) and `JoinerIdentity` (Yb in
///   lowercase hex, 64 characters): printable, as TLS PSK hints and identities are C strings (OpenSSL allows 128
///   characters). They are random-looking and say nothing about the code or the players.
/// - PSK: `preSharedKey(from:)` = HKDF-SHA256 (RFC 5869) with the ISK as input keying material, no salt (so
///   HashLen zero bytes) and info `pskInfo` ("tictactoe v2 tls-psk"), 32 bytes.
///
/// A wrong code raises no error here: both ends derive a PSK, the two differ, and TLS's Finished check fails.
public enum Pairing {
    /// CPace's CI for tictactoe protocol 2.
    public static let channelIdentifier: [UInt8] = CPace.lengthValueConcatenation([
        Array("tictactoe/2".utf8), Array("host".utf8), Array("joiner".utf8),
    ])

    /// ADa, the host's associated data: empty.
    public static let hostAssociatedData: [UInt8] = []

    /// ADb, the joiner's associated data: empty.
    public static let joinerAssociatedData: [UInt8] = []

    /// The length of the host's random sid.
    public static let sessionIDByteCount = 16

    /// HKDF's info when deriving the TLS PSK from the ISK.
    public static let pskInfo = "tictactoe v2 tls-psk"

    /// The length of the TLS PSK.
    public static let pskByteCount = 32

    /// The TLS pre-shared key from CPace's intermediate session key: HKDF-SHA256(IKM = ISK, salt = none,
    /// info = `pskInfo`, L = 32).
    public static func preSharedKey(from intermediateSessionKey: SecretBytes) -> SecretBytes {
        SecretBytes(count: pskByteCount) { (output: UnsafeMutableRawBufferPointer) in
            intermediateSessionKey.withUnsafeBytes { inputKey in
                HKDF.sha256(inputKeyMaterial: inputKey, info: Array(pskInfo.utf8), into: output)
            }
        }
    }
}

/// The host's side of one connection: create one per incoming connection (fresh sid and scalar), put
/// `identityHint` in the TLS PSK identity hint, and call `preSharedKey(forIdentity:)` with the identity the joiner
/// sent. One value serves one connection (finishing twice throws `alreadyFinished`).
public struct HostPairing: Sendable {
    /// The sid and the host's share.
    public let hint: HostHint
    private var initiator: CPace.Initiator

    /// A fresh sid from libsodium's CSPRNG and a fresh CPace initiator on `code`.
    public init(code: GameCode) throws(PairingError) {
        try self.init(code: code, sessionID: Sodium.randomBytes(Pairing.sessionIDByteCount))
    }

    /// With a given sid (tests).
    init(code: GameCode, sessionID: [UInt8]) throws(PairingError) {
        var password = code.password
        defer { Sodium.wipe(&password) }
        do {
            initiator = try CPace.Initiator(
                password: password, channelIdentifier: Pairing.channelIdentifier, sessionID: sessionID,
                associatedData: Pairing.hostAssociatedData)
        } catch {
            throw .keyExchange(error)
        }
        hint = HostHint(sessionID: sessionID, hostShare: initiator.share)
    }

    /// The TLS PSK identity hint (96 lowercase hex characters).
    public var identityHint: String { hint.encoded }

    /// The PSK for the joiner's `identity`: decodes its share, finishes CPace, derives the PSK. A wrong code on the
    /// joiner's side still yields a key (a different one); a malformed identity or an invalid share throws.
    public mutating func preSharedKey(forIdentity identity: String) throws(PairingError) -> SecretBytes {
        let joiner: JoinerIdentity
        do { joiner = try JoinerIdentity(decoding: identity) } catch { throw .malformedIdentity(error) }
        do {
            let isk = try initiator.finish(
                responderShare: joiner.joinerShare, responderAssociatedData: Pairing.joinerAssociatedData)
            return Pairing.preSharedKey(from: isk)
        } catch {
            throw .keyExchange(error)
        }
    }
}

/// The joiner's side: from the host's hint, its own identity (share) and the PSK, in one step.
public enum JoinerPairing {
    /// Decodes `identityHint`, runs CPace's responder on `code`, and returns the PSK identity to send and the PSK.
    public static func respond(
        code: GameCode, identityHint: String
    ) throws(PairingError) -> (identity: String, preSharedKey: SecretBytes) {
        let hint: HostHint
        do { hint = try HostHint(decoding: identityHint) } catch { throw .malformedHint(error) }
        var password = code.password
        defer { Sodium.wipe(&password) }
        do {
            var responder = try CPace.Responder(
                password: password, channelIdentifier: Pairing.channelIdentifier, sessionID: hint.sessionID,
                associatedData: Pairing.joinerAssociatedData)
            let identity = JoinerIdentity(joinerShare: responder.share).encoded
            let isk = try responder.finish(
                initiatorShare: hint.hostShare, initiatorAssociatedData: Pairing.hostAssociatedData)
            return (identity, Pairing.preSharedKey(from: isk))
        } catch {
            throw .keyExchange(error)
        }
    }
}

/// Why pairing could not produce a key.
public enum PairingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host's PSK identity hint is not what a tictactoe protocol 2 host sends.
    case malformedHint(PairingWireError)
    /// The joiner's PSK identity is not what a tictactoe protocol 2 joiner sends.
    case malformedIdentity(PairingWireError)
    /// CPace aborted (an invalid share) or was misused.
    case keyExchange(CPaceError)

    public var description: String {
        switch self {
        case .malformedHint(let error): "the host's pairing hint is malformed: \(error)"
        case .malformedIdentity(let error): "the joiner's pairing identity is malformed: \(error)"
        case .keyExchange(let error): "\(error)"
        }
    }
}
