import GameProtocol
import Synchronization

/// The clock behind a `MatchSession`'s turn time limit: runs the one timer the session asks for
/// (`.startTurnTimer` replaces the running one, `.stopTurnTimer` stops it) and reports its end to `onExpiry`. The
/// session decides what is timed and what happens then; this only measures time, on the clock it is given (tests
/// pass a clock they advance).
final class TurnTimer: Sendable {
    private let sleep: @Sendable (Duration) async throws -> Void
    private let onExpiry: @Sendable (MatchSession.PeerTurn) -> Void
    private let running = Mutex<Task<Void, Never>?>(nil)

    init<C: Clock>(
        clock: C, onExpiry: @escaping @Sendable (MatchSession.PeerTurn) -> Void
    ) where C.Duration == Duration {
        self.sleep = { try await clock.sleep(for: $0) }
        self.onExpiry = onExpiry
    }

    /// Starts timing `turn`: after `limit`, `onExpiry(turn)` (unless `start` or `stop` comes first).
    func start(_ turn: MatchSession.PeerTurn, limit: Duration) {
        let sleep = self.sleep
        let onExpiry = self.onExpiry
        let task = Task {
            do {
                try await sleep(limit)
            } catch {
                return  // replaced or stopped
            }
            onExpiry(turn)
        }
        running.withLock { $0.replace(with: task) }?.cancel()
    }

    /// Stops the running timer, if any.
    func stop() {
        running.withLock { $0.replace(with: nil) }?.cancel()
    }
}

extension Optional {
    /// Puts `new` in and returns what was there.
    fileprivate mutating func replace(with new: Wrapped?) -> Wrapped? {
        defer { self = new }
        return self
    }
}
