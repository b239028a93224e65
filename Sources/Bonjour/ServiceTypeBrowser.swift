import CDNSSD
import LocalNetworkPrivacy
import Logging

/// Lists the service types on the local network: the seam a front end consumes (tests use a fake).
public protocol ServiceTypeBrowsing: AnyObject, Sendable {
    /// Starts the enumeration (again after `stop()`); events follow on every subscription.
    func start()
    /// Stops, releases everything and ends every subscription.
    func stop()
    /// A new subscription: first the current state (availability, then the list if any), then every change.
    func events() -> AsyncStream<ServiceTypeEvent>
}

/// What a service-type browser reports.
public enum ServiceTypeEvent: Sendable, Hashable {
    /// The types listed now (sorted; each once, whatever the interfaces and IP versions that announced it).
    case updated([ServiceType])
    /// The daemon is not there (or went away); retried with backoff.
    case unavailable(BonjourError)
    /// The query runs (first start, or the daemon came back).
    case available
}

/// Every service type on the local network (`browse --all-types`, the TUI's "All services on this network").
///
/// Avahi's dns_sd compatibility library may answer a `DNSServiceBrowse` of `_services._dns-sd._udp` with nothing, so
/// this asks for the PTR records of `_services._dns-sd._udp.local` with `DNSServiceQueryRecord` (class IN), the
/// service-type enumeration of RFC 6763 §9: each answer's data is a name such as `_http._tcp.local.`
/// (`PTRRecord.serviceType`). A type is listed while one of its records is (an answer without the Add flag takes
/// it away on its interface).
///
/// It takes a `ServiceTypesBrowseCapability`: only the gate mints one (the multicast entitlement, then permission).
/// Thread-safe; the work and the events run on the Bonjour thread.
public final class ServiceTypeBrowser: ServiceTypeBrowsing {
    /// The enumeration's name.
    public static let enumerationName = "_services._dns-sd._udp.local."

    /// The gate's permission.
    public let capability: ServiceTypesBrowseCapability
    private let loop: DNSSDLoop
    private let broadcaster: EventBroadcaster<ServiceTypeEvent>
    private let state: DNSSDLoop.Bound<ServiceTypeQueryState>

    public init(
        capability: ServiceTypesBrowseCapability, backoff: Backoff = Backoff(),
        logger: Logger = Logger(label: "tictactoe.bonjour.types")
    ) {
        self.capability = capability
        self.loop = .shared
        let state = ServiceTypeQueryState(backoff: backoff, logger: logger, loop: loop)
        self.broadcaster = state.broadcaster
        self.state = DNSSDLoop.Bound(state, loop: loop)
    }

    deinit {
        let state = self.state
        loop.execute { state.value.stop() }
    }

    public func start() {
        loop.execute { [state] in state.value.start() }
    }

    public func stop() {
        loop.sync { [state] in state.value.stop() }
    }

    public func events() -> AsyncStream<ServiceTypeEvent> { broadcaster.stream() }
}

/// The query itself, on the loop thread only.
private final class ServiceTypeQueryState {
    private let logger: Logger
    private let loop: DNSSDLoop
    private(set) var broadcaster: EventBroadcaster<ServiceTypeEvent>!
    private var backoff: Backoff
    private var running = false
    private var ref: ServiceRef?
    private var retryTimer: DNSSDLoop.TimerID?
    /// Each type (by its lower-cased name: mDNS names compare without ASCII case), the spelling first seen and the
    /// interfaces that list it.
    private var seen: [String: (type: ServiceType, interfaces: Set<UInt32>)] = [:]
    private var availability: ServiceTypeEvent?
    private var lastList: [ServiceType]?

    init(backoff: Backoff, logger: Logger, loop: DNSSDLoop) {
        self.backoff = backoff
        self.logger = logger
        self.loop = loop
        self.broadcaster = EventBroadcaster(loop: loop) { [weak self] in
            guard let self else { return [] }
            return (availability.map { [$0] } ?? []) + (lastList.map { [.updated($0)] } ?? [])
        }
    }

    func start() {
        guard !running else { return }
        running = true
        attempt()
    }

    func stop() {
        running = false
        loop.cancelTimer(retryTimer)
        retryTimer = nil
        ref?.cancel()
        ref = nil
        seen = [:]
        availability = nil
        lastList = nil
        backoff.reset()
        broadcaster.finishAll()
    }

    private func attempt() {
        retryTimer = nil
        guard running else { return }
        let context = QueryContext { [weak self] flags, interface, error, type, data in
            self?.answered(flags: flags, interface: interface, error: error, type: type, data: data)
        }
        let result = ServiceRef.make(loop: loop, context: context, onFailure: { [weak self] in self?.lost($0) }) {
            $0.queryRecord(
                $1, 0, 0, ServiceTypeBrowser.enumerationName, UInt16(kDNSServiceType_PTR),
                UInt16(kDNSServiceClass_IN), QueryContext.callback, $2)
        }
        switch result {
        case .success(let created):
            logger.debug("querying PTR \(ServiceTypeBrowser.enumerationName)")
            ref = created
            backoff.reset()
            setAvailability(.available)
            emit()  // an empty list until the first answer: the query runs
        case .failure(let error):
            logger.debug("service type query failed: \(error)")
            lost(error)
        }
    }

    private func answered(
        flags: DNSServiceFlags, interface: UInt32, error: DNSServiceErrorType, type: UInt16, data: [UInt8]
    ) {
        guard error == kDNSServiceErr_NoError else {
            lost(BonjourError(code: error))
            return
        }
        guard type == UInt16(kDNSServiceType_PTR) else { return }
        guard let serviceType = PTRRecord.serviceType(data) else {
            logger.debug("ignoring a malformed PTR answer (\(data.count) bytes)")
            return
        }
        let key = serviceType.fullName.lowercased()
        if flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0 {
            logger.trace("type \(serviceType) on \(interface)")
            seen[key, default: (type: serviceType, interfaces: [])].interfaces.insert(interface)
        } else if var entry = seen[key] {
            logger.trace("type \(serviceType) gone on \(interface)")
            entry.interfaces.remove(interface)
            seen[key] = entry.interfaces.isEmpty ? nil : entry
        }
        emit()
    }

    /// The daemon went away (or the query broke): forget what it said, say so, retry with backoff.
    private func lost(_ error: BonjourError) {
        ref?.cancel()
        ref = nil
        seen = [:]
        setAvailability(.unavailable(error))
        emit()
        guard running, retryTimer == nil, error.isRetryable else { return }
        retryTimer = loop.schedule(after: backoff.next()) { [weak self] in self?.attempt() }
    }

    private func emit() {
        let list = seen.values.map(\.type).sorted()
        guard list != lastList else { return }
        lastList = list
        broadcaster.publish(.updated(list))
    }

    private func setAvailability(_ event: ServiceTypeEvent) {
        guard event != availability else { return }
        availability = event
        broadcaster.publish(event)
    }
}
