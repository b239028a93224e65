import CDNSSD
import FoundationEssentials
import LocalNetworkPrivacy
import Logging

/// Browses `_tictactoe._tcp` on the local network and keeps the list of games: live add/remove, deduplicated by name
/// across interfaces and IP versions, debounced (a lone change and a finished lookup go out at once, bursts are
/// coalesced), each instance resolved to read its TXT record, host and addresses (games without our protocol version
/// are listed as incompatible, and so are those whose record names no address on the LAN; one whose resolve gets no
/// answer as not answering, resolved again when Bonjour announces it again, and every `notAnsweringRetry` while it is
/// listed; a game that answered is looked up again quietly every `refreshInterval`, so that one whose host went away
/// is not listed as joinable for as long as its service record stays cached), our own instance hidden
/// (`setHiddenNames`). A game is listed while Bonjour lists it. The TXT record of a game that answered is followed
/// by a query kept open while it is listed: a host that starts or ends a match, or restarts under the same name, is
/// relisted as soon as its daemon announces it, not at the next refresh.
///
/// Without a daemon, or when it dies, subscribers get `.unavailable` and an empty list; the browse is retried with
/// backoff and resumes by itself (`.available`, then a fresh list) when the daemon is back.
///
/// Thread-safe; the work and the event handlers run on the Bonjour thread (see `DNSSDLoop`), where the browse's state
/// lives (`BrowserState`).
public final class GameBrowser: GameBrowsing, Sendable {
    public struct Configuration: Sendable {
        /// List updates wait for this long without changes…
        public var debounceQuiet: Duration = .milliseconds(100)
        /// …but not longer than this after the first change.
        public var debounceMaxDelay: Duration = .milliseconds(400)
        /// Retry delays while the daemon is away.
        public var backoff = Backoff()
        /// How long resolving an instance (TXT record and addresses) may take before it is listed as not answering.
        public var classifyTimeout: Duration = .seconds(5)
        /// How long a game that did not answer waits before it is tried again, for as long as Bonjour lists it (a
        /// host that comes back is not always announced again: its records may have stayed in the daemon's cache).
        public var notAnsweringRetry: Duration = .seconds(15)
        /// How often a game that answered is looked up again (quietly: it stays listed as it was unless the answer
        /// changes, or there is none). `TICTACTOE_BROWSE_REFRESH=SECONDS` in the environment sets it (the lab's tests
        /// show with it that a TXT change does not wait for a refresh).
        public var refreshInterval: Duration = refreshFromEnvironment ?? .seconds(20)

        static let refreshFromEnvironment: Duration? = {
            guard let text = ProcessInfo.processInfo.environment["TICTACTOE_BROWSE_REFRESH"],
                  let seconds = Double(text), seconds > 0, seconds <= 86_400
            else { return nil }
            return Duration.milliseconds(Int(seconds * 1000))
        }()

        public init() {}
    }

    private let loop: DNSSDLoop
    private let resolver: GameResolver
    /// The gate's permission: the type browsed is the one it cleared.
    public let capability: BrowseCapability
    private let broadcaster: EventBroadcaster<BrowserEvent>
    private let state: DNSSDLoop.Bound<BrowserState>

    /// Browses `capability`'s service type (the gate cleared it: see `LocalNetworkGate.browse`).
    public init(
        capability: BrowseCapability, configuration: Configuration = .init(),
        logger: Logger = Logger(label: "tictactoe.bonjour.browser")
    ) {
        self.capability = capability
        self.resolver = GameResolver(capability: capability)
        self.loop = .shared
        let state = BrowserState(
            serviceType: capability.serviceType, configuration: configuration, logger: logger, loop: loop
        )
        self.broadcaster = state.broadcaster
        self.state = DNSSDLoop.Bound(state, loop: loop)
    }

    deinit {
        let state = self.state
        loop.execute { state.value.abandon() }
    }

    public func start() {
        loop.execute { [state] in state.value.start() }
    }

    public func stop() {
        loop.sync { [state] in state.value.stop() }
    }

    public func setHiddenNames(_ names: Set<String>) {
        loop.execute { [state] in state.value.setHiddenNames(names) }
    }

    public func events() -> AsyncStream<BrowserEvent> { broadcaster.stream() }

    /// Events to a handler on the Bonjour thread (keep it short: hop to your own queue).
    public func observe(_ handler: @escaping @Sendable (BrowserEvent) -> Void) -> BonjourSubscription {
        broadcaster.observe(handler)
    }

    public func resolve(_ name: String, timeout: Duration = .seconds(5)) async throws -> ResolvedGame {
        try await resolver.resolve(name, timeout: timeout)
    }
}

/// The browse itself, on the loop thread only.
private final class BrowserState {
    private let serviceType: String
    private let configuration: GameBrowser.Configuration
    private let logger: Logger
    private let loop: DNSSDLoop
    private(set) var broadcaster: EventBroadcaster<BrowserEvent>!

    private var running = false
    private var browseRef: ServiceRef?
    private var registry = BrowseRegistry()
    private var debouncer: Debouncer
    private var backoff: Backoff
    private var retryTimer: DNSSDLoop.TimerID?
    private var flushTimer: DNSSDLoop.TimerID?
    private var hidden: Set<String> = []
    private var classifying: [String: ResolveOperation] = [:]
    /// Listed games, each with the timer that looks it up again (`notAnsweringRetry`, `refreshInterval`).
    private var retryTimers: [String: DNSSDLoop.TimerID] = [:]
    /// Listed games that answered, each with the query of its TXT record kept open.
    private var txtQueries: [String: ServiceRef] = [:]
    /// Each query is a client of the daemon of its own (Avahi's library: one D-Bus connection per reference, and the
    /// system bus allows a user 256): a list longer than this is followed by its refresh alone beyond it.
    static let maxTXTQueries = 64
    private var availability: BrowserEvent?
    private var lastList: [DiscoveredGame] = []

    init(serviceType: String, configuration: GameBrowser.Configuration, logger: Logger, loop: DNSSDLoop) {
        self.serviceType = serviceType
        self.configuration = configuration
        self.logger = logger
        self.loop = loop
        self.debouncer = Debouncer(quiet: configuration.debounceQuiet, maxDelay: configuration.debounceMaxDelay)
        self.backoff = configuration.backoff
        self.broadcaster = EventBroadcaster(loop: loop) { [weak self] in
            guard let self else { return [] }
            return (availability.map { [$0] } ?? []) + [.updated(lastList)]
        }
    }

    /// The browser is gone: release the references (callbacks and timers find nothing to do).
    func abandon() {
        browseRef?.cancel()
        for operation in classifying.values { operation.cancel() }
        for query in txtQueries.values { query.cancel() }
    }

    func start() {
        guard !running else { return }
        running = true
        attemptBrowse()
    }

    func stop() {
        running = false
        loop.cancelTimer(retryTimer)
        loop.cancelTimer(flushTimer)
        retryTimer = nil
        flushTimer = nil
        dropResults()
        availability = nil
        lastList = []
        backoff.reset()
        broadcaster.finishAll()
    }

    func setHiddenNames(_ names: Set<String>) {
        hidden = names
        if running { emitList() }
    }


    private func attemptBrowse() {
        retryTimer = nil
        guard running else { return }
        let context = BrowseContext { [weak self] flags, interface, error, name in
            self?.browsed(flags: flags, interface: interface, error: error, name: name)
        }
        let type = serviceType
        let result = ServiceRef.make(loop: loop, context: context, onFailure: { [weak self] in self?.lost($0) }) {
            $0.browse($1, 0, 0, type, GameService.domain, BrowseContext.callback, $2)
        }
        switch result {
        case .success(let ref):
            logger.debug("browsing \(type)")
            browseRef = ref
            backoff.reset()
            setAvailability(.available)
        case .failure(let error):
            logger.debug("browse failed: \(error)")
            setAvailability(.unavailable(error))
            scheduleRetry()
        }
    }

    private func browsed(flags: DNSServiceFlags, interface: UInt32, error: DNSServiceErrorType, name: String?) {
        guard error == kDNSServiceErr_NoError else {
            lost(BonjourError(code: error))
            return
        }
        guard let name else { return }
        if flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0 {
            logger.trace("add \(name) on \(interface)")
            if registry.add(name, interface: interface) == .appeared { classify(name) }
        } else {
            logger.trace("remove \(name) on \(interface)")
            if registry.remove(name, interface: interface) == .disappeared {
                classifying.removeValue(forKey: name)?.cancel()
                txtQueries.removeValue(forKey: name)?.cancel()
                loop.cancelTimer(retryTimers.removeValue(forKey: name))
            }
        }
        changed()
    }

    /// Resolves a new (or re-announced) instance: its TXT record, host and addresses.
    private func classify(_ name: String) {
        classifying[name]?.cancel()
        loop.cancelTimer(retryTimers.removeValue(forKey: name))
        // A game being looked up is listed at its first address (not `addressGrace` later), then with all
        // of them when the lookup ends; a quiet refresh keeps the game as it is listed until then.
        let progress: ResolveOperation.Progress = { [weak self] game in
            guard let self, registry.isPending(name) else { return }
            registry.classify(
                name, as: game.compatibility, activity: game.activity, host: game.hostTarget,
                addresses: game.endpoints.map(\.host), refused: game.refusedAddresses)
            settled()
        }
        let operation = ResolveOperation(
            name: name, type: serviceType, wantAddresses: true, timeout: configuration.classifyTimeout, loop: loop,
            progress: progress
        ) { [weak self] result in
            guard let self else { return }
            classifying[name] = nil
            switch result {
            case .success(let game):
                registry.classify(
                    name, as: game.compatibility, activity: game.activity, host: game.hostTarget,
                    addresses: game.endpoints.map(\.host), refused: game.refusedAddresses)
                watchTXT(of: name)
                retryTimers[name] = loop.schedule(after: configuration.refreshInterval) { [weak self] in
                    guard let self else { return }
                    retryTimers[name] = nil
                    if registry.isPresent(name) { classify(name) }  // quietly: listed as it was meanwhile
                }
            case .failure(let error):
                logger.debug("could not resolve \(name): \(error)")
                registry.notAnswering(name)
                retryTimers[name] = loop.schedule(after: configuration.notAnsweringRetry) { [weak self] in
                    guard let self else { return }
                    retryTimers[name] = nil
                    if registry.retry(name) {
                        classify(name)
                        changed()
                    }
                }
            }
            settled()
        }
        classifying[name] = operation
        operation.start()
    }

    /// Keeps a query of `name`'s TXT record open while it is listed: each record the daemon reports (a change the host
    /// announces, a restarted host's) relists the game at once. Without one (the query failed, or `maxTXTQueries` are
    /// open) the refresh still catches a change.
    private func watchTXT(of name: String) {
        guard txtQueries[name] == nil, txtQueries.count < Self.maxTXTQueries else { return }
        let context = QueryContext { [weak self] flags, interface, error, type, data in
            guard let self else { return }
            guard error == kDNSServiceErr_NoError else {
                txtQueries.removeValue(forKey: name)?.cancel()  // the next refresh asks again
                return
            }
            guard type == UInt16(kDNSServiceType_TXT) else { return }
            let added = flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0
            if registry.txt(data, of: name, interface: interface, added: added) { settled() }
        }
        let fullName = GameService.fullName(instance: name, type: serviceType)
        let result = ServiceRef.make(loop: loop, context: context, onFailure: { [weak self] _ in
            self?.txtQueries[name] = nil
        }) {
            $0.queryRecord($1, 0, 0, fullName, UInt16(kDNSServiceType_TXT), UInt16(kDNSServiceClass_IN),
                           QueryContext.callback, $2)
        }
        if case .success(let ref) = result { txtQueries[name] = ref }
    }

    /// The daemon went away (or the browse broke): flush what it told us, say so, retry with backoff.
    private func lost(_ error: BonjourError) {
        logger.debug("browse lost: \(error)")
        dropResults()
        setAvailability(.unavailable(error))
        emitList()
        scheduleRetry()
    }

    private func dropResults() {
        browseRef?.cancel()
        browseRef = nil
        for operation in classifying.values { operation.cancel() }
        classifying = [:]
        for query in txtQueries.values { query.cancel() }
        txtQueries = [:]
        for timer in retryTimers.values { loop.cancelTimer(timer) }
        retryTimers = [:]
        registry.flush()
        debouncer.reset()
        loop.cancelTimer(flushTimer)
        flushTimer = nil
    }

    private func scheduleRetry() {
        guard running, retryTimer == nil, case .unavailable(let error)? = availability, error.isRetryable else {
            return
        }
        retryTimer = loop.schedule(after: backoff.next()) { [weak self] in self?.attemptBrowse() }
    }

    private func changed() {
        let deadline = debouncer.changed(at: .now)
        loop.cancelTimer(flushTimer)
        flushTimer = loop.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            flushTimer = nil
            if debouncer.fire(at: .now) { emitList() }
        }
    }

    /// A game's lookup finished (joinable, incompatible or not answering), or reached its first address: what someone
    /// waiting for the list wants to see, so the list (with whatever else is pending) goes out now.
    private func settled() {
        loop.cancelTimer(flushTimer)
        flushTimer = nil
        debouncer.flushed(at: .now)
        emitList()
    }

    private func emitList() {
        let list = registry.games(hiding: hidden)
        guard list != lastList else { return }
        lastList = list
        broadcaster.publish(.updated(list))
    }

    private func setAvailability(_ event: BrowserEvent) {
        guard event != availability else { return }
        availability = event
        broadcaster.publish(event)
    }
}
