import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

extension DecisionStore {
    /// The state each time it changes, from this process or any other (the directory is watched with inotify: no
    /// polling). Does not yield the current state first (read it with `read()` after calling `changes()`, so that
    /// nothing is missed in between); repeated writes of the same state yield nothing. The directory is created if
    /// needed so that it can be watched. Watching stops when the stream's consumer is cancelled or drops it.
    ///
    /// If the directory cannot be watched (no inotify), the error is logged and the stream finishes at once.
    public func changes() -> AsyncStream<LocalNetworkAuthorization> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: LocalNetworkAuthorization.self, bufferingPolicy: .bufferingNewest(8)
        )
        do {
            let watch = try watch { state in continuation.yield(state) }
            continuation.onTermination = { _ in watch.cancel() }
        } catch {
            logger.error("cannot watch the local network decision for changes: \(error)")
            continuation.finish()
        }
        return stream
    }

    /// Calls `onChange` with each new state (deduplicated) until the returned watch is cancelled. Watching has
    /// started when this returns.
    func watch(_ onChange: @escaping @Sendable (LocalNetworkAuthorization) -> Void) throws -> DirectoryWatch {
        try ensureDirectory()
        let last = Locked<LocalNetworkAuthorization?>(nil)
        let watch = try DirectoryWatch(directory: directory, names: [Self.fileName]) { [self] in
            let state = read()
            let changed = last.withLock { last -> Bool in
                defer { last = state }
                return last != state
            }
            if changed { onChange(state) }
        }
        // The baseline, read after the watch started: a change from now on is delivered (once).
        let baseline = read()
        last.withLock { $0 = baseline }
        watch.resume()
        return watch
    }
}
