import GameProtocol
import Bonjour
import Foundation
import GameTransport
import LocalNetworkPrivacy
import TicTacToeApp

/// A running host, join or browse, as the UI sees it.
public protocol NetworkHandle: AnyObject {
    func send(_ command: LocalCommand)
    func cancel()
}

/// Starts network work for the UI; events arrive through the closures (from any thread).
public protocol NetworkService {
    /// Hosts one match on `port`, advertised with Bonjour under `name`.
    func host(name: String, port: Int, events: @escaping @Sendable (NetworkEvent) -> Void) -> NetworkHandle
    /// Joins `address`: HOST[:PORT] directly, anything else as a Bonjour name.
    func join(name: String, address: String, events: @escaping @Sendable (NetworkEvent) -> Void) -> NetworkHandle
    /// Browses for games until cancelled (after waiting for local network permission, if it must).
    func browse(events: @escaping @Sendable (DiscoveryUpdate) -> Void) -> NetworkHandle
}

extension InteractiveSession: NetworkHandle {}

/// The real network: TCP through `InteractiveSession`, discovery through Bonjour, and every local-network
/// operation through the privacy gate: each one needs a capability only the gate mints, so nothing reaches Avahi or
/// a LAN socket before it allows.
public struct LiveNetworkService: NetworkService {
    let access: LocalNetworkAccess

    public init(gate: LocalNetworkGate) {
        self.access = LocalNetworkAccess(gate: gate)
    }

    public func host(name: String, port: Int, events: @escaping @Sendable (NetworkEvent) -> Void) -> NetworkHandle {
        let access = self.access
        let handle = DeferredHandle()
        handle.start {
            let listen = try await access.obtain({ $0.listen(on: .everyInterface, for: .hostScreen) }) { reason in
                events(.waiting(reason))
            }
            let advertising = UIAdvertising(name: name, gate: access.gate, events: events)
            return InteractiveSession.host(
                name: name, port: port, listen: listen, advertising: advertising,
                report: { events(.report($0)) }, finished: { events(.finished($0)) }
            )
        } failed: { error in
            let status = (error as? LocalNetworkAccessError)?.exitStatus ?? .failure
            events(.report(.error("\(error)", status)))
            events(.finished(status))
        }
        return handle
    }

    public func join(name: String, address: String, events: @escaping @Sendable (NetworkEvent) -> Void) -> NetworkHandle {
        let target: JoinTarget
        do {
            target = try JoinTarget(parsing: address)
        } catch {
            events(.report(.error("\(error)", .usage)))
            events(.finished(.usage))
            return FinishedHandle()
        }
        let report: @Sendable (MatchReport) -> Void = { events(.report($0)) }
        let finished: @Sendable (ExitStatus) -> Void = { events(.finished($0)) }
        let access = self.access
        switch target {
        case .address(let endpoint):
            return InteractiveSession.join(name: name, endpoints: [endpoint], gate: access.gate, report: report,
                                           finished: finished)
        case .bonjour(let gameName):
            return InteractiveSession.join(
                name: name, endpoints: [],
                resolve: {
                    let browse = try await access.obtain({ $0.browse(GameService.type, for: .joinScreen) }) { reason in
                        report(.connectionState(.waiting(.notAllowed(reason))))
                    }
                    let game = try await GameResolver(capability: browse).resolve(gameName, timeout: .seconds(5))
                    if case .incompatible(let reason) = game.compatibility {
                        throw ConnectionError.rejected(reason: "incompatible", text: reason)
                    }
                    return game.endpoints
                },
                gate: access.gate, report: report, finished: finished
            )
        }
    }

    public func browse(events: @escaping @Sendable (DiscoveryUpdate) -> Void) -> NetworkHandle {
        BrowseHandle(access: access, events: events)
    }
}

/// A handle for work that starts after an await (waiting for permission): cancel works before and after.
private final class DeferredHandle: NetworkHandle, @unchecked Sendable {
    private let lock = NSLock()
    private var inner: NetworkHandle?
    private var task: Task<Void, Never>?
    private var cancelled = false
    private var pending: [LocalCommand] = []

    func start(_ body: @escaping @Sendable () async throws -> NetworkHandle, failed: @escaping @Sendable (Error) -> Void) {
        task = Task {
            do {
                let handle = try await body()
                let (wasCancelled, queued) = lock.withLock { () -> (Bool, [LocalCommand]) in
                    inner = handle
                    defer { pending = [] }
                    return (cancelled, pending)
                }
                for command in queued { handle.send(command) }
                if wasCancelled { handle.cancel() }
            } catch is CancellationError {
            } catch {
                failed(error)
            }
        }
    }

    func send(_ command: LocalCommand) {
        let handle = lock.withLock { () -> NetworkHandle? in
            if inner == nil { pending.append(command) }
            return inner
        }
        handle?.send(command)
    }

    func cancel() {
        let handle = lock.withLock { () -> NetworkHandle? in
            cancelled = true
            return inner
        }
        task?.cancel()
        handle?.cancel()
    }
}

/// Advertises the hosted game and tells the UI what Bonjour says.
private final class UIAdvertising: HostAdvertising, @unchecked Sendable {
    private let advertiser: GameAdvertiser?
    private let subscription: BonjourSubscription?
    private let refusal: String?
    private let events: @Sendable (NetworkEvent) -> Void

    init(name: String, gate: LocalNetworkGate, events: @escaping @Sendable (NetworkEvent) -> Void) {
        self.events = events
        // Listening was allowed already; advertising can still be NoAuth (a service type the manifest lacks).
        switch gate.advertise(GameService.type, for: .hostScreen) {
        case .granted(let capability):
            let advertiser = GameAdvertiser(capability: capability, name: name)
            self.advertiser = advertiser
            refusal = nil
            subscription = advertiser.observe { event in
                switch event {
                case .registered(let name):
                    events(.advertisement("Advertised as \(DisplayText.sanitize(name, maxLength: 63))"))
                case .unavailable(let error): events(.advertisement("Not advertised: \(error.description)"))
                case .withdrawn: events(.advertisement(""))
                }
            }
        case .refused(.noAuth):
            (advertiser, subscription) = (nil, nil)
            refusal = "Not advertised: \(LocalNetworkGate.noAuthMessage) (\(GameService.type) is not in NSBonjourServices)"
        case .refused(let error):
            (advertiser, subscription) = (nil, nil)
            refusal = "Not advertised: \(error)"
        case .waiting(let reason, _):
            (advertiser, subscription) = (nil, nil)
            refusal = "Not advertised: \(reason)"
        }
    }

    func advertise(port: Int) {
        if let refusal { events(.advertisement(refusal)) }
        advertiser?.advertise(port: port)
    }

    func withdraw() { advertiser?.withdraw() }
    func stop() {
        advertiser?.stop()
        subscription?.cancel()
    }
}

/// Search for games: waits for permission (saying why), then browses.
private final class BrowseHandle: NetworkHandle, @unchecked Sendable {
    private let lock = NSLock()
    private var browser: GameBrowser?
    private var subscription: BonjourSubscription?
    private var task: Task<Void, Never>?
    private var cancelled = false

    init(access: LocalNetworkAccess, events: @escaping @Sendable (DiscoveryUpdate) -> Void) {
        task = Task { [weak self] in
            let browse: BrowseCapability
            do {
                browse = try await access.obtain({ $0.browse(GameService.type, for: .searchScreen) }) { events(.waiting($0)) }
            } catch is CancellationError {
                return
            } catch LocalNetworkAccessError.refused(.noAuth) {
                events(.failed("\(LocalNetworkGate.noAuthMessage): \(GameService.type) is not in the app's NSBonjourServices"))
                return
            } catch {
                events(.failed("\(error)"))
                return
            }
            self?.startBrowsing(browse, events)
        }
    }

    private func startBrowsing(_ capability: BrowseCapability, _ events: @escaping @Sendable (DiscoveryUpdate) -> Void) {
        let browser = GameBrowser(capability: capability)
        let proceed = lock.withLock { () -> Bool in
            guard !cancelled else { return false }
            self.browser = browser
            subscription = browser.observe { events(.browser($0)) }
            return true
        }
        if proceed { browser.start() }
    }

    func send(_ command: LocalCommand) {}

    func cancel() {
        let (browser, subscription) = lock.withLock { () -> (GameBrowser?, BonjourSubscription?) in
            cancelled = true
            return (self.browser, self.subscription)
        }
        task?.cancel()
        subscription?.cancel()
        browser?.stop()
    }
}

private final class FinishedHandle: NetworkHandle {
    func send(_ command: LocalCommand) {}
    func cancel() {}
}
