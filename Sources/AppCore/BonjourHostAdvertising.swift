import Bonjour
import GameClient
import GameProtocol
import LocalNetworkPrivacy

/// What a host needs from Bonjour (`BonjourHostAdvertising` is the real one): the host coordinator advertises while
/// it listens, says in the TXT record whether a match runs and how many spectators it takes, and stops at the end.
public protocol HostAdvertising: Sendable {
    /// Free for a joiner on `port`: advertise (again).
    func advertise(port: Int)
    /// What the host is doing (a match running, room for spectators), in the advertisement's TXT record: the host
    /// stays advertised while it plays, and browsers say it is busy.
    func update(_ activity: GameActivity)
    /// Local network access was turned off: withdraw.
    func withdraw()
    /// The host is done: withdraw and wait until the daemon was told.
    func stop()
}

/// A host's advertising through Bonjour (its TXT record says how the game is protected: `GameService.txtRecord`),
/// reported as `.discovery` events: "Advertised as NAME" (the name Avahi
/// registered), withdrawn, or why it is not advertised (the host still serves joiners by address).
final class BonjourHostAdvertising: HostAdvertising {
    private let advertiser: GameAdvertiser
    private let subscription: BonjourSubscription

    private init(capability: AdvertiseCapability, name: String, security: GameSecurity, reporter: MatchReporter) {
        advertiser = GameAdvertiser(capability: capability, name: name, security: security)
        subscription = advertiser.observe { event in
            switch event {
            case .registered(let name): reporter.report(.discovery(.advertised(name: name, security: security)))
            case .unavailable(let error): reporter.report(.discovery(.advertisingUnavailable(message: error.description)))
            case .withdrawn: reporter.report(.discovery(.withdrawn))
            }
        }
    }

    /// The advertising of a `security` game (`.open`, `.private`, or `.plaintext` for a protocol 1 host) listening
    /// with `listen`, or nil (after saying why) when it must not advertise: a
    /// loopback host (nobody else could join it), a service type the manifest does not declare (NoAuth).
    static func make(
        for listen: ListenCapability, name: String, security: GameSecurity, gate: LocalNetworkGate,
        origin: OperationOrigin,
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
            return BonjourHostAdvertising(capability: capability, name: name, security: security, reporter: reporter)
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

    func advertise(port: Int) { advertiser.advertise(port: port) }
    func update(_ activity: GameActivity) { advertiser.update(activity: activity) }
    func withdraw() { advertiser.withdraw() }
    func stop() {
        advertiser.stop()
        subscription.cancel()
    }
}
