import Foundation
import Synchronization
import Logging

/// A swift-log handler that appends lines to a file (curses will own the terminal, so logs never go there).
public struct FileLogHandler: LogHandler {
    private let file: SharedFile
    private let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]

    final class SharedFile: Sendable {
        let handle: FileHandle
        let lock = Mutex(())
        init(handle: FileHandle) { self.handle = handle }
        /// The file is open with O_APPEND, so each line is one write(2) at the end of the file even when another
        /// process appends to the same log (a second app on the same account, `tictactoe privacy`): seeking to the
        /// end and then writing let two processes write at the same offset, and one line overwrote the other.
        func append(_ line: String) {
            lock.withLock { _ in handle.write(Data(line.utf8)) }
        }
    }

    init(label: String, file: SharedFile, level: Logger.Level) {
        self.label = label
        self.file = file
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let extra = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        file.append("\(stamp) \(event.level) \(label) [pid \(ProcessInfo.processInfo.processIdentifier)]: \(event.message)\(extra)\n")
    }

    /// `$XDG_STATE_HOME/tictactoe/tictactoe.log`, by default `~/.local/state/tictactoe/tictactoe.log`.
    public static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/state")
        return (base as NSString).appendingPathComponent("tictactoe/tictactoe.log")
    }

    /// Sends every logger of the process to `path` (created with its directory). Returns false, and logs nowhere,
    /// if the file cannot be opened.
    @discardableResult
    public static func bootstrap(path: String, level: Logger.Level = .info) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else {
            LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
            return false
        }
        let file = SharedFile(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
        LoggingSystem.bootstrap { label in FileLogHandler(label: label, file: file, level: level) }
        return true
    }
}
