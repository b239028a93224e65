/// What the host puts in the TLS PSK identity hint: the session's sid and the host's CPace share, as lowercase hex
/// (sid || Ya: 16 + 32 bytes, 96 characters). TLS hints are C strings, so the encoding is printable ASCII without
/// NUL; it stays under OpenSSL's 128-character limit.
public struct HostHint: Sendable, Hashable {
    /// The number of characters of an encoded hint.
    public static let encodedLength = 2 * (Pairing.sessionIDByteCount + CPace.shareByteCount)

    /// The sid (16 bytes).
    public let sessionID: [UInt8]
    /// The host's share Ya.
    public let hostShare: CPace.Share

    /// From a sid of `Pairing.sessionIDByteCount` bytes and the host's share.
    public init(sessionID: [UInt8], hostShare: CPace.Share) {
        precondition(sessionID.count == Pairing.sessionIDByteCount, "a pairing sid is 16 bytes")
        self.sessionID = sessionID
        self.hostShare = hostShare
    }

    /// Parses a hint: exactly 96 lowercase hex digits whose last 64 encode a valid group element (not the
    /// identity). Anything else throws.
    public init(decoding text: String) throws(PairingWireError) {
        let bytes = try Hex.decode(text, byteCount: Pairing.sessionIDByteCount + CPace.shareByteCount)
        let share = try PairingWireError.validShare(bytes[Pairing.sessionIDByteCount...])
        self.init(sessionID: Array(bytes[..<Pairing.sessionIDByteCount]), hostShare: share)
    }

    /// The hint's text: lowercase hex of sid || Ya.
    public var encoded: String { Hex.encode(sessionID + hostShare.bytes) }
}

/// What the joiner sends as its TLS PSK identity: its CPace share Yb as lowercase hex (64 characters).
public struct JoinerIdentity: Sendable, Hashable {
    /// The number of characters of an encoded identity.
    public static let encodedLength = 2 * CPace.shareByteCount

    /// The joiner's share Yb.
    public let joinerShare: CPace.Share

    public init(joinerShare: CPace.Share) {
        self.joinerShare = joinerShare
    }

    /// Parses an identity: exactly 64 lowercase hex digits encoding a valid group element (not the identity).
    /// Anything else throws.
    public init(decoding text: String) throws(PairingWireError) {
        let bytes = try Hex.decode(text, byteCount: CPace.shareByteCount)
        joinerShare = try PairingWireError.validShare(bytes[...])
    }

    /// The identity's text: lowercase hex of Yb.
    public var encoded: String { Hex.encode(joinerShare.bytes) }
}

/// Why a hint or an identity was refused.
public enum PairingWireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not the expected number of characters.
    case wrongLength(expected: Int, actual: Int)
    /// A character other than 0-9 and a-f.
    case notLowercaseHex
    /// The share is not the canonical encoding of a group element, or it is the identity.
    case invalidShare

    public var description: String {
        switch self {
        case .wrongLength(let expected, let actual): "expected \(expected) characters, got \(actual)"
        case .notLowercaseHex: "expected lowercase hexadecimal digits only"
        case .invalidShare: "the share is not a valid ristretto255 element"
        }
    }

    static func validShare(_ bytes: ArraySlice<UInt8>) throws(PairingWireError) -> CPace.Share {
        guard let share = try? CPace.Share(bytes: bytes), share.isValidGroupElement else { throw .invalidShare }
        return share
    }
}

/// Lowercase hexadecimal, strictly: no prefix, no separators, no uppercase.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func decode(_ text: String, byteCount: Int) throws(PairingWireError) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var values: [UInt8] = []
        values.reserveCapacity(utf8.count)
        for character in utf8 {
            guard let value = value(of: character) else { throw .notLowercaseHex }
            values.append(value)
        }
        guard values.count == byteCount * 2 else { throw .wrongLength(expected: byteCount * 2, actual: values.count) }
        return stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
