import FoundationEssentials
import Synchronization
import GameProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A request to stop (Ctrl-C, SIGTERM, SIGHUP) that any number of running matches can wait for. Once raised, it stays
/// raised: a match starting later sees it at once.
public final class StopSignal: Sendable {
    private struct State {
        var reason: ByeReason?
        var continuations: [UUID: AsyncStream<ByeReason>.Continuation] = [:]
    }
    private let state = Mutex(State())

    public init() {}

    /// The reason, once raised.
    public var raised: ByeReason? { state.withLock { $0.reason } }

    public func raise(_ reason: ByeReason) {
        let waiting = state.withLock { state -> [AsyncStream<ByeReason>.Continuation] in
            guard state.reason == nil else { return [] }
            state.reason = reason
            return Array(state.continuations.values)
        }
        for continuation in waiting { continuation.yield(reason) }
    }

    /// Yields the reason once raised.
    public func stream() -> AsyncStream<ByeReason> {
        let (stream, continuation) = AsyncStream<ByeReason>.makeStream()
        let id = UUID()
        let raised = state.withLock { state -> ByeReason? in
            if let reason = state.reason { return reason }
            state.continuations[id] = continuation
            return nil
        }
        if let raised {
            continuation.yield(raised)
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }
}

extension StopSignal {
    /// When `output` fails (a reader that closed the pipe, a full disk), the run stops as a shutdown would: a match in
    /// progress tells the peer goodbye with its normal `bye`, and the host takes no further joiner. The run then ends
    /// with exit code 74 (`ExitStatus.unlessOutputFailed`).
    public func raiseWhenFailing(_ output: CheckedOutput = .standardOutput) {
        output.onFailure { [weak self] _ in self?.raise(.shutdown) }
    }
}
