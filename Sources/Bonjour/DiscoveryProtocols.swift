import LocalNetworkPrivacy

/// Lists games on the local network: the seam a UI consumes (tests use `FakeGameBrowser`).
public protocol GameBrowsing: AnyObject, Sendable {
    /// Starts browsing (again after `stop()`); events follow on every subscription.
    func start()
    /// Stops browsing, releases everything and ends every subscription (subscribe again before a later `start()`).
    func stop()
    /// Names not to list (our own advertised instance).
    func setHiddenNames(_ names: Set<String>)
    /// A new subscription: first the current state (availability, then the list if any), then every change.
    /// The stream ends when the subscriber stops iterating or `stop()` is called.
    func events() -> AsyncStream<BrowserEvent>
    /// The same events to a handler, called on the Bonjour thread (keep it short: hop to your own queue).
    func observe(_ handler: @escaping @Sendable (BrowserEvent) -> Void) -> BonjourSubscription
    /// Resolves a listed game to the endpoints to try.
    func resolve(_ name: String, timeout: Duration) async throws -> ResolvedGame
}

/// Advertises our game: the seam a UI consumes (tests use `FakeGameAdvertiser`).
public protocol GameAdvertising: AnyObject, Sendable {
    /// Advertises `name` on `port` (re-registers if the port changed; after `withdraw()` registers again).
    func advertise(port: Int)
    /// Withdraws the advertisement (the game started); `advertise(port:)` brings it back.
    func withdraw()
    /// Withdraws, waits until the daemon was told, and ends every subscription.
    func stop()
    /// A new subscription: first the current state (if any), then every change.
    func events() -> AsyncStream<AdvertiserEvent>
    /// The same events to a handler, called on the Bonjour thread (keep it short: hop to your own queue).
    func observe(_ handler: @escaping @Sendable (AdvertiserEvent) -> Void) -> BonjourSubscription
}

extension GameBrowsing {
    /// Keeps our own game out of the list: hides the name `advertiser` registered, following Avahi's renames, for as
    /// long as the returned subscription lives.
    public func hideOwnInstance(of advertiser: GameAdvertising) -> BonjourSubscription {
        advertiser.observe { [weak self] event in
            if case .registered(let name) = event { self?.setHiddenNames([name]) }
        }
    }
}

/// Resolves a game name to endpoints.
public protocol GameResolving: Sendable {
    func resolve(_ name: String, timeout: Duration) async throws -> ResolvedGame
}
