import AppManifest
import FoundationEssentials
import GameClient
import Logging
import TextSupport

/// The person's settings between launches: `settings.json` next to the local network decision
/// (`AppDirectories.config`: `$TICTACTOE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/tictactoe`, else
/// `~/.config/tictactoe`), written as the decision is (`LockedFile`: atomic, under `settings.lock`, read bounded to
/// 64 KiB). A separate file: `tictactoe privacy reset` does not touch it.
///
/// The format is versioned (`"version": 1`) and tolerant: a field that is missing or not understood takes its
/// default, keys this tictactoe does not know are kept when it saves; a corrupt or oversized file, or one of another
/// format version, gives the defaults with one warning (and is replaced at the next save).
public struct SettingsFile: Sendable {
    public static let fileName = "settings.json"
    public static let lockFileName = "settings.lock"
    public static let formatVersion = 1
    public static let maximumFileSize = 64 * 1024

    public let file: LockedFile

    public init(directory: String = AppDirectories.config()) {
        file = LockedFile(
            directory: directory, fileName: Self.fileName, lockFileName: Self.lockFileName,
            maximumSize: Self.maximumFileSize)
    }

    public var path: String { file.path }

    /// The stored settings (empty when there is no file), and why the file was not used when it was there.
    public func load() -> (settings: StoredSettings, warning: String?) {
        switch file.read() {
        case .missing:
            return (StoredSettings(), nil)
        case .unreadable(let why):
            return (StoredSettings(), "Cannot read the settings \(path) (\(why)): using the defaults.")
        case .tooLarge:
            return (
                StoredSettings(),
                "The settings \(path) are larger than \(Self.maximumFileSize / 1024) KiB: using the defaults."
            )
        case .contents(let data):
            switch Self.parse(data) {
            case .success(let object): return (Self.settings(from: object), nil)
            case .failure(let problem):
                return (StoredSettings(), "The settings \(path) are \(problem.text): using the defaults.")
            }
        }
    }

    /// Stores `settings` atomically under the lock, keeping the keys of the file this tictactoe does not know.
    public func save(_ settings: StoredSettings) throws {
        try file.withExclusiveLock {
            var object: [String: PropertyValue] = [:]
            if case .contents(let data) = file.read(), case .success(let existing) = Self.parse(data) {
                object = existing
            }
            try file.replace(with: Self.encode(settings, over: object))
        }
    }

    /// The live client: loads and saves this file, logging what goes wrong.
    public func client(logger: Logger = Logger(label: "tictactoe.settings")) -> SettingsClient {
        SettingsClient(
            load: {
                let loaded = load()
                if let warning = loaded.warning { logger.warning("\(warning)") }
                return loaded
            },
            save: { settings in
                do {
                    try save(settings)
                    logger.info("settings saved in \(path)")
                    return nil
                } catch let failure as LockedFile.WriteFailure {
                    let text = "Cannot save the settings (\(failure.path): \(failure.reason)); check that the "
                        + "directory is writable, or choose another with XDG_CONFIG_HOME."
                    logger.warning("\(text)")
                    return text
                } catch {
                    logger.warning("cannot save the settings: \(error)")
                    return "Cannot save the settings: \(error)."
                }
            })
    }

    // MARK: The format

    enum ParseProblem: Error, Hashable {
        case corrupt
        case unknownVersion(String)

        var text: String {
            switch self {
            case .corrupt: return "not a JSON object (corrupt)"
            case .unknownVersion(let version): return "of an unknown format version (\(version))"
            }
        }
    }

    /// The file's JSON object, when it is one of this format version (a file without `version` is read as it).
    static func parse(_ data: Data) -> Result<[String: PropertyValue], ParseProblem> {
        guard data.count <= maximumFileSize, let object = try? PropertyValue.json(data), let dictionary = object.dictionary
        else { return .failure(.corrupt) }
        if let version = dictionary["version"], version != .integer(formatVersion) {
            // `1` is this format; `true`, `"1"`, `1.5` or `2` are not. Shown as JSON text (a value JSON cannot hold,
            // never one read from JSON, as a property list's).
            let text = (try? version.jsonText()) ?? version.plistDescription
            return .failure(.unknownVersion(String(text.prefix(40))))
        }
        return .success(dictionary)
    }

    /// The known fields of `object`; a field of the wrong type is left out (its default is used).
    static func settings(from object: [String: PropertyValue]) -> StoredSettings {
        StoredSettings(
            name: object["name"]?.string,
            difficulty: object["difficulty"]?.string,
            starter: object["who_starts"]?.string,
            port: object["port"].flatMap(wholeNumber),
            lastAddress: object["last_address"]?.string,
            addressHistory: object["address_history"]?.array.map { $0.compactMap(\.string) },
            colors: boolean(object["colors"]),
            keyHints: boolean(object["key_hints"]),
            engine: object["engine"]?.string,
            spectators: object["spectators"].flatMap(wholeNumber))
    }

    /// A JSON number with no fraction (`7`, `7.0`).
    private static func wholeNumber(_ value: PropertyValue) -> Int? {
        switch value {
        case .integer(let number): return number
        case .real(let number): return Int(exactly: number)
        default: return nil
        }
    }

    /// A JSON `true` or `false`, not a number.
    private static func boolean(_ value: PropertyValue?) -> Bool? {
        if case .bool(let flag)? = value { return flag }
        return nil
    }

    /// The bytes written: `settings` over `object` (the file's other keys), one line by the one encoder (`JSONLine`:
    /// keys sorted). Throws what the encoder throws (a value JSON cannot hold): the save fails, the file stays as it was.
    static func encode(_ settings: StoredSettings, over object: [String: PropertyValue] = [:]) throws -> Data {
        var object = object
        object["version"] = .integer(formatVersion)
        let fields: [(String, PropertyValue?)] = [
            ("name", settings.name.map(PropertyValue.string)),
            ("difficulty", settings.difficulty.map(PropertyValue.string)),
            ("who_starts", settings.starter.map(PropertyValue.string)),
            ("port", settings.port.map(PropertyValue.integer)),
            ("last_address", settings.lastAddress.map(PropertyValue.string)),
            ("address_history", settings.addressHistory.map { .array($0.map(PropertyValue.string)) }),
            ("colors", settings.colors.map(PropertyValue.bool)),
            ("key_hints", settings.keyHints.map(PropertyValue.bool)),
            ("engine", settings.engine.map(PropertyValue.string)),
            ("spectators", settings.spectators.map(PropertyValue.integer)),
        ]
        for (key, value) in fields { object[key] = value }
        return Data((try JSONLine.encode(object) + "\n").utf8)
    }
}
