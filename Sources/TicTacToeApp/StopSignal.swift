import Foundation
import GameProtocol

/// A request to stop (Ctrl-C, SIGTERM, SIGHUP) that any number of running matches can wait for. Once raised, it stays
/// raised: a match starting later sees it at once.
public final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var reason: ByeReason?
    private var continuations: [UUID: AsyncStream<ByeReason>.Continuation] = [:]

    public init() {}

    /// The reason, once raised.
    public var raised: ByeReason? {
        lock.lock()
        defer { lock.unlock() }
        return reason
    }

    public func raise(_ reason: ByeReason) {
        lock.lock()
        let waiting = self.reason == nil ? Array(continuations.values) : []
        if self.reason == nil { self.reason = reason }
        lock.unlock()
        for continuation in waiting { continuation.yield(reason) }
    }

    /// Yields the reason once raised.
    public func stream() -> AsyncStream<ByeReason> {
        let (stream, continuation) = AsyncStream<ByeReason>.makeStream()
        let id = UUID()
        lock.lock()
        if let reason {
            lock.unlock()
            continuation.yield(reason)
            return stream
        }
        continuations[id] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.lock()
            self.continuations[id] = nil
            self.lock.unlock()
        }
        return stream
    }
}
