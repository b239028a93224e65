import AppManifest
import FoundationEssentials
import GameProtocol
import Logging
import PrivacyReport
import Synchronization
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// A remembered answer: the state, when it was decided, and by what (`prompt`, `cli`, `settings`, …).
public struct LocalNetworkDecision: Sendable, Hashable {
    public var state: LocalNetworkAuthorization
    public var decidedAt: Date?
    public var source: String?

    public init(state: LocalNetworkAuthorization, decidedAt: Date? = nil, source: String? = nil) {
        self.state = state
        self.decidedAt = decidedAt
        self.source = source
    }
}

/// The per-user local network decision: `local-network.json` in `$TICTACTOE_CONFIG_DIR`, else
/// `$XDG_CONFIG_HOME/tictactoe/`, else `~/.config/tictactoe/`.
///
/// Written and read as a `LockedFile`: writers take an exclusive `flock` on `local-network.lock`, write a temporary
/// file and rename it over the decision file; reading is bounded to `maximumFileSize`. No file means "not
/// determined"; so does a corrupt, oversized or unknown one (with a warning in the log). A file in a format version this program does not know (a newer tictactoe wrote it) is
/// read as "not determined" and left as it is: only the user's decision (the prompt, Settings, `tictactoe privacy
/// grant`/`deny`/`reset`) replaces it; reading, watching and `privacy status` never write.
public final class DecisionStore: Sendable {
    public static let fileName = "local-network.json"
    public static let lockFileName = "local-network.lock"
    /// The format written in `version`.
    public static let formatVersion = 1
    /// The largest decision file read, in bytes (a real one is under 200).
    public static let maximumFileSize = 64 * 1024

    /// The directory holding the decision and its lock.
    public var directory: String { file.directory }
    let logger: Logger
    private let lastWarning = Locked<String?>(nil)
    /// The decision file and its lock.
    let file: LockedFile
    /// Where each change of the decision is recorded (nil: nowhere).
    let report: PrivacyReportLog?

    /// A store in `directory`, or in `defaultDirectory(environment:)` when nil, recording each change of the decision
    /// in `report`.
    public convenience init(
        directory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        report: PrivacyReportLog? = nil,
        logger: Logger = Logger(label: "tictactoe.privacy")
    ) {
        self.init(
            directory: directory ?? Self.defaultDirectory(environment: environment), report: report, logger: logger,
            readSystemCall: { fd, buffer, count in Glibc.read(fd, buffer, count) })
    }

    /// A store in `directory` that reads its file through `readSystemCall` (tests).
    init(directory: String, report: PrivacyReportLog? = nil, logger: Logger, readSystemCall: @escaping ReadSystemCall) {
        self.file = LockedFile(
            directory: directory, fileName: Self.fileName, lockFileName: Self.lockFileName,
            maximumSize: Self.maximumFileSize, readSystemCall: readSystemCall)
        self.report = report
        self.logger = logger
    }

    /// `$TICTACTOE_CONFIG_DIR` (tests), else `$XDG_CONFIG_HOME/tictactoe` (when absolute, as the XDG spec asks), else
    /// `~/.config/tictactoe` (`AppDirectories.config`).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        AppDirectories.config(environment: environment)
    }

    /// The decision file.
    public var decisionPath: String { file.path }
    /// The lock file writers serialize on.
    public var lockPath: String { file.lockPath }

    // MARK: Reading

    /// The remembered state: `.notDetermined` when there is no decision file, or when it is corrupt or unknown.
    public func read() -> LocalNetworkAuthorization { decision()?.state ?? .notDetermined }

    /// The remembered decision, or nil when there is none (no file, or a corrupt, oversized or unknown one: logged).
    public func decision() -> LocalNetworkDecision? {
        if case .decision(let decision) = inspect() { return decision }
        return nil
    }

    /// What the decision file holds (`privacy status` tells these apart); a file that gives no decision is logged.
    public enum FileVerdict: Sendable, Hashable {
        /// No file: not determined.
        case missing
        case decision(LocalNetworkDecision)
        /// Unreadable, too large, or corrupt: not determined (`privacy reset` removes it).
        case unusable
        /// A format version this tictactoe does not know (the version as found): not determined, kept until the
        /// user decides.
        case unknownVersion(String)
    }

    /// Reads the decision file and says what it holds (warning once about a file that gives no decision).
    public func inspect() -> FileVerdict {
        let data: Data
        switch readDecisionFile() {
        case .missing:
            return .missing
        case .unreadable(let why):
            warnOnce("cannot read the local network decision \(decisionPath) (\(why)): treating it as not determined")
            return .unusable
        case .tooLarge(let size):
            warnOnce(
                "the local network decision \(decisionPath) is too large (\(size.map { "\($0) bytes" } ?? "it grew")"
                    + "; at most \(Self.maximumFileSize) bytes are read): treating it as not determined "
                    + "(`tictactoe privacy reset` removes it)"
            )
            return .unusable
        case .contents(let contents):
            data = contents
        }
        switch Self.parse(data) {
        case .success(let decision):
            lastWarning.withLock { $0 = nil }
            return .decision(decision)
        case .failure(.unknownVersion(let version)):
            warnOnce(
                "the local network decision \(decisionPath) has format version \(version), which this tictactoe does "
                    + "not know (it reads version \(Self.formatVersion)): treating it as not determined. The file is "
                    + "kept as it is (a newer tictactoe may have written it) until you decide: the prompt, "
                    + "Settings › Privacy › Local Network, or `tictactoe privacy grant`, `deny` or `reset` "
                    + "replace it"
            )
            return .unknownVersion(version)
        case .failure(let problem):
            warnOnce(
                "the local network decision \(decisionPath) is \(problem.text): treating it as not determined "
                    + "(`tictactoe privacy reset` removes it)"
            )
            return .unusable
        }
    }

    /// Why a decision file's contents give no decision.
    enum ParseProblem: Error, Hashable {
        case corrupt(String)
        /// A `version` other than `formatVersion` (a number, or the text of whatever else it was).
        case unknownVersion(String)

        var text: String {
            switch self {
            case .corrupt(let text): return text
            case .unknownVersion(let version): return "of an unknown format version (\(version))"
            }
        }
    }

    /// Parses the decision file's contents. A file without `version` is read as the current format (a hand-written
    /// `{"state":"allowed"}`); any other version, or one that is not a whole number, is unknown.
    static func parse(_ data: Data) -> Result<LocalNetworkDecision, ParseProblem> {
        guard data.count <= maximumFileSize else { return .failure(.corrupt("too large (\(data.count) bytes)")) }
        guard let object = try? PropertyValue.json(data), let dictionary = object.dictionary else {
            return .failure(.corrupt("not a JSON object (corrupt)"))
        }
        if let version = dictionary["version"], version != .integer(formatVersion) {
            return .failure(.unknownVersion(describeVersion(version)))
        }
        guard let stateText = dictionary["state"]?.string else {
            return .failure(.corrupt("missing its \"state\""))
        }
        guard let state = LocalNetworkAuthorization(rawValue: stateText) else {
            return .failure(.corrupt("of an unknown state \"\(stateText)\""))
        }
        let decidedAt = dictionary["decided_at"]?.string.flatMap { try? Date.ISO8601FormatStyle().parse($0) }
        return .success(
            LocalNetworkDecision(state: state, decidedAt: decidedAt, source: dictionary["source"]?.string))
    }

    /// A found `version` as JSON text, as the warning shows it (`7`, `"2"`, `true`, `null`; at most 40 characters).
    /// A value JSON cannot hold (never one read from JSON) shows as a property list's.
    private static func describeVersion(_ version: PropertyValue) -> String {
        let text = (try? version.jsonText()) ?? version.plistDescription
        return text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }

    /// What the file holds (keys sorted when written, one line).
    private struct DecisionJSON: Encodable {
        let version: Int
        let state: String
        let decidedAt: String?
        let source: String?

        enum CodingKeys: String, CodingKey {
            case version, state, source
            case decidedAt = "decided_at"
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
            try container.encode(state, forKey: .state)
            try container.encodeIfPresent(decidedAt, forKey: .decidedAt)
            try container.encodeIfPresent(source, forKey: .source)
        }
    }

    /// The bytes written for a decision: one line by the one encoder (`JSONLine`: keys sorted).
    static func encode(_ decision: LocalNetworkDecision) throws -> Data {
        let contents = DecisionJSON(
            version: formatVersion, state: decision.state.rawValue,
            decidedAt: decision.decidedAt.map { Date.ISO8601FormatStyle().format($0) }, source: decision.source)
        return Data((try JSONLine.encode(contents) + "\n").utf8)
    }

    private func warnOnce(_ text: String) {
        let fresh = lastWarning.withLock { last -> Bool in
            defer { last = text }
            return last != text
        }
        if fresh { logger.warning("\(text)") }
    }

    // MARK: Writing

    /// Remembers `state` (`.notDetermined` is the same as `reset(source:)`), atomically and under the lock. `source`
    /// says who decided ("prompt", "settings", "tictactoe privacy grant").
    public func write(_ state: LocalNetworkAuthorization, source: String? = nil) throws {
        if state == .notDetermined { return try reset(source: source) }
        try storing {
            let decision = LocalNetworkDecision(state: state, decidedAt: Date(), source: source)
            try file.withExclusiveLock { try file.replace(with: Self.encode(decision)) }
        }
        logger.info(
            "local network decision stored: \(state.rawValue)\(source.map { " (by \($0))" } ?? "") in \(decisionPath)")
        recordChange(to: state, source: source)
    }

    /// Forgets the decision: the next operation that needs the local network prompts again (`tccutil reset`).
    public func reset(source: String? = nil) throws {
        try storing { try file.withExclusiveLock { try file.remove() } }
        logger.info("local network decision reset (not determined): removed \(decisionPath)")
        recordChange(to: .notDetermined, source: source)
    }

    /// Records the change in the privacy report: operation `permission`, the state as its destination, who changed
    /// it as the origin (Settings, a `tictactoe privacy` command). The prompt's answer is recorded by the gate, with
    /// the operation that showed it.
    private func recordChange(to state: LocalNetworkAuthorization, source: String?) {
        guard let report, source != "prompt" else { return }
        let origin = source.map { OperationOrigin($0 == "settings" ? "Settings screen" : $0) }
        report.recordOperation(Self.changeOperation, destination: state.rawValue, origin: origin)
    }

    /// The operation name of a change of the decision in the privacy report.
    public static let changeOperation = "permission"

    /// Creates the directory (0700) if needed.
    func ensureDirectory() throws {
        try storing { try file.ensureDirectory() }
    }

    /// `body`, its failure to write or to encode the decision told as the decision's.
    private func storing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as LockedFile.WriteFailure {
            throw DecisionStoreError.cannotWrite(path: failure.path, reason: failure.reason)
        } catch let error as EncodingError {
            throw DecisionStoreError.cannotWrite(path: decisionPath, reason: "cannot encode it: \(error)")
        }
    }

    static func lastErrorText() -> String { LockedFile.lastErrorText() }
}

/// The decision could not be stored (`tictactoe privacy grant`, `deny`, `reset`: exit 1).
public enum DecisionStoreError: ExitStatusConvertible, Sendable, Hashable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)

    public var exitStatus: ExitStatus { .failure }

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason):
            return
                "cannot store the local network decision (\(path): \(reason)); check that the directory is writable, "
                + "or choose another with XDG_CONFIG_HOME or TICTACTOE_CONFIG_DIR"
        }
    }
}

/// A value behind a `Mutex` that closures and tasks can share (a `Mutex` itself cannot be captured: it is not
/// copyable).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<T: Sendable, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try mutex.withLock { (value: inout sending Value) throws(E) -> T in try body(&value) }
    }
}
