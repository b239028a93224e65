import Bonjour
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
public func browseGames(_ request: BrowseRequest, gate: LocalNetworkGate, reporter: MatchReporter) async -> ExitStatus {
    let browse: BrowseCapability
    do {
        browse = try await LocalNetworkAccess(gate: gate).obtain(
            { $0.browse(GameService.type, for: request.origin) }, waitTimeout: request.waitTimeout,
            onWaiting: { reporter.report(.connectionState(.waiting(.notAllowed($0)))) })
    } catch {
        return reportFailure(error, reporter: reporter, stop: nil)
    }
    guard request.watch else {
        return await browseGames(GameBrowser(capability: browse), request, reporter: reporter)
    }
    // Watching: the list at each change, for as long as asked; turning access off stops browsing at once (it waits,
    // saying why, and resumes when access is back), as the TUI's Search does.
    let watch = Task {
        await searchGames(gate: gate, origin: request.origin) { update in
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
        try? await Task.sleep(for: duration)
        watch.cancel()
    }
    defer { timer.cancel() }
    return await watch.value ? .success : .localNetworkNotAllowed
}

/// Looks for `request.duration` with `browser` and reports the list at the end; without a daemon it ends at once with
/// `.bonjourUnavailable`. (Watching goes through `searchGames`, which also follows the local network decision.)
func browseGames(_ browser: GameBrowsing, _ request: BrowseRequest, reporter: MatchReporter) async -> ExitStatus {
    let events = browser.events()
    browser.start()
    let timer = Task {
        guard let duration = request.duration else { return }
        try? await Task.sleep(for: duration)
        browser.stop()  // ends the event stream
    }
    defer { timer.cancel() }
    var latest: [DiscoveredGame] = []
    for await event in events {
        switch event {
        case .updated(let games):
            latest = games
        case .unavailable(let error):
            browser.stop()
            return reportFailure(error, reporter: reporter, stop: nil)
        case .available:
            break
        }
    }
    if latest.isEmpty { reporter.report(.discovery(.noGames)) }
    for game in latest { reporter.report(.discovery(.game(GameListing(game)))) }
    return .success
}

/// Searches for games while local network access is allowed, until cancelled (a UI's Search screen): waits for
/// permission (saying why), browses, and when access is turned off (Settings, `privacy deny`) stops browsing at
/// once, empties the list with the reason, and waits again. Returns false when it could not browse at all
/// (`.failed`: NoAuth, no manifest).
@discardableResult
public func searchGames(
    gate: LocalNetworkGate, origin: OperationOrigin, onUpdate: @escaping @Sendable (DiscoveryUpdate) -> Void
) async -> Bool {
    let access = LocalNetworkAccess(gate: gate)
    while !Task.isCancelled {
        let capability: BrowseCapability
        do {
            capability = try await access.obtain({ $0.browse(GameService.type, for: origin) }) { onUpdate(.waiting($0)) }
        } catch is CancellationError {
            return true
        } catch LocalNetworkAccessError.refused(.noAuth) {
            onUpdate(.failed("\(LocalNetworkGate.noAuthMessage): \(GameService.type) is not in the app's NSBonjourServices"))
            return false
        } catch {
            onUpdate(.failed("\(error)"))
            return false
        }
        let browser = GameBrowser(capability: capability)
        let revocations = gate.revocations()
        let events = browser.events()
        browser.start()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case .available: onUpdate(.available)
                    case .unavailable(let error): onUpdate(.unavailable(error.description))
                    case .updated(let games): onUpdate(.games(games.map(GameListing.init)))
                    }
                }
            }
            group.addTask {
                for await _ in revocations { return }  // access turned off (or the search cancelled)
                // The decision cannot be watched (logged): browse until cancelled.
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            }
            await group.next()
            browser.stop()  // at once: ends the events too
            group.cancelAll()
        }
    }
    return true
}
