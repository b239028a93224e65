import AppManifest
import FoundationEssentials
import LocalNetworkPrivacy
import Localization
import TextSupport

/// What `tictactoe privacy status` shows: the remembered decision and its file, the app manifest (or why there is
/// none) and the log file. Read once (`read(store:manifest:logFile:)`), then printed as text (`text`) or as one JSON
/// object (`json`, README and `privacy status --help`: every key always present, null when not known).
public struct PrivacyStatusReport: Sendable, Hashable {
    /// The decision file: absent, a valid decision, present but unusable, or in a format version this tictactoe
    /// does not know (both treated as not determined; the last is kept until the user decides).
    public enum DecisionFileStatus: String, Sendable, Hashable, Encodable {
        case none, valid, corrupt
        case unknownVersion = "unknown-version"
    }

    /// The manifest as read, or the error that says why there is none.
    public enum Manifest: Sendable, Hashable {
        case loaded(AppManifest)
        case unavailable(String)

        public var loaded: AppManifest? {
            if case .loaded(let manifest) = self { return manifest }
            return nil
        }

        public var error: String? {
            if case .unavailable(let error) = self { return error }
            return nil
        }
    }

    /// The remembered decision (nil: none, or a corrupt file).
    public var decision: LocalNetworkDecision?
    public var decisionFile: String
    public var decisionFileStatus: DecisionFileStatus
    public var manifest: Manifest
    public var logFile: String
    /// The language of the prompt and the messages, and the strings files they come from.
    public var localization: Localization

    public init(
        decision: LocalNetworkDecision?, decisionFile: String, decisionFileStatus: DecisionFileStatus,
        manifest: Manifest, logFile: String, localization: Localization = .current
    ) {
        self.decision = decision
        self.decisionFile = decisionFile
        self.decisionFileStatus = decisionFileStatus
        self.manifest = manifest
        self.logFile = logFile
        self.localization = localization
    }

    /// Reads the decision from `store` (a file that exists but gives no decision is `corrupt`, or `unknown-version`)
    /// and takes the manifest as located (`AppManifest.locate`).
    public static func read(
        store: DecisionStore, manifest: Result<AppManifest, any Error>, logFile: String,
        localization: Localization = .current
    ) -> PrivacyStatusReport {
        let decision: LocalNetworkDecision?
        let status: DecisionFileStatus
        switch store.inspect() {
        case .missing: (decision, status) = (nil, .none)
        case .decision(let found): (decision, status) = (found, .valid)
        case .unusable: (decision, status) = (nil, .corrupt)
        case .unknownVersion: (decision, status) = (nil, .unknownVersion)
        }
        let manifestStatus: Manifest
        switch manifest {
        case .success(let loaded): manifestStatus = .loaded(loaded)
        case .failure(let error): manifestStatus = .unavailable("\(error)")
        }
        return PrivacyStatusReport(
            decision: decision, decisionFile: store.decisionPath, decisionFileStatus: status,
            manifest: manifestStatus, logFile: logFile, localization: localization
        )
    }

    /// The state in effect: no decision is "not determined".
    public var state: LocalNetworkAuthorization { decision?.state ?? .notDetermined }

    /// When the decision was made, as ISO 8601 (UTC).
    public var decidedAt: String? { decision?.decidedAt.map { Date.ISO8601FormatStyle().format($0) } }

    /// The app's name in the text: the manifest's, else the default.
    public var displayName: String { manifest.loaded?.displayName ?? AppManifest.fallbackDisplayName }
}

extension PrivacyStatusReport: Encodable {
    /// `privacy status --json`: one object, keys sorted (see `privacy status --help` for the list).
    /// Throws what `JSONLine.encode` throws.
    public func json() throws -> String { try JSONLine.encode(self) }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        let loaded = manifest.loaded
        try object.encode(state.rawValue, forKey: "state")
        try object.encodeOrNull(decidedAt, forKey: "decided_at")
        try object.encodeOrNull(decision?.source, forKey: "decided_by")
        try object.encode(decisionFile, forKey: "decision_file")
        try object.encode(decisionFileStatus, forKey: "decision_file_status")
        try object.encodeOrNull(loaded?.path, forKey: "manifest_path")
        try object.encodeOrNull(manifest.error, forKey: "manifest_error")
        try object.encodeOrNull(loaded?.displayName, forKey: "display_name")
        try object.encodeOrNull(loaded?.usageDescription, forKey: "usage_description")
        try object.encodeOrNull(loaded?.usesDefaultUsageDescription, forKey: "usage_description_missing")
        try object.encodeOrNull(loaded?.promptTitle(localization), forKey: "prompt_title")
        try object.encodeOrNull(loaded?.promptMessage(localization), forKey: "prompt_message")
        try object.encodeOrNull(loaded?.bonjourServices, forKey: "bonjour_services")
        try object.encode(logFile, forKey: "log_file")
        try object.encode(localization.language, forKey: "language")
        try object.encode(localization.reason, forKey: "language_reason")
        try object.encode(localization.files, forKey: "strings_files")
    }
}
