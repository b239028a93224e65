import AppManifest
import FoundationEssentials
import GameProtocol
import Logging
import Synchronization
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// The privacy report: what the gate decided about each local-network operation, and the prompt shown and answered,
/// for the last 7 days, in `privacy-report.jsonl` under `$XDG_STATE_HOME/tictactoe/` (`AppDirectories.state`). One
/// JSON object a line (`PrivacyReportEntry.line()`); `tictactoe privacy report` and Settings read it.
///
/// Recording never fails an operation and never waits for another process: each record is one `write(2)` of a whole
/// line to the file opened with `O_APPEND` (so records of several processes never interleave, and none is lost), and
/// a failure is logged once, then ignored.
///
/// Bounded: when the file passes `fileLimit` bytes, it is renamed to `privacy-report.jsonl.1` (replacing the one
/// before) and a new one begins; so the report takes at most about twice `fileLimit`. A file whose first record is
/// older than 7 days is rotated the same way, and a `.1` whose newest record is older than 7 days is removed. That
/// upkeep is done by whoever gets `privacy-report.lock` at once (`flock` with `LOCK_NB`): a process that does not get
/// it leaves the work to the one that has it. Renaming keeps records a process is appending at that moment (they go
/// to the file it opened, now `.1`). Reading shows only the records of the last 7 days.
public final class PrivacyReportLog: Sendable {
    public static let fileName = "privacy-report.jsonl"
    public static let previousFileName = "privacy-report.jsonl.1"
    public static let lockFileName = "privacy-report.lock"
    /// How long records are kept and shown: 7 days.
    public static let retention: TimeInterval = 7 * 24 * 60 * 60
    /// The size past which the file is rotated.
    public static let defaultFileLimit = 256 * 1024

    public let directory: String
    public let fileLimit: Int
    private let now: @Sendable () -> Date
    private let logger: Logger
    /// A failure to record is logged once.
    private let warned = Mutex(false)
    /// Old records are looked for once per log (each process), before its first record, and whenever the file is full.
    private let checkedAge = Mutex(false)

    /// The report in `directory` (default: `AppDirectories.state`), rotated past `fileLimit` bytes, with the time
    /// from `now` (tests: a clock they move).
    public init(
        directory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        fileLimit: Int = PrivacyReportLog.defaultFileLimit,
        logger: Logger = Logger(label: "tictactoe.privacy"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.directory = directory ?? AppDirectories.state(environment: environment)
        self.fileLimit = fileLimit
        self.logger = logger
        self.now = now
    }

    /// The report file.
    public var path: String { PathText.join(directory, Self.fileName) }
    /// The one before it (rotated).
    public var previousPath: String { PathText.join(directory, Self.previousFileName) }
    var lockPath: String { PathText.join(directory, Self.lockFileName) }

    /// The time now, as this log sees it.
    public var currentTime: Date { now() }

    // MARK: Recording

    /// Appends `entry`; a failure is logged (the first one only) and otherwise ignored.
    public func record(_ entry: PrivacyReportEntry) {
        do {
            try append(entry)
        } catch {
            let first = warned.withLock { warned in
                defer { warned = true }
                return !warned
            }
            if first {
                logger.warning("privacy report: cannot record in \(path) (\(error)); the report goes on without it")
            }
        }
    }

    /// Why a record could not be written, or the report read (`tictactoe privacy report`: exit 1).
    public struct Failure: ExitStatusConvertible, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var exitStatus: ExitStatus { .failure }
        public var description: String { "\(path): \(reason)" }
    }

    /// One `write(2)` of the record's line to the file opened with `O_APPEND`. The upkeep comes before the first
    /// record of this log (old records), and after any record that filled the file.
    func append(_ entry: PrivacyReportEntry) throws {
        let first = checkedAge.withLock { checked in
            defer { checked = true }
            return !checked
        }
        if first { maintain() }
        let bytes = Array(try entry.line().utf8)
        var fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0o600)
        if fd < 0, errno == ENOENT {
            try ensureDirectory()
            fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0o600)
        }
        guard fd >= 0 else { throw Failure(path: path, reason: Self.lastErrorText()) }
        var size = 0
        do {
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw Failure(path: path, reason: "fstat: \(Self.lastErrorText())") }
            guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(path: path, reason: "not a regular file") }
            var written = -1
            repeat {
                written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
            } while written < 0 && errno == EINTR
            guard written == bytes.count else {
                throw Failure(path: path, reason: written < 0 ? Self.lastErrorText() : "short write (disk full?)")
            }
            size = Int(info.st_size) + written
        }
        if size > fileLimit { rotateIfFull() }
    }

    /// After a record filled the file: rotates it if it is still full (another writer may have done it meanwhile).
    /// The `.1` then holds a record of now, so there is nothing more to look at: the lock is held for a rename.
    func rotateIfFull() {
        withUpkeepLock {
            if regularFileSize(path).map({ $0 > fileLimit }) ?? false { rename(path, previousPath) }
        }
    }

    /// Rotates a full or old file and removes an old `.1`. Decides from the files as they are under the lock, not
    /// from what the caller saw.
    public func maintain() {
        withUpkeepLock {
            let oldest = now().addingTimeInterval(-Self.retention)
            if let size = regularFileSize(path) {
                let full = size > fileLimit
                let old = !full && (Self.firstRecordTime(path).map { $0 < oldest } ?? false)
                if full || old { rename(path, previousPath) }
            }
            if regularFileSize(previousPath) != nil {
                let newest = (try? readRecords(previousPath))?.entries.last?.time
                if newest.map({ $0 < oldest }) ?? true { unlink(previousPath) }
            }
        }
    }

    /// Runs `upkeep` if the upkeep's lock is free at once; otherwise another process is doing it, and this one
    /// never waits.
    private func withUpkeepLock(_ upkeep: () -> Void) {
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return }
        defer { close(lock) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return }
        defer { flock(lock, LOCK_UN) }
        upkeep()
    }

    /// The size of the regular file at `path`, or nil when there is none.
    private func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The time of the file's first record (from its first 4 KiB).
    private static func firstRecordTime(_ path: String) -> Date? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
        guard count > 0, let newline = buffer[..<count].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return PrivacyReportEntry(line: Substring(decoding: buffer[..<newline], as: UTF8.self))?.time
    }

    private func ensureDirectory() throws {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            var isDirectory = false
            if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory { return }
            throw Failure(path: directory, reason: AppManifest.describe(error))
        }
    }

    // MARK: Reading

    /// What the report holds now.
    public struct Contents: Sendable, Hashable {
        /// The records of the last 7 days, oldest first (in the order they were written).
        public var entries: [PrivacyReportEntry]
        /// Lines that are not records (cut, corrupt, another format version): skipped.
        public var skippedLines: Int
    }

    /// The records of the last 7 days (`.1`, then the file), oldest first. No file is an empty report; a file that
    /// cannot be read throws `Failure`. Each file is read bounded (its last `4 × fileLimit` bytes at most).
    public func read() throws(Failure) -> Contents {
        let oldest = now().addingTimeInterval(-Self.retention)
        var contents = Contents(entries: [], skippedLines: 0)
        for file in [previousPath, path] {
            let found = try readRecords(file)
            contents.entries += found.entries.filter { $0.time >= oldest }
            contents.skippedLines += found.skippedLines
        }
        return contents
    }

    /// The newest `count` records of the last 7 days, newest first; none when the report cannot be read.
    public func latest(_ count: Int) -> [PrivacyReportEntry] {
        ((try? read())?.entries ?? []).suffix(count).reversed()
    }

    /// Every record in one file (none when it does not exist).
    private func readRecords(_ file: String) throws(Failure) -> Contents {
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return Contents(entries: [], skippedLines: 0) }
            throw Failure(path: file, reason: Self.lastErrorText())
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(path: file, reason: "fstat: \(Self.lastErrorText())") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Failure(path: file, reason: "it is a directory")
        default: throw Failure(path: file, reason: "not a regular file")
        }
        let limit = 4 * fileLimit
        let size = Int(info.st_size)
        let start = max(0, size - limit)
        var data = [UInt8](repeating: 0, count: min(size, limit))
        var total = 0
        while total < data.count {
            let count = data.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + total, buffer.count - total, off_t(start + total))
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(path: file, reason: Self.lastErrorText())
            }
            total += count
        }
        var lines = data[..<total].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        if start > 0, !lines.isEmpty { lines.removeFirst() }  // cut in the middle
        var contents = Contents(entries: [], skippedLines: 0)
        for line in lines {
            if let entry = PrivacyReportEntry(line: Substring(decoding: line, as: UTF8.self)) {
                contents.entries.append(entry)
            } else {
                contents.skippedLines += 1
            }
        }
        return contents
    }

    static func lastErrorText() -> String { String(cString: strerror(errno)) }
}
