import Synchronization
import XCTest

/// A clock that moves only when the test says so, so that tests of timeouts never sleep: the deterministic time of
/// NIO's HappyEyeballsTest and of swift-clocks' TestClock, for async code. `advance(by:)` wakes the sleeps that come
/// due, one deadline after the other, and returns once each has returned from its `sleep`; `waitForSleepers` waits
/// (without real time) for the code under test to start its sleeps.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Sendable {
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, Error>
    }

    /// A test waiting until enough sleeps have begun and enough wait.
    private struct Watcher {
        var sleeping: Int
        var begun: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        /// Sleeps begun so far (their ids are 0..<begun).
        var begun = 0
        var watchers: [Int: Watcher] = [:]
        var nextWatcher = 0
        /// Woken sleeps that have not yet returned, and the `advance` waiting for that.
        var waking: Set<Int> = []
        var advancing: CheckedContinuation<Void, Never>?

        /// The watchers whose wait is over, removed.
        mutating func satisfiedWatchers() -> [Watcher] {
            let done = watchers.filter { sleepers.count >= $0.value.sleeping && begun >= $0.value.begun }
            for id in done.keys { watchers[id] = nil }
            return Array(done.values)
        }
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting for the clock to move.
    public var sleeping: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> Int in
            defer { state.begun += 1 }
            return state.begun
        }
        defer { returned(id) }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let (resumeNow, watchers) = state.withLock { state -> (Bool, [Watcher]) in
                    if deadline <= state.now || Task.isCancelled { return (true, state.satisfiedWatchers()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (false, state.satisfiedWatchers())
                }
                if resumeNow { continuation.resume() }
                for watcher in watchers { watcher.continuation.resume(returning: true) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    private func returned(_ id: Int) {
        let advancing = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.waking.remove(id) != nil, state.waking.isEmpty else { return nil }
            defer { state.advancing = nil }
            return state.advancing
        }
        advancing?.resume()
    }

    /// Moves the clock on by `duration`: each sleep whose deadline comes wakes in deadline order, the clock showing
    /// its deadline, and this returns once every one of them has returned from `sleep` (what the woken code does
    /// next runs on; wait for what it does, or for its next sleep with `waitForSleepers`).
    public func advance(by duration: Duration) async {
        let target = now.advanced(by: duration)
        while true {
            let next = state.withLock { state -> (id: Int, sleeper: Sleeper)? in
                guard let (id, sleeper) = state.sleepers.filter({ $0.value.deadline <= target })
                    .min(by: { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) })
                else { return nil }
                state.sleepers[id] = nil
                state.now = max(state.now, sleeper.deadline)
                state.waking.insert(id)
                return (id, sleeper)
            }
            guard let next else { break }
            await withCheckedContinuation { (advancing: CheckedContinuation<Void, Never>) in
                state.withLock { $0.advancing = advancing }
                next.sleeper.continuation.resume()
            }
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Moves the clock on by `step` whenever something sleeps on it, until the returned task is cancelled: every
    /// wait ends as soon as it begins, for code whose waits a test need not take one by one.
    public func keepAdvancing(by step: Duration = .milliseconds(100)) -> Task<Void, Never> {
        Task {
            while await sleeperArrives() { await advance(by: step) }
        }
    }

    /// Waits, without real time, until something sleeps on the clock (true) or the waiting task is cancelled (false).
    private func sleeperArrives() async -> Bool {
        let id = state.withLock { state -> Int in
            defer { state.nextWatcher += 1 }
            return state.nextWatcher
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    if !state.sleepers.isEmpty { return true }
                    state.watchers[id] = Watcher(sleeping: 1, begun: 0, continuation: continuation)
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            state.withLock { $0.watchers.removeValue(forKey: id) }?.continuation.resume(returning: false)
        }
    }

    /// Waits until at least `count` sleeps wait for the clock and at least `begun` sleeps have begun in all (the
    /// clock's own record: no real time passes, no polling). After `timeout` of real time, the bound that keeps a
    /// test that never gets there from hanging, it fails the test and returns false.
    @discardableResult
    public func waitForSleepers(
        _ count: Int = 1, begun: Int = 0, timeout: Duration = .seconds(30), file: StaticString = #filePath,
        line: UInt = #line
    ) async -> Bool {
        var bound: Task<Void, Never>?
        defer { bound?.cancel() }
        let reached = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id = state.withLock { state -> Int? in
                if state.sleepers.count >= count && state.begun >= begun { return nil }
                defer { state.nextWatcher += 1 }
                state.watchers[state.nextWatcher] = Watcher(sleeping: count, begun: begun, continuation: continuation)
                return state.nextWatcher
            }
            guard let id else { return continuation.resume(returning: true) }
            bound = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.state.withLock { $0.watchers.removeValue(forKey: id) }?.continuation.resume(returning: false)
            }
        }
        if !reached {
            XCTFail("not within \(timeout): \(count) sleeps waiting (\(sleeping) are) after \(begun) begun", file: file,
                    line: line)
        }
        return reached
    }
}
