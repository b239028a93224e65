import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// read(2)'s shape: a descriptor, a buffer and how many bytes it may take; the number read, 0 at the end, or -1
/// (errno).
typealias ReadSystemCall = @Sendable (Int32, UnsafeMutableRawPointer, Int) -> Int

extension DecisionStore {
    /// What reading the decision file found.
    typealias FileContents = LockedFile.Contents

    /// Reads the decision file, bounded (`LockedFile.read()`).
    func readDecisionFile() -> FileContents { file.read() }

    typealias ReadFailure = LockedFile.ReadFailure

    /// Reads `fd` to its end, or until `limit + 1` bytes have been read: never asks `read` for more than that in all.
    static func readBounded(_ fd: Int32, limit: Int, using read: ReadSystemCall) -> Result<Data, ReadFailure> {
        LockedFile.readBounded(fd, limit: limit, using: read)
    }
}
