import Bonjour
import GameClient
import GameProtocol
import LocalNetworkPrivacy

/// What to browse for.
public struct BrowseRequest: Sendable {
    /// How long to look before reporting the list (with `watch`: how long to watch; nil: until cancelled).
    public var duration: Duration?
    /// Report the whole list at each change, and Bonjour's comings and goings, instead of once at the end.
    public var watch: Bool
    /// How long to wait for local network permission (nil: until it comes).
    public var waitTimeout: Duration?
    /// Which screen or command browses (the gate logs it).
    public var origin: OperationOrigin

    public init(duration: Duration?, watch: Bool, waitTimeout: Duration? = nil, origin: OperationOrigin) {
        self.duration = duration
        self.watch = watch
        self.waitTimeout = waitTimeout
        self.origin = origin
    }
}

/// Lists the games on the local network: waits for permission to browse (saying why), then browses for
/// `request.duration` and reports the list at the end (or each change with `watch`). Without a daemon a one-shot
/// browse ends at once with `.bonjourUnavailable`; a watch reports it and waits for the daemon to return.
public func browseGames(
    _ request: BrowseRequest, gate: LocalNetworkGate, clock: some Clock<Duration>,
    reporter: MatchReporter
) async -> ExitStatus {
    let browse: BrowseCapability
    do {
        browse = try await LocalNetworkAccess(gate: gate, clock: clock).obtain(
            { $0.browse(GameService.type, for: request.origin) }, waitTimeout: request.waitTimeout,
            onWaiting: { reporter.report(.connectionState(.waiting(.notAllowed($0)))) })
    } catch {
        return reportFailure(error, reporter: reporter, stop: nil)
    }
    guard request.watch else {
        return await browseGames(
            GameBrowser(capability: browse), request, list: .onThisMachine(), clock: clock, reporter: reporter)
    }
    // Watching: the list at each change, for as long as asked; turning access off stops browsing at once (it waits,
    // saying why, and resumes when access is back), as the TUI's Search does.
    let watch = Task {
        await searchGames(gate: gate, origin: request.origin, clock: clock) { update in
            switch update {
            case .available: reporter.report(.discovery(.bonjourAvailable))
            case .unavailable(let message): reporter.report(.discovery(.bonjourUnavailable(message: message)))
            case .games(let games): reporter.report(.discovery(.games(games)))
            case .waiting(let reason): reporter.report(.connectionState(.waiting(.notAllowed(reason))))
            case .failed(let text): reporter.report(.error(text, .localNetworkNotAllowed))
            }
        }
    }
    let timer = Task {
        guard let duration = request.duration else { return }
        try? await clock.sleep(for: duration)
        watch.cancel()
    }
    defer { timer.cancel() }
    return await watch.value ? .success : .localNetworkNotAllowed
}

/// Looks for `request.duration` with `browser` and reports the list at the end; without a daemon it ends at once with
/// `.bonjourUnavailable`. (Watching goes through `searchGames`, which also follows the local network decision.)
/// The list is `GameList`'s (the one every front end shows): a game still being looked up at the end is reported as
/// not answering.
func browseGames(
    _ browser: GameBrowsing, _ request: BrowseRequest, list: GameList, clock: some Clock<Duration>,
    reporter: MatchReporter
) async -> ExitStatus {
    let elapsed = clock.stopwatch()
    var list = list
    let events = browser.events()  // before the timer: its stop ends this subscription
    let timer = Task {
        guard let duration = request.duration else { return }
        try? await clock.sleep(for: duration)
        browser.stop()
    }
    defer { timer.cancel() }
    var failure: BonjourError?
    await follow(browser, events, &list, elapsed: elapsed) { event, _ in
        guard case .unavailable(let error) = event else { return true }
        failure = error
        return false
    }
    if let failure { return reportFailure(failure, reporter: reporter, stop: nil) }
    list.finish(at: elapsed())
    if list.games.isEmpty { reporter.report(.discovery(.noGames)) }
    for game in list.games { reporter.report(.discovery(.game(game))) }
    return .success
}

/// Searches for games while local network access is allowed, until cancelled (a UI's Search screen, `browse --watch`):
/// waits for permission (saying why), browses, and when access is turned off (Settings, `privacy deny`) stops
/// browsing at once, empties the list with the reason, and waits again (`LocalNetworkAccess.whileAllowed`). Returns
/// false when it could not browse at all (`.failed`: NoAuth, no manifest).
/// The list is `GameList`'s, on `clock`.
@discardableResult
public func searchGames(
    gate: LocalNetworkGate, origin: OperationOrigin, clock: some Clock<Duration>,
    onUpdate: @escaping @Sendable (DiscoveryUpdate) -> Void
) async -> Bool {
    let elapsed = clock.stopwatch()
    do {
        try await LocalNetworkAccess(gate: gate, clock: clock).whileAllowed(
            { $0.browse(GameService.type, for: origin) }, onWaiting: { onUpdate(.waiting($0)) }
        ) { capability in
            // The events end when the session is cancelled (access turned off, or leaving).
            var list = GameList.onThisMachine()
            let browser = GameBrowser(capability: capability)
            await follow(browser, browser.events(), &list, elapsed: elapsed) { event, list in
                switch event {
                case .available: onUpdate(.available)
                case .unavailable(let error): onUpdate(.unavailable(error.description))
                case .updated: onUpdate(.games(list.games))
                }
                return true
            }
        }
        return true
    } catch LocalNetworkAccessError.refused(.noAuth) {
        onUpdate(.failed("\(LocalNetworkGate.noAuthMessage): \(GameService.type) is not in the app's NSBonjourServices"))
        return false
    } catch {
        onUpdate(.failed("\(error)"))
        return false
    }
}

/// The one loop over a game browser, for a one-shot browse and a live search alike: starts `browser`, keeps `list` up
/// to date with each list its `events` (a subscription made before) report (on `elapsed`), and hands each event with
/// the list after it to `keepGoing`, until the events end or `keepGoing` returns false; then stops the browser.
private func follow(
    _ browser: GameBrowsing, _ events: AsyncStream<BrowserEvent>, _ list: inout GameList, elapsed: () -> Duration,
    _ keepGoing: (BrowserEvent, GameList) -> Bool
) async {
    browser.start()
    for await event in events {
        if case .updated(let games) = event { list.update(games.map(GameListing.init), at: elapsed()) }
        guard keepGoing(event, list) else { break }
    }
    browser.stop()
}
