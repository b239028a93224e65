import Bonjour
import GameClient
import GameProtocol
import Localization
import LocalNetworkPrivacy

/// What `browse --all-types` asks for.
public struct ServiceTypesRequest: Sendable {
    /// How long to collect the types announced on the network.
    public var duration: Duration
    /// How long to wait for local network permission (nil: until it comes).
    public var waitTimeout: Duration?
    /// Which screen or command asks (the gate logs it).
    public var origin: OperationOrigin

    public init(duration: Duration, waitTimeout: Duration? = nil, origin: OperationOrigin) {
        self.duration = duration
        self.waitTimeout = waitTimeout
        self.origin = origin
    }
}

/// Lists every service type on the local network (`browse --all-types`): the gate's `browseServiceTypes` first (the
/// multicast entitlement: without it exit 15 at once and no prompt; then permission, waited for and saying why),
/// then the types announced within `request.duration`, reported sorted at the end: `.serviceTypeCount`, then a
/// `.serviceType` each. Without a daemon it ends at once with `.bonjourUnavailable`.
public func browseServiceTypes(
    _ request: ServiceTypesRequest, gate: LocalNetworkGate, clock: any Clock<Duration>, reporter: MatchReporter
) async -> ExitStatus {
    let capability: ServiceTypesBrowseCapability
    do {
        capability = try await LocalNetworkAccess(gate: gate, clock: clock).obtain(
            { $0.browseServiceTypes(for: request.origin) }, waitTimeout: request.waitTimeout,
            onWaiting: { reporter.report(.connectionState(.waiting(.notAllowed($0)))) })
    } catch {
        return reportFailure(error, reporter: reporter, stop: nil)
    }
    return await browseServiceTypes(
        ServiceTypeBrowser(capability: capability), duration: request.duration, clock: clock, reporter: reporter)
}

/// Collects the types `browser` lists for `duration` (on `clock`) and reports them at the end; a daemon that is not
/// there (or goes away) ends it with `.bonjourUnavailable`.
func browseServiceTypes(
    _ browser: ServiceTypeBrowsing, duration: Duration, clock: some Clock<Duration>,
    reporter: MatchReporter
) async -> ExitStatus {
    let events = browser.events()  // before the timer: its stop ends this subscription
    let timer = Task {
        try? await clock.sleep(for: duration)
        browser.stop()
    }
    defer { timer.cancel() }
    var types: [ServiceType] = []
    var failure: BonjourError?
    await follow(browser, events) { event in
        switch event {
        case .updated(let list): types = list
        case .unavailable(let error): failure = error
        case .available: break
        }
        return failure == nil
    }
    if let failure { return reportFailure(failure, reporter: reporter, stop: nil) }
    reporter.report(.discovery(.serviceTypeCount(types.count)))
    for type in types.sorted() {
        reporter.report(.discovery(.serviceType(name: type.name, domain: type.domain)))
    }
    return .success
}

/// Lists the service types on the local network while access is allowed, until cancelled (the TUI's "All services
/// on this network"): waits for permission (saying why), queries, and when access is turned off stops at once,
/// empties the list with the reason, and waits again. Returns false when it could not query at all (`.failed`: the
/// multicast entitlement missing, no manifest).
@discardableResult
public func watchServiceTypes(
    gate: LocalNetworkGate, origin: OperationOrigin, clock: any Clock<Duration>,
    makeBrowser: @escaping @Sendable (ServiceTypesBrowseCapability) -> ServiceTypeBrowsing = {
        ServiceTypeBrowser(capability: $0)
    },
    onUpdate: @escaping @Sendable (ServiceTypesUpdate) -> Void
) async -> Bool {
    do {
        try await LocalNetworkAccess(gate: gate, clock: clock).whileAllowed(
            { $0.browseServiceTypes(for: origin) }, onWaiting: { onUpdate(.waiting($0)) }
        ) { capability in
            // The events end when the session is cancelled (access turned off, or leaving).
            let browser = makeBrowser(capability)
            await follow(browser, browser.events()) { event in
                switch event {
                case .available: onUpdate(.available)
                case .unavailable(let error): onUpdate(.unavailable(error.description))
                case .updated(let types): onUpdate(.types(types.map(\.name)))
                }
                return true
            }
        }
        return true
    } catch LocalNetworkAccessError.refused(.missingEntitlement(let key, _)) {
        onUpdate(.failed(tr("Cannot use the local network: the app is not entitled to %@", key)))
        return false
    } catch {
        onUpdate(.failed("\(error)"))
        return false
    }
}

/// The one loop over a service-type browser, for a one-shot listing and a live one alike: starts `browser` and hands
/// each of its `events` (a subscription made before) to `keepGoing` until they end or `keepGoing` returns false; then
/// stops the browser.
private func follow(
    _ browser: ServiceTypeBrowsing, _ events: AsyncStream<ServiceTypeEvent>, _ keepGoing: (ServiceTypeEvent) -> Bool
) async {
    browser.start()
    for await event in events {
        guard keepGoing(event) else { break }
    }
    browser.stop()
}
