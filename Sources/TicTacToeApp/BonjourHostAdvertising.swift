import Bonjour
import LocalNetworkPrivacy
import Synchronization

/// A host's advertising through Bonjour, reported as `.discovery` events: "Advertised as NAME" (the name Avahi
/// registered), withdrawn, or why it is not advertised (the host still serves joiners by address). Turning local
/// network access off withdraws the advertisement at once; turning it on again brings it back while the host is free.
final class BonjourHostAdvertising: HostAdvertising {
    private let advertiser: GameAdvertiser
    private let subscription: BonjourSubscription
    private let watcher: Task<Void, Never>
    private let state = Shared()

    /// Whether the host is free for a joiner (on which port) and whether access is off.
    private final class Shared: Sendable {
        let value = Mutex<(port: Int?, free: Bool, off: Bool)>((nil, false, false))
        func withLock<T>(_ body: (inout (port: Int?, free: Bool, off: Bool)) -> T) -> T { value.withLock { body(&$0) } }
    }

    private init(
        capability: AdvertiseCapability, name: String, gate: LocalNetworkGate, origin: OperationOrigin,
        reporter: MatchReporter
    ) {
        let advertiser = GameAdvertiser(capability: capability, name: name)
        let state = self.state
        self.advertiser = advertiser
        subscription = advertiser.observe { event in
            switch event {
            case .registered(let name): reporter.report(.discovery(.advertised(name: name)))
            case .unavailable(let error): reporter.report(.discovery(.advertisingUnavailable(message: error.description)))
            case .withdrawn: reporter.report(.discovery(.withdrawn))
            }
        }
        let changes: AsyncStream<LocalNetworkAuthorization> = gate.changes()
        watcher = Task {
            for await authorization in changes {
                if authorization != .allowed {
                    let wasOn = state.withLock { state in
                        defer { state.off = true }
                        return !state.off
                    }
                    guard wasOn else { continue }
                    advertiser.withdraw()
                    reporter.report(.discovery(.advertisingUnavailable(message: "local network access was turned off")))
                } else if case .granted = gate.advertise(GameService.type, for: origin) {
                    let port = state.withLock { state -> Int? in
                        defer { state.off = false }
                        return state.off && state.free ? state.port : nil
                    }
                    if let port { advertiser.advertise(port: port) }
                }
            }
        }
    }

    /// The advertising for a host listening with `listen`, or nil (after saying why) when it must not advertise: a
    /// loopback host (nobody else could join it), a service type the manifest does not declare (NoAuth).
    static func make(
        for listen: ListenCapability, name: String, gate: LocalNetworkGate, origin: OperationOrigin,
        reporter: MatchReporter
    ) -> BonjourHostAdvertising? {
        if listen.isLoopback {
            reporter.report(.discovery(.advertisingUnavailable(message:
                "the host listens on \(listen.target) only, so nobody else could join it: use the default --bind "
                    + "(every interface) to be found on the local network")))
            return nil
        }
        switch gate.advertise(GameService.type, for: origin) {
        case .granted(let capability):
            return BonjourHostAdvertising(
                capability: capability, name: name, gate: gate, origin: origin, reporter: reporter)
        case .refused(.noAuth(let type, _)):
            reporter.report(.discovery(.advertisingUnavailable(message:
                "\(LocalNetworkGate.noAuthMessage) (\(type) is not in NSBonjourServices)")))
        case .refused(let error):
            reporter.report(.discovery(.advertisingUnavailable(message: "\(error)")))
        case .waiting(let reason, _):
            reporter.report(.discovery(.advertisingUnavailable(message: reason)))
        }
        return nil
    }

    func advertise(port: Int) {
        let off = state.withLock { state -> Bool in
            state.port = port
            state.free = true
            return state.off
        }
        if !off { advertiser.advertise(port: port) }
    }

    func withdraw() {
        state.withLock { $0.free = false }
        advertiser.withdraw()
    }

    func stop() {
        watcher.cancel()
        advertiser.stop()
        subscription.cancel()
    }
}
