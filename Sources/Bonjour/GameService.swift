import GameProtocol

/// The Bonjour service type of tictactoe games and the TXT key carrying the wire protocol version.
public enum GameService {
    /// `_tictactoe._tcp`: the service type hosts register and browsers look for.
    public static let type = "_tictactoe._tcp"
    /// Multicast DNS only.
    public static let domain = "local."
    /// The TXT key of the protocol version (`proto=1`).
    public static let versionKey = "proto"
    /// Our wire protocol version (`GameMessage.protocolVersion`).
    public static let protocolVersion = Int(GameMessage.encryptedProtocolVersion)

    /// `name` cut to the 63 bytes of UTF-8 a DNS label (a service instance name) may have, at a character boundary.
    public static func instanceName(_ name: String) -> String {
        var result = ""
        var bytes = 0
        for character in name {
            let size = String(character).utf8.count
            if bytes + size > 63 { break }
            result.append(character)
            bytes += size
        }
        return result
    }

    /// The TXT record a host advertises.
    public static func txtRecord(version: Int = protocolVersion) -> TXTRecord {
        TXTRecord([versionKey: String(version)])
    }

    /// Whether a service with this TXT record is a game we can join.
    public static func compatibility(of txt: TXTRecord, ourVersion: Int = protocolVersion) -> Compatibility {
        guard let entry = txt.entry(forKey: versionKey) else {
            return .incompatible(reason: "not a tictactoe game of ours (no protocol version)")
        }
        guard let bytes = entry.value, let text = String(validating: bytes, as: UTF8.self), let version = Int(text)
        else {
            return .incompatible(reason: "unreadable protocol version")
        }
        guard version == ourVersion else {
            return .incompatible(reason: "speaks protocol version \(version), we speak \(ourVersion)")
        }
        return .compatible
    }
}
