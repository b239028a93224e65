import FoundationEssentials
import GameProtocol
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// A small file that several processes may replace at once, kept whole: the mechanism of the local network decision
/// and of the settings (each its own file and its own lock).
///
/// Writers take an exclusive `flock` on a separate lock file (so the file itself can be replaced), write a temporary
/// file in the same directory, fsync it, rename it over the file and fsync the directory: readers (which take no
/// lock) see the old file or the new one, never a mix, and a crash leaves one of the two. The directory is created
/// private (0700), the files 0600.
///
/// The file comes from outside the program, so reading it is bounded: its size is checked on the open descriptor
/// (`fstat`) before anything is read, and at most `maximumSize + 1` bytes are ever read (a file that grows meanwhile
/// is still cut off); FIFOs, devices and directories are refused without blocking.
public struct LockedFile: Sendable {
    /// read(2)'s shape: a descriptor, a buffer and how many bytes it may take; the number read, 0 at the end, or -1
    /// (errno).
    package typealias ReadSystemCall = @Sendable (Int32, UnsafeMutableRawPointer, Int) -> Int

    /// The directory holding the file and its lock.
    public let directory: String
    public let fileName: String
    public let lockFileName: String
    /// The largest file read, in bytes.
    public let maximumSize: Int
    /// read(2), or what a test puts in its place to see what is asked of it.
    let readSystemCall: ReadSystemCall

    public init(directory: String, fileName: String, lockFileName: String, maximumSize: Int = 64 * 1024) {
        self.init(
            directory: directory, fileName: fileName, lockFileName: lockFileName, maximumSize: maximumSize,
            readSystemCall: { fd, buffer, count in Glibc.read(fd, buffer, count) })
    }

    package init(directory: String, fileName: String, lockFileName: String, maximumSize: Int,
                 readSystemCall: @escaping ReadSystemCall) {
        self.directory = directory
        self.fileName = fileName
        self.lockFileName = lockFileName
        self.maximumSize = maximumSize
        self.readSystemCall = readSystemCall
    }

    /// The file.
    public var path: String { PathText.join(directory, fileName) }
    /// The lock file writers serialize on.
    public var lockPath: String { PathText.join(directory, lockFileName) }

    /// Why the file could not be written: the path and the reason. A run it ends exits 1.
    public struct WriteFailure: ExitStatusConvertible, Sendable, Hashable {
        public var path: String
        public var reason: String
        public var exitStatus: ExitStatus { .failure }
    }

    // MARK: Reading

    /// What reading the file found.
    public enum Contents: Sendable, Hashable {
        /// No file (or no directory).
        case missing
        /// It cannot be read: why.
        case unreadable(String)
        /// Larger than `maximumSize`: its size when `fstat` said so, nil when it grew while being read.
        case tooLarge(Int?)
        case contents(Data)
    }

    /// Reads the file, bounded: opens it (without blocking on a FIFO), checks on the descriptor that it is a regular
    /// file of at most `maximumSize` bytes before reading anything, then reads at most one byte more than that.
    public func read() -> Contents {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .missing }
            return .unreadable(Self.lastErrorText())
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .unreadable("fstat: \(Self.lastErrorText())") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .unreadable("it is a directory")
        default: return .unreadable("not a regular file")
        }
        guard info.st_size <= maximumSize else { return .tooLarge(Int(info.st_size)) }
        switch Self.readBounded(fd, limit: maximumSize, using: readSystemCall) {
        case .success(let data): return data.count > maximumSize ? .tooLarge(nil) : .contents(data)
        case .failure(let error): return .unreadable(error.text)
        }
    }

    package struct ReadFailure: Error {
        package var text: String
    }

    /// Reads `fd` to its end, or until `limit + 1` bytes have been read: never asks `read` for more than that in all.
    package static func readBounded(_ fd: Int32, limit: Int, using read: ReadSystemCall) -> Result<Data, ReadFailure> {
        let capacity = limit + 1
        var data = Data(count: capacity)
        var total = 0
        let failure: ReadFailure? = data.withUnsafeMutableBytes { buffer -> ReadFailure? in
            while total < capacity {
                let count = read(fd, buffer.baseAddress! + total, capacity - total)
                if count == 0 { return nil }
                if count < 0 {
                    if errno == EINTR { continue }
                    return ReadFailure(text: lastErrorText())
                }
                total += min(count, capacity - total)
            }
            return nil
        }
        if let failure { return .failure(failure) }
        data.count = total
        return .success(data)
    }

    // MARK: Writing

    /// Runs `body` holding the exclusive lock (creating the directory first); `replace(with:)` and `remove()` are
    /// called inside it. Temporary files a crashed writer left are removed first.
    public func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        try ensureDirectory()
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteFailure(path: lockPath, reason: Self.lastErrorText()) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR {
                throw WriteFailure(path: lockPath, reason: "cannot lock: \(Self.lastErrorText())")
            }
        }
        defer { flock(fd, LOCK_UN) }
        removeStaleTemporaryFiles()
        return try body()
    }

    /// Temp file in the same directory → write → fsync → rename over → fsync the directory. Under the lock.
    public func replace(with data: Data) throws {
        let temporary = PathText.join(
            directory, "\(temporaryPrefix)\(getpid()).\(UInt32.random(in: 0...UInt32.max))\(Self.temporarySuffix)")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteFailure(path: temporary, reason: Self.lastErrorText()) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(fd) }
            try data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw WriteFailure(path: temporary, reason: Self.lastErrorText())
                    }
                    offset += written
                }
            }
            guard fsync(fd) == 0 else {
                throw WriteFailure(path: temporary, reason: "fsync: \(Self.lastErrorText())")
            }
        }
        guard rename(temporary, path) == 0 else {
            throw WriteFailure(path: path, reason: "rename: \(Self.lastErrorText())")
        }
        renamed = true
        try syncDirectory()
    }

    /// Removes the file (no file is fine). Under the lock.
    public func remove() throws {
        if unlink(path) != 0, errno != ENOENT {
            throw WriteFailure(path: path, reason: Self.lastErrorText())
        }
        try syncDirectory()
    }

    /// Creates the directory (0700) if needed.
    package func ensureDirectory() throws {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            if isDirectory { return }
            throw WriteFailure(path: directory, reason: "it exists and is not a directory")
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
        } catch {
            // Another process may have created it meanwhile.
            if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory {
                return
            }
            throw WriteFailure(path: directory, reason: AppManifest.describe(error))
        }
    }

    private var temporaryPrefix: String { "." + fileName + "." }
    private static let temporarySuffix = ".tmp"

    /// Temporary files left by a writer that crashed: safe to remove under the lock (no live writer has one).
    private func removeStaleTemporaryFiles() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(temporaryPrefix) && name.hasSuffix(Self.temporarySuffix) {
            unlink(PathText.join(directory, name))
        }
    }

    private func syncDirectory() throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw WriteFailure(path: directory, reason: Self.lastErrorText()) }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            throw WriteFailure(path: directory, reason: "fsync: \(Self.lastErrorText())")
        }
    }

    package static func lastErrorText() -> String { String(cString: strerror(errno)) }
}
