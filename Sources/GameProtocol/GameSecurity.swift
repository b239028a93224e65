/// How a game's connections are protected: what a host chooses, advertises (TXT `proto` and `sec`) and a game list
/// shows, and what a joiner must bring.
///
/// - `open`: protocol 2, TLS from the first byte on CPace with the public code: encrypted, anyone may join.
/// - `private`: protocol 2 on a 6-digit code the host shows its player: encrypted, only those with the code get in.
/// - `plaintext`: protocol 1, unencrypted (`--plaintext` on both ends, where the manifest's transport security policy
///   allows it: loopback always).
public enum GameSecurity: String, Sendable, Hashable, CaseIterable {
    case open
    case `private`
    case plaintext

    /// The wire protocol version a game of this kind speaks (its hello, its accept, its TXT `proto`).
    public var protocolVersion: UInt8 { GameMessage.protocolVersion(encrypted: isEncrypted) }

    /// Whether the stream is TLS.
    public var isEncrypted: Bool { self != .plaintext }
}

extension GameMessage {
    /// Protocol 1: the framing and messages in clear text on TCP.
    public static let plaintextProtocolVersion: UInt8 = 1
    /// Protocol 2: the same framing and messages inside TLS 1.2 PSK keyed by CPace (docs/PROTOCOL.md).
    public static let encryptedProtocolVersion: UInt8 = 2

    /// The version a stream speaks: 2 inside TLS, 1 in clear.
    public static func protocolVersion(encrypted: Bool) -> UInt8 {
        encrypted ? encryptedProtocolVersion : plaintextProtocolVersion
    }
}
