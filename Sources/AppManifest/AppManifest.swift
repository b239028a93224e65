import FoundationEssentials
import GameProtocol
import Localization
import Logging
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// The app's declaration, read from an XML property list like an iOS app's Info.plist (`Assets/Info.plist`).
///
/// - `CFBundleDisplayName` (else `CFBundleName`, else "TicTacToe"): the name in the prompt.
/// - `NSLocalNetworkUsageDescription`: why the app wants the local network, shown under the prompt's title. When it
///   is missing the prompt still appears, with `defaultUsageDescription` (and a warning in the log).
/// - `NSBonjourServices`: the Bonjour service types the app may browse and advertise. Any other type fails at once
///   with NoAuth (kDNSServiceErr_NoAuth, -65555), without a prompt, as on iOS.
/// - `NSAppTransportSecurity`: App Transport Security, which tictactoe applies to game connections (see
///   `AppTransportSecurity`). A malformed dictionary makes the manifest invalid.
public struct AppManifest: Sendable, Hashable {
    /// The file this manifest was read from.
    public let path: String
    public let displayName: String
    /// `NSLocalNetworkUsageDescription`, or nil when the key is missing or empty.
    public let usageDescription: String?
    /// `NSBonjourServices` as written (empty when the key is missing).
    public let bonjourServices: [String]
    /// `NSAppTransportSecurity` (`.undeclared` when the key is missing: ATS's defaults).
    public let transportSecurity: AppTransportSecurity

    /// The reason shown in the prompt when the manifest has no `NSLocalNetworkUsageDescription`.
    public static let defaultUsageDescription =
        "This app would like to find and connect to devices on your local network (no reason was given)."

    /// The display name used when the manifest has neither `CFBundleDisplayName` nor `CFBundleName`.
    public static let fallbackDisplayName = "TicTacToe"

    /// The directory the manifest is in: its `<lang>.lproj/InfoPlist.strings` are beside it.
    public var directory: String { PathText.directory(of: path) }

    /// `key` in `localization`'s language, when its `InfoPlist.strings` is the one beside this manifest and has it.
    private func localized(_ key: String, in localization: Localization) -> String? {
        guard let directory = localization.manifestDirectory,
              PathText.normalized(directory) == PathText.normalized(self.directory)
        else { return nil }
        return localization.infoPlistValue(key)
    }

    /// `CFBundleDisplayName` in the user's language (`InfoPlist.strings`), else the manifest's.
    public func localizedDisplayName(_ localization: Localization = .current) -> String {
        localized("CFBundleDisplayName", in: localization) ?? displayName
    }

    /// `NSLocalNetworkUsageDescription` in the user's language (`InfoPlist.strings`), else the manifest's (nil when
    /// the manifest has none: a translation alone does not make up a reason the app does not give).
    public func localizedUsageDescription(_ localization: Localization = .current) -> String? {
        guard usageDescription != nil else { return nil }
        return localized("NSLocalNetworkUsageDescription", in: localization) ?? usageDescription
    }

    /// The prompt's title, as iOS words it, in the user's language.
    public func promptTitle(_ localization: Localization = .current) -> String {
        localization.text(Self.promptTitleText, [localizedDisplayName(localization)])
    }

    /// The prompt's title in English, `%@` the display name (the key of its translations).
    public static let promptTitleText = "“%@” would like to find and connect to devices on your local network."

    /// The text under the prompt's title: the usage description, or the default one, in the user's language.
    public func promptMessage(_ localization: Localization = .current) -> String {
        localizedUsageDescription(localization) ?? localization.text(Self.defaultUsageDescription)
    }

    /// True when the manifest gives no usage description (the prompt uses `defaultUsageDescription`).
    public var usesDefaultUsageDescription: Bool { usageDescription == nil }

    public init(
        path: String, displayName: String, usageDescription: String?, bonjourServices: [String],
        transportSecurity: AppTransportSecurity = .undeclared
    ) {
        self.path = path
        self.displayName = displayName
        self.usageDescription = usageDescription
        self.bonjourServices = bonjourServices
        self.transportSecurity = transportSecurity
    }

    /// Reads and checks the property list at `path`. Throws `ManifestError` when it cannot be read or is not a
    /// dictionary with the expected value types. Logs a warning when `NSLocalNetworkUsageDescription` is missing.
    public init(contentsOf path: String, logger: Logger = Logger(label: "tictactoe.privacy")) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            if !FileManager.default.fileExists(atPath: path) {
                throw ManifestError.notFound(tried: [path], explicit: false)
            }
            throw ManifestError.unreadable(path: path, reason: Self.describeReadFailure(path: path, error: error))
        }
        try self.init(path: path, data: data, logger: logger)
    }

    /// Parses property list `data` that was read from `path`.
    public init(path: String, data: Data, logger: Logger = Logger(label: "tictactoe.privacy")) throws {
        let plist: PropertyValue
        do {
            plist = try PropertyValue.propertyList(data)
        } catch {
            throw ManifestError.invalid(path: path, reason: "not a property list (\(Self.describe(error)))")
        }
        guard let dictionary = plist.dictionary else {
            throw ManifestError.invalid(path: path, reason: "the top level is not a <dict>")
        }
        func string(_ key: String) throws -> String? {
            guard let value = dictionary[key] else { return nil }
            guard let text = value.string else {
                throw ManifestError.invalid(path: path, reason: "\(key) must be a <string>")
            }
            let trimmed = text.trimmingWhitespace(includingNewlines: true)
            return trimmed.isEmpty ? nil : trimmed
        }
        let displayName = try string("CFBundleDisplayName") ?? string("CFBundleName") ?? Self.fallbackDisplayName
        let usage = try string("NSLocalNetworkUsageDescription")
        var services: [String] = []
        if let value = dictionary["NSBonjourServices"] {
            guard let strings = value.strings else {
                throw ManifestError.invalid(path: path, reason: "NSBonjourServices must be an <array> of <string>")
            }
            services = strings
        }
        let transportSecurity: AppTransportSecurity
        do {
            transportSecurity = try AppTransportSecurity(plistValue: dictionary["NSAppTransportSecurity"])
        } catch {
            throw ManifestError.invalid(path: path, reason: error.reason)
        }
        self.init(
            path: path, displayName: displayName, usageDescription: usage, bonjourServices: services,
            transportSecurity: transportSecurity)
        if usage == nil {
            let text = "app manifest \(path) has no NSLocalNetworkUsageDescription: the local network prompt will "
                + "show the default reason \"\(Self.defaultUsageDescription)\""
            logger.warning("\(text)")
        }
        if dictionary["NSBonjourServices"] == nil {
            let text = "app manifest \(path) has no NSBonjourServices: browsing or advertising any Bonjour service "
                + "type will fail with NoAuth (-65555)"
            logger.warning("\(text)")
        }
    }

    /// Whether `NSBonjourServices` lists `serviceType` (compared without case and without a trailing dot, so
    /// "_tictactoe._tcp." matches "_tictactoe._tcp").
    public func declares(serviceType: String) -> Bool {
        let wanted = Self.normalize(serviceType)
        return bonjourServices.contains { Self.normalize($0) == wanted }
    }

    static func normalize(_ serviceType: String) -> String {
        var text = serviceType.trimmingWhitespace().lowercased()
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Why reading `path` failed, in words ("is a directory", "permission denied", …).
    static func describeReadFailure(path: String, error: Error) -> String {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
            return "it is a directory"
        }
        if access(path, R_OK) != 0 { return String(cString: strerror(errno)) }
        return describe(error)
    }

    /// Why reading or parsing a file failed, in words ("permission denied", "Is a directory").
    public static func describe(_ error: Error) -> String {
        if let error = error as? CocoaError {
            if let underlying = error.underlying as? POSIXError {
                return String(cString: strerror(underlying.code.rawValue))
            }
            if error.code == .fileReadNoPermission { return "permission denied" }
            if error.code == .fileReadNoSuchFile { return String(cString: strerror(ENOENT)) }
        }
        if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
        if error is DecodingError { return "the data is not in a property list format" }
        return "\(error)"
    }
}

/// Why the app manifest could not be used. The text says which paths were tried and what to do. Without a manifest
/// there is no local network access (exit 12).
public enum ManifestError: ExitStatusConvertible, Sendable, Hashable, CustomStringConvertible {
    /// No file at any of the paths tried. `explicit`: the only path was given with `--info-plist`.
    case notFound(tried: [String], explicit: Bool)
    /// The file exists but cannot be read (permissions, a directory, …).
    case unreadable(path: String, reason: String)
    /// The file is not an XML property list dictionary with the expected value types.
    case invalid(path: String, reason: String)

    public var exitStatus: ExitStatus { .localNetworkNotAllowed }

    public var description: String {
        switch self {
        case .notFound(let tried, true):
            return "cannot read the app manifest \(tried.joined(separator: ", ")) (given with --info-plist): "
                + "no such file. "
                + "Check the path, or leave out --info-plist to use the installed Info.plist"
        case .notFound(let tried, false):
            return "no app manifest (Info.plist) found; tried \(tried.joined(separator: ", ")). "
                + "Run `make install` (it copies Assets/ to PREFIX/share/tictactoe), or pass --info-plist PATH"
        case .unreadable(let path, let reason):
            return "cannot read the app manifest \(path): \(reason). Fix its permissions, or pass --info-plist PATH"
        case .invalid(let path, let reason):
            return "the app manifest \(path) is not valid: \(reason). "
                + "Fix it (see Assets/Info.plist), or pass --info-plist PATH"
        }
    }
}
