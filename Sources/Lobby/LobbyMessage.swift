import GameProtocol
import TextSupport

/// The LAN lobby's messages (docs/LOBBY.md): small, unauthenticated UDP datagrams on the lobby's multicast group (and
/// unicast replies), big-endian, at most `maximumSize` bytes:
///
///     magic "TTTL" (4) · version 1 (1) · kind (1) · sender id (8) · sequence (4) · name length (1)
///     · name (UTF-8, NFC, 1-63 bytes)
///     then by kind:
///       1 announce   hosting (1: 0 no, 1 an open game, 2 a private game) · game port (2; 0 when not hosting)
///                    · game protocol version (1)
///       2 greeting   text length (1) · text (UTF-8, 1-140 bytes, printable)
///       3 challenge  target id (8) · game port (2) · address length (1) · address (an IP literal, or none: the
///                    datagram's source address)
///       4 answer     target id (8) · accepted (1: 0 or 1)
///       5 leave      nothing
///
/// The sequence number is new for each message a member sends (the same message sent on IPv4 and IPv6 carries the
/// same one, so a receiver that hears both keeps one). Everything is checked on decoding: lengths, the kind, names and texts (no control or bidi characters: they could
/// act on a terminal), no trailing bytes. A message of another version is `LobbyDecodingError.otherVersion` (ignored,
/// so later versions can add kinds and fields).
public struct LobbyMessage: Sendable, Hashable {
    public static let magic: [UInt8] = Array("TTTL".utf8)
    public static let version: UInt8 = 1
    /// The largest datagram the lobby sends or accepts (the group's maximum message size).
    public static let maximumSize = 512
    /// The longest greeting, in bytes of UTF-8.
    public static let maximumGreetingBytes = 140

    /// A random id a lobby member picks when it joins (names can repeat; ids tell members apart).
    public struct MemberID: Sendable, Hashable, CustomStringConvertible {
        public let value: UInt64
        public init(_ value: UInt64) { self.value = value }
        public static func random() -> MemberID { MemberID(UInt64.random(in: 1...UInt64.max)) }
        /// 16 hex digits.
        public var description: String {
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
    }

    public enum Hosting: UInt8, Sendable, Hashable {
        case none = 0
        case open = 1
        case `private` = 2
    }

    public enum Body: Sendable, Hashable {
        case announce(hosting: Hosting, port: UInt16, protocolVersion: UInt8)
        case greeting(String)
        /// "Play me": `target` may join a game at `address` (nil: the sender's source address) and `port`.
        case challenge(target: MemberID, port: UInt16, address: String?)
        case answer(target: MemberID, accepted: Bool)
        case leave

        var kind: UInt8 {
            switch self {
            case .announce: return 1
            case .greeting: return 2
            case .challenge: return 3
            case .answer: return 4
            case .leave: return 5
            }
        }
    }

    public var sender: MemberID
    public var sequence: UInt32
    public var name: String
    public var body: Body

    /// Why `text` cannot be a greeting (too long, empty, a control or bidi character), or nil: what `encoded()`
    /// would refuse, said before anything is sent.
    public static func greetingProblem(_ text: String) -> String? {
        do {
            _ = try LobbyMessage(sender: MemberID(1), name: "x", body: .greeting(text)).encoded()
            return nil
        } catch {
            return "\(error)"
        }
    }

    public init(sender: MemberID, sequence: UInt32 = 0, name: String, body: Body) {
        self.sender = sender
        self.sequence = sequence
        self.name = name
        self.body = body
    }

    /// The datagram. Throws `LobbyEncodingError` for a name or a greeting that breaks the rules.
    public func encoded() throws(LobbyEncodingError) -> [UInt8] {
        var bytes = Self.magic
        bytes.append(Self.version)
        bytes.append(body.kind)
        bytes.append(contentsOf: sender.value.bigEndianBytes)
        bytes.append(contentsOf: sequence.bigEndianBytes)
        let name = PlayerName(self.name).text
        if let problem = PlayerName.problem(with: name) { throw .badName(problem) }
        bytes.append(UInt8(name.utf8.count))
        bytes.append(contentsOf: name.utf8)
        switch body {
        case .announce(let hosting, let port, let version):
            bytes.append(hosting.rawValue)
            bytes.append(contentsOf: port.bigEndianBytes)
            bytes.append(version)
        case .greeting(let text):
            let count = text.utf8.count
            guard count > 0, count <= Self.maximumGreetingBytes else { throw .badGreeting("\(count) bytes (1-\(Self.maximumGreetingBytes))") }
            guard Self.isPrintable(text) else { throw .badGreeting("a control or bidi character") }
            bytes.append(UInt8(count))
            bytes.append(contentsOf: text.utf8)
        case .challenge(let target, let port, let address):
            bytes.append(contentsOf: target.value.bigEndianBytes)
            bytes.append(contentsOf: port.bigEndianBytes)
            let address = address ?? ""
            guard address.utf8.count <= 45 else { throw .badAddress(address) }
            bytes.append(UInt8(address.utf8.count))
            bytes.append(contentsOf: address.utf8)
        case .answer(let target, let accepted):
            bytes.append(contentsOf: target.value.bigEndianBytes)
            bytes.append(accepted ? 1 : 0)
        case .leave:
            break
        }
        return bytes
    }

    /// Reads one datagram; throws `LobbyDecodingError` saying what is wrong.
    public init(decoding bytes: [UInt8]) throws(LobbyDecodingError) {
        guard bytes.count <= Self.maximumSize else { throw .tooLong(bytes.count) }
        var reader = ByteReader(bytes)
        guard let magic = reader.read(4), magic == Self.magic else { throw .notALobbyMessage }
        guard let version = reader.byte() else { throw .truncated("version") }
        guard version == Self.version else { throw .otherVersion(version) }
        guard let kind = reader.byte() else { throw .truncated("kind") }
        guard let sender = reader.uint64() else { throw .truncated("sender id") }
        guard let sequence = reader.uint32() else { throw .truncated("sequence") }
        guard let nameLength = reader.byte(), let nameBytes = reader.read(Int(nameLength)) else {
            throw .truncated("name")
        }
        guard (1...PlayerName.maximumBytes).contains(Int(nameLength)) else { throw .badText("name", "\(nameLength) bytes") }
        guard let name = String(validating: nameBytes, as: UTF8.self) else { throw .badText("name", "not UTF-8") }
        if let problem = PlayerName.problem(with: name) { throw .badText("name", problem) }
        guard Array(PlayerName.normalized(name).utf8) == nameBytes else { throw .badText("name", "not in NFC") }
        let body: Body
        switch kind {
        case 1:
            guard let hostingByte = reader.byte(), let port = reader.uint16(), let protocolVersion = reader.byte() else {
                throw .truncated("announce")
            }
            guard let hosting = Hosting(rawValue: hostingByte) else { throw .badField("hosting \(hostingByte)") }
            guard (hosting == .none) == (port == 0) else { throw .badField("port \(port) with hosting \(hostingByte)") }
            body = .announce(hosting: hosting, port: port, protocolVersion: protocolVersion)
        case 2:
            guard let length = reader.byte(), let textBytes = reader.read(Int(length)) else { throw .truncated("greeting") }
            guard length > 0, Int(length) <= Self.maximumGreetingBytes else { throw .badText("greeting", "\(length) bytes") }
            guard let text = String(validating: textBytes, as: UTF8.self) else { throw .badText("greeting", "not UTF-8") }
            guard Self.isPrintable(text) else { throw .badText("greeting", "a control or bidi character") }
            body = .greeting(text)
        case 3:
            guard let target = reader.uint64(), let port = reader.uint16(), let length = reader.byte(),
                  let addressBytes = reader.read(Int(length))
            else { throw .truncated("challenge") }
            guard port != 0 else { throw .badField("port 0") }
            guard let address = String(validating: addressBytes, as: UTF8.self),
                  address.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "." || $0 == ":" || $0 == "%" || $0.isLetter || $0.isNumber) })
            else { throw .badText("address", "not an address") }
            body = .challenge(target: MemberID(target), port: port, address: address.isEmpty ? nil : address)
        case 4:
            guard let target = reader.uint64(), let accepted = reader.byte() else { throw .truncated("answer") }
            guard accepted <= 1 else { throw .badField("accepted \(accepted)") }
            body = .answer(target: MemberID(target), accepted: accepted == 1)
        case 5:
            body = .leave
        default:
            throw .unknownKind(kind)
        }
        guard reader.isAtEnd else { throw .trailingBytes(reader.remaining) }
        self.init(sender: MemberID(sender), sequence: sequence, name: name, body: body)
    }

    /// No C0/C1 control or bidi formatting characters (which could act on a terminal), and something to show.
    static func isPrintable(_ text: String) -> Bool {
        !text.trimmingWhitespace().isEmpty
            && !text.unicodeScalars.contains { DisplayText.isControl($0) || DisplayText.isBidiFormatting($0) }
    }
}

public enum LobbyEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    case badName(String)
    case badGreeting(String)
    case badAddress(String)

    public var description: String {
        switch self {
        case .badName(let problem): return "a lobby name must be printable and at most 63 bytes; \(problem)"
        case .badGreeting(let problem):
            return "a greeting must be printable text of 1-\(LobbyMessage.maximumGreetingBytes) bytes; not \(problem)"
        case .badAddress(let text): return "'\(text)' is too long for an address"
        }
    }
}

public enum LobbyDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLong(Int)
    case notALobbyMessage
    case otherVersion(UInt8)
    case truncated(String)
    case unknownKind(UInt8)
    case badField(String)
    case badText(String, String)
    case trailingBytes(Int)

    public var description: String {
        switch self {
        case .tooLong(let count): return "\(count) bytes, more than \(LobbyMessage.maximumSize)"
        case .notALobbyMessage: return "not a lobby message (no TTTL magic)"
        case .otherVersion(let version): return "lobby version \(version), not \(LobbyMessage.version)"
        case .truncated(let what): return "truncated (\(what))"
        case .unknownKind(let kind): return "unknown kind \(kind)"
        case .badField(let what): return "bad field: \(what)"
        case .badText(let field, let problem): return "bad \(field): \(problem)"
        case .trailingBytes(let count): return "\(count) bytes after the message"
        }
    }
}

private struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }
    var remaining: Int { bytes.count - offset }

    mutating func read(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func byte() -> UInt8? { read(1)?.first }

    mutating func uint16() -> UInt16? {
        read(2).map { UInt16($0[0]) << 8 | UInt16($0[1]) }
    }

    mutating func uint32() -> UInt32? {
        read(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    mutating func uint64() -> UInt64? {
        read(8).map { $0.reduce(0) { $0 << 8 | UInt64($1) } }
    }
}

extension FixedWidthInteger {
    fileprivate var bigEndianBytes: [UInt8] {
        (0..<Self.bitWidth / 8).reversed().map { UInt8(truncatingIfNeeded: self >> ($0 * 8)) }
    }
}
