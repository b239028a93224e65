import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// read(2)'s shape: a descriptor, a buffer and how many bytes it may take; the number read, 0 at the end, or -1
/// (errno).
typealias ReadSystemCall = @Sendable (Int32, UnsafeMutableRawPointer, Int) -> Int

extension DecisionStore {
    /// What reading the decision file found.
    enum FileContents: Hashable {
        /// No file (or no directory): not determined, nothing to warn about.
        case missing
        /// It cannot be read: why.
        case unreadable(String)
        /// Larger than `maximumFileSize`: its size when `fstat` said so, nil when it grew while being read.
        case tooLarge(Int?)
        case contents(Data)
    }

    /// Reads the decision file, bounded: opens it (without blocking on a FIFO), checks on the descriptor that it is a
    /// regular file of at most `maximumFileSize` bytes before reading anything, then reads at most one byte more
    /// than that, so a file that grows in between is cut off too.
    func readDecisionFile() -> FileContents {
        let fd = open(decisionPath, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
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
        guard info.st_size <= Self.maximumFileSize else { return .tooLarge(Int(info.st_size)) }
        switch Self.readBounded(fd, limit: Self.maximumFileSize, using: readSystemCall) {
        case .success(let data): return data.count > Self.maximumFileSize ? .tooLarge(nil) : .contents(data)
        case .failure(let error): return .unreadable(error.text)
        }
    }

    struct ReadFailure: Error {
        var text: String
    }

    /// Reads `fd` to its end, or until `limit + 1` bytes have been read: never asks `read` for more than that in all.
    static func readBounded(_ fd: Int32, limit: Int, using read: ReadSystemCall) -> Result<Data, ReadFailure> {
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
}
