import FoundationEssentials
import Localization
import GameProtocol
import Logging
import TextSupport
import AppManifest

#if canImport(Glibc)
import Glibc
#endif

/// A swift-log handler that appends lines to a file (curses will own the terminal, so logs never go there).
///
/// Messages and metadata go through `DisplayText.escaped`: a peer's name or error text quoted in a log line cannot
/// start a new line or act on the terminal of whoever reads the log. A file that fails (a full disk, a file that
/// became unwritable) turns logging off; the program goes on, and the `CheckedOutput` that `bootstrap` returns tells
/// its failure handler once.
public struct FileLogHandler: LogHandler {
    /// Each line's time: local time with milliseconds and the UTC offset (2026-11-25T15:30:00.123+01:00).
    private static let timestamp = Date.ISO8601FormatStyle(
        timeZoneSeparator: .colon, includingFractionalSeconds: true, timeZone: .current)

    private let file: CheckedOutput
    private let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]

    init(label: String, file: CheckedOutput, level: Logger.Level) {
        self.label = label
        self.file = file
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // Once the file failed, nothing is formatted either.
        guard file.failure == nil else { return }
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let extra = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }
            .map { "\(DisplayText.escaped($0.key))=\(DisplayText.escaped("\($0.value)"))" }.joined(separator: " ")
        let stamp = Self.timestamp.format(Date())
        let message = DisplayText.escaped("\(event.message)")
        // The file is open with O_APPEND, so each line is one write(2) at the end of the file even when another
        // process appends to the same log (a second app on the same account, `tictactoe privacy`): seeking to the
        // end and then writing let two processes write at the same offset, and one line overwrote the other.
        try? file.write("\(stamp) \(event.level) \(label) [pid \(ProcessInfo.processInfo.processIdentifier)]: \(message)\(extra)\n")
    }

    /// `$XDG_STATE_HOME/tictactoe/tictactoe.log`, by default `$HOME/.local/state/tictactoe/tictactoe.log`
    /// (`AppDirectories.state`: the same `HOME` the decision and the settings follow).
    ///
    /// Every command's help names this path, so argument-parser computes it at each start, for each command it builds:
    /// the two variables it depends on are read alone, not through a copy of the whole environment (`ProcessInfo`).
    public static var defaultPath: String {
        var environment: [String: String] = [:]
        for name in ["XDG_STATE_HOME", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return path(environment: environment)
    }

    /// The log's path in `environment`.
    public static func path(environment: [String: String]) -> String {
        PathText.join(AppDirectories.state(environment: environment), "tictactoe.log")
    }

    /// The size past which a start moves the log aside (`rotateIfLarge`): the log and the one before it stay under
    /// about twice this.
    public static let rotationSize = 1 << 20

    /// Sends every logger of the process to `path` (`openLog`). Returns the file as an output whose `onFailure` hears,
    /// once, that the file could not be opened (then nothing is logged) or that a write failed (then logging stops
    /// there).
    @discardableResult
    public static func bootstrap(path: String, level: Logger.Level = .info) -> CheckedOutput {
        let file = openLog(path)
        if file.failure != nil {
            LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        } else {
            LoggingSystem.bootstrap { label in FileLogHandler(label: label, file: file, level: level) }
        }
        return file
    }

    /// The log at `path` opened for appending: created with its directory, moved aside first when it is past
    /// `rotationSize`; an output that has failed already when it cannot be opened.
    static func openLog(_ path: String) -> CheckedOutput {
        let directory = PathText.directory(of: path)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        rotateIfLarge(path)
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let name = "the log file \(path)"
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else {
            return CheckedOutput(failed: OutputError(stream: name, code: errno, operation: "open"))
        }
        return CheckedOutput(descriptor: descriptor, name: name, ownsDescriptor: true)
    }

    /// Moves the log at `path` to `path.1` (replacing the one there) when it is past `limit` bytes, so that a log
    /// that every start appends to never grows without end. A process still writing to it goes on in `path.1`.
    static func rotateIfLarge(_ path: String, limit: Int = rotationSize) {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) > limit else { return }
        _ = rename(path, path + ".1")
    }

    /// The one warning a failing log file gives: what failed, and that the program goes on.
    public static func warning(_ error: OutputError) -> String {
        "\(error); logging is off, the game goes on"
    }
}
