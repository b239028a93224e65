import CDNSSD
import GameProtocol
import LocalNetworkPrivacy
import Logging

/// Advertises our game as `_tictactoe._tcp` with a TXT record saying how it is protected (`proto=2 sec=open`,
/// `proto=2 sec=private`, or `proto=1` for a plaintext game: `GameService.txtRecord(security:)`), and reports the name
/// actually registered (Avahi renames on a collision: "alice" becomes "alice #2").
///
/// Without a daemon, or when it dies, subscribers get `.unavailable`; registration is retried with backoff and
/// resumes by itself. `withdraw()` (the game started) deallocates the registration, which withdraws it at once.
///
/// Thread-safe; the work and the event handlers run on the Bonjour thread (see `DNSSDLoop`), where the registration's
/// state lives (`AdvertiserState`).
public final class GameAdvertiser: GameAdvertising, Sendable {
    /// The name asked for: in NFC, cut to the 63 bytes a DNS label allows (`GameService.instanceName`).
    public let requestedName: String
    /// The security advertised.
    public let security: GameSecurity
    /// Its TXT record when advertising began (`update(activity:)` changes what is advertised).
    public let txt: TXTRecord
    /// The gate's permission: the type advertised is the one it cleared.
    public let capability: AdvertiseCapability

    private let loop: DNSSDLoop
    private let broadcaster: EventBroadcaster<AdvertiserEvent>
    private let state: DNSSDLoop.Bound<AdvertiserState>

    /// Advertises a `security` game under `capability`'s service type (the gate cleared it: see
    /// `LocalNetworkGate.advertise`).
    public init(
        capability: AdvertiseCapability,
        name: String, security: GameSecurity, backoff: Backoff = Backoff(),
        logger: Logger = Logger(label: "tictactoe.bonjour.advertiser")
    ) {
        self.capability = capability
        self.requestedName = GameService.instanceName(name)
        self.security = security
        let txt = GameService.txtRecord(security: security)
        self.txt = txt
        self.loop = .shared
        let state = AdvertiserState(
            requestedName: requestedName, serviceType: capability.serviceType, txt: txt, backoff: backoff,
            logger: logger, loop: loop
        )
        self.broadcaster = state.broadcaster
        self.state = DNSSDLoop.Bound(state, loop: loop)
    }

    deinit {
        let state = self.state
        loop.execute { state.value.abandon() }
    }

    public func advertise(port: Int) {
        loop.execute { [state] in state.value.advertise(port: port) }
    }

    public func withdraw() {
        loop.execute { [state] in state.value.withdrawOnLoop() }
    }

    /// Advertises what the host is doing (`state=playing`, `watch=N` in the TXT record), staying registered: the
    /// record is updated in place (or registered again where the daemon cannot update it).
    public func update(activity: GameActivity) {
        let txt = GameService.txtRecord(security: security, activity: activity)
        loop.execute { [state] in state.value.update(txt: txt) }
    }

    public func stop() {
        loop.sync { [state] in
            state.value.withdrawOnLoop()
            state.value.broadcaster.finishAll()
        }
    }

    public func events() -> AsyncStream<AdvertiserEvent> { broadcaster.stream() }

    /// Events to a handler on the Bonjour thread (keep it short: hop to your own queue).
    public func observe(_ handler: @escaping @Sendable (AdvertiserEvent) -> Void) -> BonjourSubscription {
        broadcaster.observe(handler)
    }
}

/// The registration itself, on the loop thread only.
private final class AdvertiserState {
    private let requestedName: String
    private let serviceType: String
    private var txt: TXTRecord
    private let logger: Logger
    private let loop: DNSSDLoop
    private(set) var broadcaster: EventBroadcaster<AdvertiserEvent>!

    private var wanted = false
    private var port: Int?
    private var ref: ServiceRef?
    private var state: AdvertiserEvent?
    private var backoff: Backoff
    private var retryTimer: DNSSDLoop.TimerID?

    init(
        requestedName: String, serviceType: String, txt: TXTRecord, backoff: Backoff, logger: Logger, loop: DNSSDLoop
    ) {
        self.requestedName = requestedName
        self.serviceType = serviceType
        self.txt = txt
        self.backoff = backoff
        self.logger = logger
        self.loop = loop
        self.broadcaster = EventBroadcaster(loop: loop) { [weak self] in self?.state.map { [$0] } ?? [] }
    }

    /// The advertiser is gone: deallocate the registration (Avahi withdraws it).
    func abandon() {
        ref?.cancel()
    }

    func advertise(port: Int) {
        let samePort = self.port == port
        wanted = true
        self.port = port
        if samePort && (ref != nil || retryTimer != nil) { return }
        ref?.cancel()
        ref = nil
        loop.cancelTimer(retryTimer)
        retryTimer = nil
        register()
    }


    func update(txt: TXTRecord) {
        guard txt != self.txt else { return }
        self.txt = txt
        guard let ref else { return }  // registered later with it (or not wanted now)
        let code = ref.updatePrimaryTXT(txt.wire)
        guard code != kDNSServiceErr_NoError else {
            logger.debug("TXT record updated: \(txt)")
            return
        }
        logger.info("cannot update the TXT record in place (\(BonjourError(code: code))): registering again")
        ref.cancel()
        self.ref = nil
        register()
    }

    func withdrawOnLoop() {
        wanted = false
        loop.cancelTimer(retryTimer)
        retryTimer = nil
        let wasRegistered = ref != nil
        ref?.cancel()  // DNSServiceRefDeallocate: Avahi withdraws the service (goodbye packets)
        ref = nil
        backoff.reset()
        if wasRegistered || state != nil { setState(.withdrawn) }
    }

    private func register() {
        retryTimer = nil
        guard wanted, let port else { return }
        let context = RegisterContext { [weak self] error, name in self?.registered(error: error, name: name) }
        let bytes = txt.wire
        let name = requestedName
        let type = serviceType
        let result = ServiceRef.make(loop: loop, context: context, onFailure: { [weak self] in self?.lost($0) }) {
            library, reference, contextPointer in
            bytes.withUnsafeBytes { buffer in
                library.register(reference, 0, 0, name, type, nil, nil, UInt16(port).bigEndian,
                                   UInt16(buffer.count), buffer.baseAddress, RegisterContext.callback, contextPointer)
            }
        }
        switch result {
        case .success(let ref):
            logger.debug("registering '\(name)' on port \(port)")
            self.ref = ref
        case .failure(let error):
            lost(error)
        }
    }

    private func registered(error: DNSServiceErrorType, name: String?) {
        guard error == kDNSServiceErr_NoError else {
            lost(BonjourError(code: error))
            return
        }
        backoff.reset()
        let actual = name ?? requestedName
        logger.info("advertised as '\(actual)'")
        setState(.registered(name: actual))
    }

    private func lost(_ error: BonjourError) {
        logger.debug("advertising failed: \(error)")
        ref?.cancel()
        ref = nil
        setState(.unavailable(error))
        guard wanted, error.isRetryable, retryTimer == nil else { return }
        retryTimer = loop.schedule(after: backoff.next()) { [weak self] in self?.register() }
    }

    private func setState(_ event: AdvertiserEvent) {
        guard event != state else { return }
        state = event
        broadcaster.publish(event)
    }
}
