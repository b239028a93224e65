import GameProtocol

/// The Bonjour service type of tictactoe games and its TXT record: `proto` (the wire protocol version) and, for an
/// encrypted game, `sec` (its `GameSecurity`).
///
/// | Game | TXT |
/// |---|---|
/// | open (encrypted, anyone may join) | `proto=2 sec=open` |
/// | private (encrypted, needs the host's 6-digit code) | `proto=2 sec=private` |
/// | plaintext (`--plaintext`) | `proto=1` |
public enum GameService {
    /// `_tictactoe._tcp`: the service type hosts register and browsers look for.
    public static let type = "_tictactoe._tcp"
    /// Multicast DNS only.
    public static let domain = "local."
    /// The TXT key of the protocol version (`proto=2`).
    public static let versionKey = "proto"
    /// The TXT key of an encrypted game's security (`sec=open`, `sec=private`); a protocol 1 game has none.
    public static let securityKey = "sec"
    /// The TXT key saying a match is running (`state=playing`; absent or `state=free`: waiting for a joiner).
    public static let stateKey = "state"
    /// The TXT key of how many more spectators the host takes now (`watch=2`; absent: none).
    public static let watchKey = "watch"

    /// `name` as advertised: in NFC and cut to the 63 bytes of UTF-8 a DNS label (a service instance name) may have,
    /// at a character boundary (`PlayerName.fitted`, the one rule for names).
    public static func instanceName(_ name: String) -> String {
        PlayerName.fitted(name)
    }

    /// The full DNS name of the instance `name` of `type` (`Zoë's game._tictactoe._tcp.local.`), as a record query
    /// takes it: in the label, a dot and a backslash are escaped with a backslash, a control character as `\DDD`.
    public static func fullName(instance name: String, type: String = type) -> String {
        var label: [UInt8] = []
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "\\"): label += [UInt8(ascii: "\\"), byte]
            case 0..<0x20, 0x7f: label += [UInt8(ascii: "\\")] + Array("00\(byte)".suffix(3).utf8)
            default: label.append(byte)
            }
        }
        return String(decoding: label, as: UTF8.self) + "." + type + "." + domain
    }

    /// The TXT record a host of a `security` game advertises: `proto=2 sec=open`, `proto=2 sec=private`, or
    /// `proto=1` for a plaintext one.
    public static func txtRecord(security: GameSecurity, activity: GameActivity = GameActivity()) -> TXTRecord {
        var pairs = [(versionKey, String(security.protocolVersion))]
        if security.isEncrypted { pairs.append((securityKey, security.rawValue)) }
        if activity.playing { pairs.append((stateKey, "playing")) }
        if activity.spectatorRoom > 0 { pairs.append((watchKey, String(activity.spectatorRoom))) }
        return TXTRecord(pairs.map { TXTRecord.Entry(key: $0.0, value: Array($0.1.utf8)) })
    }

    /// What a TXT record says the host is doing; a value this version cannot read counts as free, with no room.
    public static func activity(of txt: TXTRecord) -> GameActivity {
        GameActivity(playing: txt[stateKey] == "playing",
                      spectatorRoom: txt[watchKey].flatMap { Int($0) }.map { max(0, min($0, 999)) } ?? 0)
    }

    /// Whether a service with this TXT record is a game this version can join, and how it is protected.
    ///
    /// `proto=2` with `sec=open` or `sec=private`: compatible, with that security. `proto=2` without `sec`, or with
    /// one this version does not know (a newer variant): incompatible; assuming open would be unsafe. `proto=1`:
    /// compatible as `.plaintext` (joinable with `--plaintext`; the join decides). Anything else: incompatible.
    public static func compatibility(of txt: TXTRecord) -> Compatibility {
        guard let entry = txt.entry(forKey: versionKey) else {
            return .incompatible(reason: "not a tictactoe game of ours (no protocol version)")
        }
        guard let bytes = entry.value, let text = String(validating: bytes, as: UTF8.self), let version = Int(text)
        else {
            return .incompatible(reason: "unreadable protocol version")
        }
        switch version {
        case Int(GameMessage.plaintextProtocolVersion):
            return .compatible(.plaintext)
        case Int(GameMessage.encryptedProtocolVersion):
            guard let security = txt[securityKey], !security.isEmpty else {
                return .incompatible(reason: "no security mode advertised")
            }
            switch GameSecurity(rawValue: security) {
            case .open?: return .compatible(.open)
            case .private?: return .compatible(.private)
            case .plaintext?, nil:  // plaintext is protocol 1's, never protocol 2's
                return .incompatible(reason: "uses security '\(security)' this version does not know; update tictactoe")
            }
        default:
            return .incompatible(reason: "speaks protocol version \(version), we speak "
                + "\(GameMessage.plaintextProtocolVersion) and \(GameMessage.encryptedProtocolVersion)")
        }
    }
}

