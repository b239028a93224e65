import GameProtocol
import Synchronization

/// The clock behind a `MatchSession`'s turn time limit: times the one turn the session asks for (`.startTurnTimer`
/// replaces the timed one, `.stopTurnTimer` stops it) and reports its end to `onExpiry`. The session decides what is
/// timed and what happens then; this only measures time, on the clock it is given: the match's, the same code with
/// the real clock and with a clock a test advances.
///
/// It re-arms lazily: a turn that starts while a timer is armed for an earlier time only records its deadline, and a
/// turn that ends only forgets it; the armed timer, when it fires, reports a turn that ran out or arms again for the
/// one being timed. A turn then costs a clock read, not a sleeping task and its cancellation.
final class TurnTimer: Sendable {
    /// Runs the closure after the delay unless the returned cancel is called first.
    typealias Schedule = @Sendable (Duration, @escaping @Sendable () -> Void) -> @Sendable () -> Void

    private let schedule: Schedule
    private let onExpiry: @Sendable (MatchSession.PeerTurn) -> Void
    /// The time on the scheduler's clock.
    private let now: @Sendable () -> Duration
    private let state = Mutex(State())

    private struct State {
        /// The turn being timed and when it runs out.
        var timed: (turn: MatchSession.PeerTurn, deadline: Duration)?
        /// Cancels the armed timer, and when it fires (a deadline no later than `timed`'s).
        var armed: (cancel: @Sendable () -> Void, at: Duration)?
        /// Counts armings, so that a timer replaced while firing does nothing.
        var generation = 0
    }

    /// A timer on `clock`: each arming is a task sleeping on it.
    convenience init<C: Clock>(
        clock: C, onExpiry: @escaping @Sendable (MatchSession.PeerTurn) -> Void
    ) where C.Duration == Duration {
        let elapsed = clock.stopwatch()
        self.init(schedule: { delay, fire in
            let task = Task {
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return  // cancelled: the match is over
                }
                fire()
            }
            return { task.cancel() }
        }, now: elapsed, onExpiry: onExpiry)
    }

    /// A timer on any scheduler whose time is `now` (`LazyTurnTimerTests` count what it schedules).
    init(
        schedule: @escaping Schedule, now: @escaping @Sendable () -> Duration,
        onExpiry: @escaping @Sendable (MatchSession.PeerTurn) -> Void
    ) {
        self.schedule = schedule
        self.onExpiry = onExpiry
        self.now = now
    }

    /// Starts timing `turn`: after `limit`, `onExpiry(turn)` (unless `start` or `stop` comes first).
    func start(_ turn: MatchSession.PeerTurn, limit: Duration) {
        let deadline = now() + limit
        let replaced = state.withLock { state -> (@Sendable () -> Void)?? in
            state.timed = (turn, deadline)
            if let at = state.armed?.at, at <= deadline { return .none }  // fires in time: looks again then
            return .some(state.armed.replace(with: nil)?.cancel)
        }
        guard case .some(let cancel) = replaced else { return }
        cancel?()
        arm(for: deadline)
    }

    /// Stops timing the turn, if any. (The timer stays armed and finds nothing to report.)
    func stop() {
        state.withLock { $0.timed = nil }
    }

    /// Stops timing and cancels the armed timer: the match is over.
    func cancel() {
        state.withLock { state in
            state.timed = nil
            return state.armed.replace(with: nil)
        }?.cancel()
    }

    /// Arms the lazy timer for `deadline`.
    private func arm(for deadline: Duration) {
        // Armed before it is scheduled, so that a timer that fires at once (a scheduler on another thread) is heard.
        let generation = state.withLock { state in
            state.generation += 1
            state.armed = ({}, deadline)
            return state.generation
        }
        let delay = max(deadline - now(), .zero)
        let cancel = schedule(delay) { [self] in fired(generation) }
        let stale = state.withLock { state -> Bool in
            // Replaced since, or fired already: nothing to keep (cancelling a timer that fired does nothing).
            guard state.generation == generation, state.armed != nil else { return true }
            state.armed = (cancel, deadline)
            return false
        }
        if stale { cancel() }
    }

    /// The lazy timer fired: reports the timed turn if it ran out, or arms again for it.
    private func fired(_ generation: Int) {
        let time = now()
        enum Next { case nothing, expire(MatchSession.PeerTurn), arm(Duration) }
        let next = state.withLock { state -> Next in
            guard state.generation == generation, state.armed != nil else { return .nothing }
            state.armed = nil
            guard let timed = state.timed else { return .nothing }
            guard time >= timed.deadline else { return .arm(timed.deadline) }
            state.timed = nil
            return .expire(timed.turn)
        }
        switch next {
        case .nothing: break
        case .expire(let turn): onExpiry(turn)
        case .arm(let deadline): arm(for: deadline)
        }
    }
}

extension Optional {
    /// Puts `new` in and returns what was there.
    fileprivate mutating func replace(with new: Wrapped?) -> Wrapped? {
        defer { self = new }
        return self
    }
}
