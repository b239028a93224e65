import FoundationEssentials
import TextSupport

/// The app's entitlements, as an iOS app's code signature carries them: a property list dictionary in
/// `TicTacToe.entitlements` beside the manifest (so `--info-plist DIR/Info.plist` reads DIR's). Read for
/// `tictactoe manifest`; a manifest without the file declares none.
public struct AppEntitlements: Sendable, Hashable {
    /// An entitlement's value.
    public enum Value: Sendable, Hashable, CustomStringConvertible, Encodable {
        case bool(Bool)
        case string(String)
        case integer(Int)
        case strings([String])

        public var description: String {
            switch self {
            case .bool(let flag): return flag ? "true" : "false"
            case .string(let text): return "\"\(text)\""
            case .integer(let number): return String(number)
            case .strings(let texts): return "[" + texts.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            }
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let flag): try container.encode(flag)
            case .string(let text): try container.encode(text)
            case .integer(let number): try container.encode(number)
            case .strings(let texts): try container.encode(texts)
            }
        }
    }

    /// One entitlement.
    public struct Entry: Sendable, Hashable {
        public let key: String
        public let value: Value
    }

    public static let fileName = "TicTacToe.entitlements"
    /// What iOS requires for custom multicast and broadcast (NWConnectionGroup) and for browsing every service type.
    public static let multicastKey = "com.apple.developer.networking.multicast"

    /// Whether `key` is declared as true.
    public func grants(_ key: String) -> Bool {
        entries.contains { $0.key == key && $0.value == .bool(true) }
    }

    /// The file they were read from.
    public let path: String
    /// Sorted by key.
    public let entries: [Entry]

    /// Where the entitlements of the manifest at `manifestPath` are.
    public static func path(besideManifest manifestPath: String) -> String {
        PathText.join(PathText.directory(of: manifestPath), fileName)
    }

    /// The entitlements beside the manifest at `manifestPath`, or nil when there is no such file. Throws
    /// `EntitlementsError` when it cannot be read or holds other than a dictionary of Booleans, strings, integers and
    /// arrays of strings.
    public static func load(besideManifest manifestPath: String) throws -> AppEntitlements? {
        let path = path(besideManifest: manifestPath)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = AppManifest.describeReadFailure(path: path, error: CocoaError(.fileReadUnknown))
            throw EntitlementsError(path: path, reason: "it cannot be read (\(reason))")
        }
        return try AppEntitlements(path: path, data: data)
    }

    /// Parses the property list `data` read from `path`.
    public init(path: String, data: Data) throws {
        let plist: PropertyValue
        do {
            plist = try PropertyValue.propertyList(data)
        } catch {
            throw EntitlementsError(path: path, reason: "not a property list (\(AppManifest.describe(error)))")
        }
        guard let dictionary = plist.dictionary else {
            throw EntitlementsError(path: path, reason: "the top level is not a <dict>")
        }
        var entries: [Entry] = []
        for key in dictionary.keys.sorted() {
            let raw = dictionary[key]!
            let value: Value
            switch raw {
            case .string(let text): value = .string(text)
            case .bool(let flag): value = .bool(flag)
            case .integer(let number): value = .integer(number)
            default:
                if let strings = raw.strings {
                    value = .strings(strings)
                    break
                }
                throw EntitlementsError(
                    path: path,
                    reason: "\(key) must be a Boolean, a <string>, an <integer> or an <array> of <string>, not "
                        + raw.plistDescription)
            }
            entries.append(Entry(key: key, value: value))
        }
        self.path = path
        self.entries = entries
    }
}

/// Why the entitlements file cannot be used.
public struct EntitlementsError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String {
        "cannot use the entitlements \(path): \(reason). Fix the file, or remove it (no entitlements)"
    }
}
