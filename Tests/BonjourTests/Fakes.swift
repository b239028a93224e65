@testable import Bonjour
import LocalNetworkPrivacy
import Synchronization

/// A browser for tests of code that shows games (a UI): no daemon, the test says what happens.
public final class FakeGameBrowser: GameBrowsing, Sendable {
    /// What the fake shows, on the loop thread (where the real browser keeps its state too).
    private final class State {
        var broadcaster: EventBroadcaster<BrowserEvent>!
        var availability: BrowserEvent?
        var games: [DiscoveredGame] = []
        var hidden: Set<String> = []
        var started = false

        init(loop: DNSSDLoop) {
            broadcaster = EventBroadcaster(loop: loop) { [weak self] in
                guard let self else { return [] }
                return (availability.map { [$0] } ?? []) + [.updated(visible)]
            }
        }

        var visible: [DiscoveredGame] { games.filter { !hidden.contains($0.name) } }
    }

    private let loop = DNSSDLoop.shared
    private let broadcaster: EventBroadcaster<BrowserEvent>
    private let state: DNSSDLoop.Bound<State>
    private let _resolution = Mutex<@Sendable (String) throws -> ResolvedGame>({
        throw BonjourError.notFound(name: $0)
    })

    /// What `resolve` answers (default: not found).
    public var resolution: @Sendable (String) throws -> ResolvedGame {
        get { _resolution.withLock { $0 } }
        set { _resolution.withLock { $0 = newValue } }
    }

    public init() {
        let state = State(loop: loop)
        broadcaster = state.broadcaster
        self.state = DNSSDLoop.Bound(state, loop: loop)
    }

    public var isStarted: Bool { loop.sync { [state] in state.value.started } }
    public var hiddenNames: Set<String> { loop.sync { [state] in state.value.hidden } }

    public func start() { loop.sync { [state] in state.value.started = true } }
    public func stop() {
        loop.sync { [state] in
            state.value.started = false
            state.value.broadcaster.finishAll()
        }
    }

    public func setHiddenNames(_ names: Set<String>) {
        loop.sync { [state] in
            state.value.hidden = names
            state.value.broadcaster.publish(.updated(state.value.visible))
        }
    }

    public func events() -> AsyncStream<BrowserEvent> { broadcaster.stream() }

    public func observe(_ handler: @escaping @Sendable (BrowserEvent) -> Void) -> BonjourSubscription {
        broadcaster.observe(handler)
    }

    public func resolve(_ name: String, timeout: Duration) async throws -> ResolvedGame { try resolution(name) }

    /// Simulates a new list (as a real browser would report it after debouncing).
    public func show(_ games: [DiscoveredGame]) {
        loop.sync { [state] in
            state.value.games = games
            state.value.broadcaster.publish(.updated(state.value.visible))
        }
    }

    /// Simulates the daemon going away (the list is flushed) or coming back.
    public func setAvailable(_ available: Bool) {
        loop.sync { [state] in
            let event: BrowserEvent = available ? .available : .unavailable(.unavailable)
            state.value.availability = event
            state.value.broadcaster.publish(event)
            if !available {
                state.value.games = []
                state.value.broadcaster.publish(.updated([]))
            }
        }
    }
}

/// An advertiser for tests of code that hosts (a UI): records calls, reports what the test says.
public final class FakeGameAdvertiser: GameAdvertising, Sendable {
    public enum Call: Sendable, Hashable { case advertise(port: Int), withdraw, stop }

    /// What the fake was asked and reports, on the loop thread.
    private final class State {
        var broadcaster: EventBroadcaster<AdvertiserEvent>!
        var state: AdvertiserEvent?
        var calls: [Call] = []

        init(loop: DNSSDLoop) {
            broadcaster = EventBroadcaster(loop: loop) { [weak self] in self?.state.map { [$0] } ?? [] }
        }

        func setState(_ event: AdvertiserEvent) {
            state = event
            broadcaster.publish(event)
        }
    }

    private let loop = DNSSDLoop.shared
    private let broadcaster: EventBroadcaster<AdvertiserEvent>
    private let state: DNSSDLoop.Bound<State>
    /// When set, `advertise` reports `.registered(name)` by itself.
    public let autoRegisterName: String?

    public init(autoRegisterName: String? = nil) {
        self.autoRegisterName = autoRegisterName
        let state = State(loop: loop)
        broadcaster = state.broadcaster
        self.state = DNSSDLoop.Bound(state, loop: loop)
    }

    public var calls: [Call] { loop.sync { [state] in state.value.calls } }

    public func advertise(port: Int) {
        loop.sync { [state, autoRegisterName] in
            state.value.calls.append(.advertise(port: port))
            if let name = autoRegisterName { state.value.setState(.registered(name: name)) }
        }
    }

    public func withdraw() {
        loop.sync { [state] in
            state.value.calls.append(.withdraw)
            state.value.setState(.withdrawn)
        }
    }

    public func stop() {
        loop.sync { [state] in
            state.value.calls.append(.stop)
            state.value.broadcaster.finishAll()
        }
    }

    public func events() -> AsyncStream<AdvertiserEvent> { broadcaster.stream() }

    public func observe(_ handler: @escaping @Sendable (AdvertiserEvent) -> Void) -> BonjourSubscription {
        broadcaster.observe(handler)
    }

    /// Simulates what the daemon says.
    public func report(_ event: AdvertiserEvent) {
        loop.sync { [state] in state.value.setState(event) }
    }
}
