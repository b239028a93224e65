@testable import Bonjour
import LocalNetworkPrivacy

/// A browser for tests of code that shows games (a UI): no daemon, the test says what happens.
public final class FakeGameBrowser: GameBrowsing, @unchecked Sendable {
    private let loop = DNSSDLoop.shared
    private var broadcaster: EventBroadcaster<BrowserEvent>!
    // Loop thread only.
    private var availability: BrowserEvent?
    private var games: [DiscoveredGame] = []
    private var hidden: Set<String> = []
    private var _started = false
    /// What `resolve` answers (default: not found).
    public var resolution: @Sendable (String) throws -> ResolvedGame = { throw BonjourError.notFound(name: $0) }

    public init() {
        broadcaster = EventBroadcaster(loop: loop) { [weak self] in
            guard let self else { return [] }
            return (availability.map { [$0] } ?? []) + [.updated(visible)]
        }
    }

    private var visible: [DiscoveredGame] { games.filter { !hidden.contains($0.name) } }

    public var isStarted: Bool { loop.sync { self._started } }
    public var hiddenNames: Set<String> { loop.sync { self.hidden } }

    public func start() { loop.sync { self._started = true } }
    public func stop() {
        loop.sync {
            self._started = false
            self.broadcaster.finishAll()
        }
    }

    public func setHiddenNames(_ names: Set<String>) {
        loop.sync {
            self.hidden = names
            self.broadcaster.publish(.updated(self.visible))
        }
    }

    public func events() -> AsyncStream<BrowserEvent> { broadcaster.stream() }

    public func observe(_ handler: @escaping @Sendable (BrowserEvent) -> Void) -> BonjourSubscription {
        broadcaster.observe(handler)
    }

    public func resolve(_ name: String, timeout: Duration) async throws -> ResolvedGame { try resolution(name) }

    /// Simulates a new list (as a real browser would report it after debouncing).
    public func show(_ games: [DiscoveredGame]) {
        loop.sync {
            self.games = games
            self.broadcaster.publish(.updated(self.visible))
        }
    }

    /// Simulates the daemon going away (the list is flushed) or coming back.
    public func setAvailable(_ available: Bool) {
        loop.sync {
            let event: BrowserEvent = available ? .available : .unavailable(.unavailable)
            self.availability = event
            self.broadcaster.publish(event)
            if !available {
                self.games = []
                self.broadcaster.publish(.updated([]))
            }
        }
    }
}

/// An advertiser for tests of code that hosts (a UI): records calls, reports what the test says.
public final class FakeGameAdvertiser: GameAdvertising, @unchecked Sendable {
    public enum Call: Sendable, Hashable { case advertise(port: Int), withdraw, stop }

    private let loop = DNSSDLoop.shared
    private var broadcaster: EventBroadcaster<AdvertiserEvent>!
    private var state: AdvertiserEvent?
    private var _calls: [Call] = []
    /// When set, `advertise` reports `.registered(name)` by itself.
    public let autoRegisterName: String?

    public init(autoRegisterName: String? = nil) {
        self.autoRegisterName = autoRegisterName
        broadcaster = EventBroadcaster(loop: loop) { [weak self] in self?.state.map { [$0] } ?? [] }
    }

    public var calls: [Call] { loop.sync { self._calls } }

    public func advertise(port: Int) {
        loop.sync {
            self._calls.append(.advertise(port: port))
            if let name = self.autoRegisterName { self.setState(.registered(name: name)) }
        }
    }

    public func withdraw() {
        loop.sync {
            self._calls.append(.withdraw)
            self.setState(.withdrawn)
        }
    }

    public func stop() {
        loop.sync {
            self._calls.append(.stop)
            self.broadcaster.finishAll()
        }
    }

    public func events() -> AsyncStream<AdvertiserEvent> { broadcaster.stream() }

    public func observe(_ handler: @escaping @Sendable (AdvertiserEvent) -> Void) -> BonjourSubscription {
        broadcaster.observe(handler)
    }

    /// Simulates what the daemon says.
    public func report(_ event: AdvertiserEvent) {
        loop.sync { self.setState(event) }
    }

    private func setState(_ event: AdvertiserEvent) {
        state = event
        broadcaster.publish(event)
    }
}
