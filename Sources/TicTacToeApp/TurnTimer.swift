import GameProtocol
import Synchronization

/// The clock behind a `MatchSession`'s turn time limit: runs the one timer the session asks for
/// (`.startTurnTimer` replaces the running one, `.stopTurnTimer` stops it) and reports its end to `onExpiry`. The
/// session decides what is timed and what happens then; this only measures time, on the clock it is given (tests
/// pass a clock they advance).
final class TurnTimer: Sendable {
    /// Runs the closure after the delay unless the returned cancel is called first.
    typealias Schedule = @Sendable (Duration, @escaping @Sendable () -> Void) -> @Sendable () -> Void

    private let schedule: Schedule
    private let onExpiry: @Sendable (MatchSession.PeerTurn) -> Void
    /// Cancels the running timer.
    private let running = Mutex<(@Sendable () -> Void)?>(nil)

    init<C: Clock>(
        clock: C, onExpiry: @escaping @Sendable (MatchSession.PeerTurn) -> Void
    ) where C.Duration == Duration {
        self.schedule = { delay, fire in
            let task = Task {
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return  // replaced or stopped
                }
                fire()
            }
            return { task.cancel() }
        }
        self.onExpiry = onExpiry
    }

    /// A timer on another scheduler (a match's event loop: `PeerLink.schedule`), which needs no task and no thread
    /// hop per turn.
    init(schedule: @escaping Schedule, onExpiry: @escaping @Sendable (MatchSession.PeerTurn) -> Void) {
        self.schedule = schedule
        self.onExpiry = onExpiry
    }

    /// Starts timing `turn`: after `limit`, `onExpiry(turn)` (unless `start` or `stop` comes first).
    func start(_ turn: MatchSession.PeerTurn, limit: Duration) {
        let onExpiry = self.onExpiry
        let cancel = schedule(limit) { onExpiry(turn) }
        running.withLock { $0.replace(with: cancel) }?()
    }

    /// Stops the running timer, if any.
    func stop() {
        running.withLock { $0.replace(with: nil) }?()
    }
}

extension Optional {
    /// Puts `new` in and returns what was there.
    fileprivate mutating func replace(with new: Wrapped?) -> Wrapped? {
        defer { self = new }
        return self
    }
}
