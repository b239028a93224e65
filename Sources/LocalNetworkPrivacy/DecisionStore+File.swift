import AppManifest
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// read(2)'s shape (`LockedFile`'s): what the store reads its file with, or what a test puts in its place.
typealias ReadSystemCall = LockedFile.ReadSystemCall

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
