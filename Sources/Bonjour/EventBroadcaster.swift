import Synchronization

/// A subscription to a browser's or advertiser's events; `cancel()` (or deinit) ends it.
public final class BonjourSubscription: Sendable {
    private let onCancel: @Sendable () -> Void
    private let cancelled = Mutex(false)

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    public func cancel() {
        let first = cancelled.withLock { cancelled in
            defer { cancelled = true }
            return !cancelled
        }
        if first { onCancel() }
    }

    deinit { cancel() }
}

/// Fans events out to any number of subscribers. Publishing and a new subscriber's replay of the current state both
/// happen on the loop thread, so every subscriber sees the state and then the changes, in order.
final class EventBroadcaster<Event: Sendable>: Sendable {
    private struct Subscribers {
        var handlers: [Int: @Sendable (Event) -> Void] = [:]
        var finishers: [Int: @Sendable () -> Void] = [:]
        var active: Set<Int> = []
        var nextID = 0
    }

    private let loop: DNSSDLoop
    private let subscribers = Mutex(Subscribers())
    /// The current state as events, for new subscribers (loop thread).
    private let replay: DNSSDLoop.Bound<() -> [Event]>

    init(loop: DNSSDLoop = .shared, replay: @escaping () -> [Event]) {
        self.loop = loop
        self.replay = DNSSDLoop.Bound(replay, loop: loop)
    }

    /// Handlers run on the Bonjour thread: keep them short (hop to your own queue).
    func observe(_ handler: @escaping @Sendable (Event) -> Void) -> BonjourSubscription {
        observe(handler, finish: nil)
    }

    private func observe(_ handler: @escaping @Sendable (Event) -> Void, finish: (@Sendable () -> Void)?)
        -> BonjourSubscription
    {
        let id = subscribers.withLock { subscribers in
            subscribers.nextID += 1
            subscribers.handlers[subscribers.nextID] = handler
            subscribers.finishers[subscribers.nextID] = finish
            return subscribers.nextID
        }
        loop.execute { [self] in
            let handler = subscribers.withLock { subscribers in
                let handler = subscribers.handlers[id]
                if handler != nil { subscribers.active.insert(id) }
                return handler
            }
            guard let handler else { return }
            for event in replay.value() { handler(event) }
        }
        return BonjourSubscription { [weak self] in self?.remove(id) }
    }

    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let subscription = observe({ continuation.yield($0) }, finish: { continuation.finish() })
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }

    private func remove(_ id: Int) {
        subscribers.withLock { subscribers in
            subscribers.handlers[id] = nil
            subscribers.finishers[id] = nil
            subscribers.active.remove(id)
        }
    }

    /// Ends every subscription (streams finish; handlers are dropped).
    func finishAll() {
        let finish = subscribers.withLock { subscribers in
            defer { subscribers = Subscribers(nextID: subscribers.nextID) }
            return Array(subscribers.finishers.values)
        }
        for body in finish { body() }
    }

    /// Loop thread only.
    func publish(_ event: Event) {
        let targets = subscribers.withLock { subscribers in
            subscribers.active.sorted().compactMap { subscribers.handlers[$0] }
        }
        for handler in targets { handler(event) }
    }
}
