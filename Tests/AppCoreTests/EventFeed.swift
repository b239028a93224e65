import Synchronization

/// The events a fake browser gives: each subscription gets those given so far, then each new one; `finish()` ends
/// every subscription, as a browser's `stop()` does.
final class EventFeed<Event: Sendable>: Sendable {
    private struct State {
        var given: [Event]
        var continuations: [AsyncStream<Event>.Continuation] = []
        var finishes = 0
    }
    private let state: Mutex<State>

    init(_ events: [Event] = []) { state = Mutex(State(given: events)) }

    /// How many times `finish()` was called.
    var finishes: Int { state.withLock { $0.finishes } }
    /// The subscriptions not yet finished.
    var subscribers: Int { state.withLock { $0.continuations.count } }

    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        state.withLock { state in
            for event in state.given { continuation.yield(event) }
            state.continuations.append(continuation)
        }
        return stream
    }

    func send(_ event: Event) {
        let continuations = state.withLock { state in
            state.given.append(event)
            return state.continuations
        }
        for continuation in continuations { continuation.yield(event) }
    }

    func finish() {
        let continuations = state.withLock { state in
            state.finishes += 1
            defer { state.continuations = [] }
            return state.continuations
        }
        for continuation in continuations { continuation.finish() }
    }
}
