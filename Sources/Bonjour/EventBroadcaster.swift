import Foundation

/// A subscription to a browser's or advertiser's events; `cancel()` (or deinit) ends it.
public final class BonjourSubscription: @unchecked Sendable {
    private let onCancel: @Sendable () -> Void
    private let lock = NSLock()
    private var cancelled = false

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    public func cancel() {
        lock.lock()
        let first = !cancelled
        cancelled = true
        lock.unlock()
        if first { onCancel() }
    }

    deinit { cancel() }
}

/// Fans events out to any number of subscribers. Publishing and a new subscriber's replay of the current state both
/// happen on the loop thread, so every subscriber sees the state and then the changes, in order.
final class EventBroadcaster<Event: Sendable>: @unchecked Sendable {
    private let loop: DNSSDLoop
    private let lock = NSLock()
    private var handlers: [Int: @Sendable (Event) -> Void] = [:]
    private var finishers: [Int: @Sendable () -> Void] = [:]
    private var active: Set<Int> = []
    private var nextID = 0
    /// The current state as events, for new subscribers (loop thread).
    private let replay: () -> [Event]

    init(loop: DNSSDLoop = .shared, replay: @escaping () -> [Event]) {
        self.loop = loop
        self.replay = replay
    }

    /// Handlers run on the Bonjour thread: keep them short (hop to your own queue).
    func observe(_ handler: @escaping @Sendable (Event) -> Void) -> BonjourSubscription {
        observe(handler, finish: nil)
    }

    private func observe(_ handler: @escaping @Sendable (Event) -> Void, finish: (@Sendable () -> Void)?)
        -> BonjourSubscription
    {
        lock.lock()
        nextID += 1
        let id = nextID
        handlers[id] = handler
        finishers[id] = finish
        lock.unlock()
        loop.execute { [self] in
            lock.lock()
            let handler = handlers[id]
            if handler != nil { active.insert(id) }
            lock.unlock()
            guard let handler else { return }
            for event in replay() { handler(event) }
        }
        return BonjourSubscription { [weak self] in self?.remove(id) }
    }

    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let subscription = observe({ continuation.yield($0) }, finish: { continuation.finish() })
        let box = SubscriptionBox(subscription)
        continuation.onTermination = { _ in box.subscription.cancel() }
        return stream
    }

    private final class SubscriptionBox: @unchecked Sendable {
        let subscription: BonjourSubscription
        init(_ subscription: BonjourSubscription) { self.subscription = subscription }
    }

    private func remove(_ id: Int) {
        lock.lock()
        handlers[id] = nil
        finishers[id] = nil
        active.remove(id)
        lock.unlock()
    }

    /// Ends every subscription (streams finish; handlers are dropped).
    func finishAll() {
        lock.lock()
        let finish = Array(finishers.values)
        handlers = [:]
        finishers = [:]
        active = []
        lock.unlock()
        for body in finish { body() }
    }

    /// Loop thread only.
    func publish(_ event: Event) {
        lock.lock()
        let targets = active.sorted().compactMap { handlers[$0] }
        lock.unlock()
        for handler in targets { handler(event) }
    }
}
