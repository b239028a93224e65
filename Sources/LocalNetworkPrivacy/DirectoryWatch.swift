import Dispatch
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Watches one directory with inotify for files named in `names` being written, renamed in or out, created or
/// deleted, and calls `onChange` on its own queue (a DispatchSource read source on the inotify descriptor: no
/// polling). If the directory itself is removed or moved away it is created again and watched anew.
///
/// Built in two steps so that nothing is missed: `init` starts watching (events queue up in the kernel), then the
/// caller reads its baseline, then `resume()` delivers the events.
// @unchecked: the C boundary. It owns an inotify descriptor and the DispatchSource reading it; the descriptor is only
// read on the source's own queue, and start/stop go through `state`'s lock.
final class DirectoryWatch: @unchecked Sendable {
    static let mask =
        UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_CREATE | IN_MOVED_FROM)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)

    private let directory: String
    private let names: Set<String>
    private let fd: Int32
    private let source: DispatchSourceRead
    private let state = Locked<(resumed: Bool, cancelled: Bool)>((false, false))

    /// Starts watching `directory` (which must exist). Throws `DecisionStoreError` when inotify is unavailable.
    init(directory: String, names: Set<String>, onChange: @escaping @Sendable () -> Void) throws {
        self.directory = directory
        self.names = names
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            throw DecisionStoreError.cannotWrite(
                path: directory, reason: "cannot watch (inotify_init1: \(DecisionStore.lastErrorText()))")
        }
        guard inotify_add_watch(fd, directory, Self.mask) >= 0 else {
            let reason = DecisionStore.lastErrorText()
            close(fd)
            throw DecisionStoreError.cannotWrite(path: directory, reason: "cannot watch (inotify_add_watch: \(reason))")
        }
        self.fd = fd
        source = DispatchSource.makeReadSource(
            fileDescriptor: fd, queue: DispatchQueue(label: "tictactoe.privacy.watch"))
        source.setEventHandler { [directory, names] in
            if Self.drain(fd: fd, names: names, directory: directory) { onChange() }
        }
        source.setCancelHandler { close(fd) }
    }

    /// Starts delivering events (those that arrived since `init` included).
    func resume() {
        let start = state.withLock { state -> Bool in
            defer { state.resumed = true }
            return !state.resumed && !state.cancelled
        }
        if start { source.resume() }
    }

    /// Stops watching and closes the inotify descriptor. Idempotent.
    func cancel() {
        let wasResumed = state.withLock { state -> Bool? in
            if state.cancelled { return nil }
            state.cancelled = true
            return state.resumed
        }
        guard let wasResumed else { return }
        source.cancel()
        // A source that was never resumed must be resumed once for its cancel handler to run.
        if !wasResumed { source.resume() }
    }

    deinit { cancel() }

    /// Reads every pending event; true when one concerns a watched name (or the directory itself, or the queue
    /// overflowed). Re-creates and re-watches the directory when it was removed.
    private static func drain(fd: Int32, names: Set<String>, directory: String) -> Bool {
        let headerSize = MemoryLayout<inotify_event>.size
        var relevant = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                break  // EAGAIN: drained
            }
            if count == 0 { break }
            var offset = 0
            while offset + headerSize <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                var name = ""
                if length > 0 {
                    let bytes = buffer[(offset + headerSize)..<min(offset + headerSize + length, count)]
                    name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                offset += headerSize + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    relevant = true
                } else if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    relevant = true
                    if mask & UInt32(IN_MOVE_SELF) != 0 {
                        inotify_rm_watch(fd, watch)  // it now watches the moved directory: IN_IGNORED follows
                    }
                    if mask & UInt32(IN_IGNORED) != 0 {
                        // The directory went away: watch a new one where it was.
                        try? FileManager.default.createDirectory(
                            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
                        )
                        _ = inotify_add_watch(fd, directory, Self.mask)
                    }
                } else if names.contains(name) {
                    relevant = true
                }
            }
        }
        return relevant
    }
}
