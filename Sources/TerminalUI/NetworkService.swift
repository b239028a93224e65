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
/// operation through the privacy gate (nothing reaches Avahi or a LAN socket before it allows).
public struct LiveNetworkService: NetworkService {
    let gate: LocalNetworkGate?

    public init(gate: LocalNetworkGate? = nil) {
        self.gate = gate
    }

    public func host(name: String, port: Int, events: @escaping @Sendable (NetworkEvent) -> Void) -> NetworkHandle {
        let gate = self.gate
        let handle = DeferredHandle()
        handle.start {
            if let gate {
                try await gate.waitUntilAllowed(.listen(bindHost: "0.0.0.0")) { reason in events(.waiting(reason)) }
            }
            let advertising = UIAdvertising(name: name, gate: gate, events: events)
            return InteractiveSession.host(
                name: name, port: port, advertising: advertising,
                report: { events(.report($0)) }, finished: { events(.finished($0)) }
            )
        } failed: { error in
            events(.report(.error("\(error)", .failure)))
            events(.finished(.failure))
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
        let connectionGate: ConnectionGate = gate ?? OpenGate()
        switch target {
        case .address(let endpoint):
            return InteractiveSession.join(name: name, endpoint: endpoint, gate: connectionGate, report: report,
                                           finished: finished)
        case .bonjour(let gameName):
            let gate = self.gate
            return InteractiveSession.join(
                name: name, endpoints: [],
                resolve: {
                    if let gate {
                        try await gate.waitUntilAllowed(.browse(serviceType: GameService.type)) { reason in
                            report(.connectionState(.waiting(.notAllowed(reason))))
                        }
                    }
                    let game = try await GameResolver().resolve(gameName, timeout: .seconds(5))
                    if case .incompatible(let reason) = game.compatibility {
                        throw ConnectionError.rejected(reason: "incompatible", text: reason)
                    }
                    return game.endpoints
                },
                gate: connectionGate, report: report, finished: finished
            )
        }
    }

    public func browse(events: @escaping @Sendable (DiscoveryUpdate) -> Void) -> NetworkHandle {
        BrowseHandle(gate: gate, events: events)
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
    private let advertiser: GameAdvertiser
    private let subscription: BonjourSubscription

    private let gate: LocalNetworkGate?
    private let events: @Sendable (NetworkEvent) -> Void

    init(name: String, gate: LocalNetworkGate?, events: @escaping @Sendable (NetworkEvent) -> Void) {
        self.gate = gate
        self.events = events
        advertiser = GameAdvertiser(name: name)
        subscription = advertiser.observe { event in
            switch event {
            case .registered(let name): events(.advertisement("Advertised as \(DisplayText.sanitize(name, maxLength: 63))"))
            case .unavailable(let error): events(.advertisement("Not advertised: \(error.description)"))
            case .withdrawn: events(.advertisement(""))
            }
        }
    }

    func advertise(port: Int) {
        // Listening was allowed already; advertising can still be NoAuth (a service type the manifest lacks).
        if let gate, case .noAuth = gate.evaluate(.advertise(serviceType: GameService.type)) {
            events(.advertisement("Not advertised: \(LocalNetworkGate.noAuthMessage) (\(GameService.type) is not in NSBonjourServices)"))
            return
        }
        advertiser.advertise(port: port)
    }

    func withdraw() { advertiser.withdraw() }
    func stop() {
        advertiser.stop()
        subscription.cancel()
    }
}

/// Search for games: waits for permission (saying why), then browses.
private final class BrowseHandle: NetworkHandle, @unchecked Sendable {
    private let lock = NSLock()
    private var browser: GameBrowser?
    private var subscription: BonjourSubscription?
    private var task: Task<Void, Never>?
    private var cancelled = false

    init(gate: LocalNetworkGate?, events: @escaping @Sendable (DiscoveryUpdate) -> Void) {
        task = Task { [weak self] in
            do {
                if let gate {
                    try await gate.waitUntilAllowed(.browse(serviceType: GameService.type)) { events(.waiting($0)) }
                }
            } catch is CancellationError {
                return
            } catch let error as LocalNetworkPrivacyError {
                if case .noAuth = error {
                    events(.failed("\(LocalNetworkGate.noAuthMessage): \(GameService.type) is not in the app's NSBonjourServices"))
                } else {
                    events(.failed("\(error)"))
                }
                return
            } catch {
                events(.failed("\(error)"))
                return
            }
            self?.startBrowsing(events)
        }
    }

    private func startBrowsing(_ events: @escaping @Sendable (DiscoveryUpdate) -> Void) {
        let browser = GameBrowser()
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
