import FoundationEssentials
import NIOCore
import Logging
import Localization
import AppManifest
import PrivacyReport

#if canImport(Glibc)
import Glibc
#endif

/// The one place every local-network operation passes through: browse, advertise, listen for LAN peers, connect to
/// a non-loopback address. Nothing should reach Avahi or a socket unless `evaluate` says `.allowed` or `.exempt`.
///
/// Order of checks, as on iOS: loopback is exempt; then the manifest is needed (loaded lazily on first use, so a
/// missing one is an error at the moment of network use, not at launch); a Bonjour type missing from
/// `NSBonjourServices` is NoAuth at once, without a prompt; then the remembered decision (read fresh each time, so a
/// decision made in another process counts): not determined → `.needsPrompt`, denied → `.denied`, allowed.
///
/// Every decision, NoAuth with the key to add, each waiting reason and each transition of the state is logged
/// (label "tictactoe.privacy"); every decision, and the prompt shown and answered, is also recorded with its origin in
/// the privacy report (`PrivacyReportLog`, `tictactoe privacy report`).
public final class LocalNetworkGate: Sendable {
    /// kDNSServiceErr_NoAuth.
    public static let noAuthErrorCode: Int32 = -65555
    /// How iOS shows NoAuth.
    public static let noAuthMessage = "Not allowed to access the network"

    /// Where the decision is remembered.
    public let store: DecisionStore
    /// Where every decision is recorded (nil: nowhere).
    public let report: PrivacyReportLog?
    /// Who shows the waiting reason, and so how it says access can be allowed.
    public let frontEnd: FrontEnd
    private let loadManifest: @Sendable () throws -> AppManifest
    private let isLoopbackHost: @Sendable (String) -> Bool
    private let logger: Logger
    private let state = Locked(State())

    private let watchers = Locked(Watchers())

    private struct Watchers: Sendable {
        var watch: DirectoryWatch?
        var subscribers: [UUID: @Sendable (LocalNetworkAuthorization) -> Void] = [:]
    }

    private struct State {
        var manifest: AppManifest?
        var lastAuthorization: LocalNetworkAuthorization?
        var promptHandler: (@Sendable (LocalNetworkPromptRequest) -> Void)?
        var promptOutstanding = false
        /// The operation (and who asked) that showed the prompt now showing: its answer is recorded with it.
        var promptTrigger: (operation: LocalNetworkOperation, origin: OperationOrigin?)?
    }

    /// A gate reading the manifest with `AppManifest.locate(explicitPath:)` (when first needed) and the decision
    /// from `store`, recording in `report` (default: the user's privacy report under XDG state).
    public convenience init(
        explicitManifestPath: String? = nil,
        store: DecisionStore? = nil,
        report: PrivacyReportLog? = PrivacyReportLog(),
        frontEnd: FrontEnd = .app,
        logger: Logger = Logger(label: "tictactoe.privacy")
    ) {
        // The default store records each change of the decision (Settings) in the same report.
        self.init(
            store: store ?? DecisionStore(report: report), report: report, frontEnd: frontEnd, logger: logger,
            loadManifest: { try AppManifest.locate(explicitPath: explicitManifestPath) },
            isLoopbackHost: { Loopback.isLoopback(host: $0) })
    }

    /// A gate with its own way of loading the manifest (called on first need; a failure is retried next time),
    /// recording in `report` (default: nowhere; tests and benchmarks).
    public convenience init(
        store: DecisionStore,
        report: PrivacyReportLog? = nil,
        frontEnd: FrontEnd = .app,
        logger: Logger = Logger(label: "tictactoe.privacy"),
        loadManifest: @escaping @Sendable () throws -> AppManifest
    ) {
        self.init(
            store: store, report: report, frontEnd: frontEnd, logger: logger, loadManifest: loadManifest,
            isLoopbackHost: { Loopback.isLoopback(host: $0) })
    }

    /// Tests: `isLoopbackHost` decides which hosts are exempt.
    init(
        store: DecisionStore,
        report: PrivacyReportLog? = nil,
        frontEnd: FrontEnd = .app,
        logger: Logger,
        loadManifest: @escaping @Sendable () throws -> AppManifest,
        isLoopbackHost: @escaping @Sendable (String) -> Bool
    ) {
        self.store = store
        self.report = report
        self.frontEnd = frontEnd
        self.logger = logger
        self.loadManifest = loadManifest
        self.isLoopbackHost = isLoopbackHost
    }

    // MARK: Manifest and state

    /// The app manifest, loaded on first call and kept (a failure is not kept: the next call tries again).
    public func manifest() throws -> AppManifest {
        if let manifest = state.withLock({ $0.manifest }) { return manifest }
        do {
            let manifest = try loadManifest()
            state.withLock { $0.manifest = manifest }
            let usage = manifest.usageDescription.map { "\"\($0)\"" } ?? "missing (the default is used)"
            let text = "app manifest \(manifest.path): display name \"\(manifest.displayName)\", "
                + "NSBonjourServices \(manifest.bonjourServices), usage description \(usage)"
            logger.info("\(text)")
            return manifest
        } catch {
            logger.error("app manifest: \(error)")
            throw error
        }
    }

    /// The remembered state (read fresh from the store).
    public var authorization: LocalNetworkAuthorization { observe(store.read()) }

    /// Why a local-network operation is waiting now, and how to change it.
    public var waitingReason: String { waitingReason(for: authorization) }

    /// Who shows the waiting reason.
    public enum FrontEnd: Sendable, Hashable {
        /// The full-screen app: its own prompt, and Settings › Privacy.
        case app
        /// A command: the question on its terminal (when the gate has a prompt handler), and `tictactoe privacy
        /// grant`.
        case commandLine
    }

    /// The waiting reason for a state as this gate's front end can act on it ("" for `.allowed`).
    public func waitingReason(for authorization: LocalNetworkAuthorization) -> String {
        guard frontEnd == .commandLine else { return Self.waitingReason(for: authorization) }
        switch authorization {
        case .notDetermined:
            if state.withLock({ $0.promptHandler != nil }) { return Self.waitingReason(for: authorization) }
            return tr("local network permission not determined, and there is no terminal to ask on: "
                + "run `tictactoe privacy grant`")
        case .denied:
            return tr("local network permission denied: run `tictactoe privacy grant` to allow it")
        case .allowed:
            return ""
        }
    }

    /// The full-screen app's waiting reason for a state ("" for `.allowed`).
    public static func waitingReason(for authorization: LocalNetworkAuthorization) -> String {
        switch authorization {
        case .notDetermined:
            return tr("local network permission not determined: answer the prompt, or run `tictactoe privacy grant`")
        case .denied:
            return tr(
                "local network permission denied: turn on Local Network in Settings › Privacy, "
                    + "or run `tictactoe privacy grant`")
        case .allowed:
            return ""
        }
    }

    /// Notes the state seen; logs a transition.
    @discardableResult
    func observe(_ current: LocalNetworkAuthorization) -> LocalNetworkAuthorization {
        let previous = state.withLock { state -> LocalNetworkAuthorization?? in
            guard state.lastAuthorization != current else { return .none }
            defer {
                state.lastAuthorization = current
                if current != .notDetermined { state.promptOutstanding = false }
            }
            return .some(state.lastAuthorization)
        }
        switch previous {
        case .none: break
        case .some(nil): logger.info("local network permission: \(current)")
        case .some(let before?): logger.info("local network permission changed: \(before) -> \(current)")
        }
        return current
    }

    // MARK: The gate

    /// Decides whether `operation` may go ahead now, without minting anything (the prompt is requested when it is
    /// needed): a front end's question before it starts the operation. Logs the decision with `origin`, the screen
    /// or command that asked. The privacy report records it only when the operation is refused (it then never
    /// starts): otherwise the operation's own clearance records its decision, so each operation is recorded once.
    public func evaluate(_ operation: LocalNetworkOperation, for origin: OperationOrigin? = nil) -> GateVerdict {
        judge(operation, for: origin, recordsEveryVerdict: false)
    }

    /// `evaluate`, recording the decision in the privacy report whatever it is when `recordsEveryVerdict` (a
    /// clearance: the operation goes ahead, waits or is refused now).
    func judge(_ operation: LocalNetworkOperation, for origin: OperationOrigin?, recordsEveryVerdict: Bool) -> GateVerdict {
        let verdict = decide(operation)
        switch verdict {
        case .noAuth, .manifestError, .missingEntitlement:
            report?.recordDecision(verdict, for: operation, origin: origin)
        case .allowed, .exempt, .needsPrompt, .denied:
            if recordsEveryVerdict { report?.recordDecision(verdict, for: operation, origin: origin) }
        }
        let subject = origin.map { "\($0): \(operation)" } ?? "\(operation)"
        switch verdict {
        case .allowed, .exempt:
            logger.info("gate: \(subject): \(verdict)")
        case .noAuth(let type):
            let path = state.withLock { $0.manifest?.path } ?? "the app manifest"
            let text = "gate: \(subject): NoAuth (kDNSServiceErr_NoAuth, \(Self.noAuthErrorCode)): "
                + "\(Self.noAuthMessage). NSBonjourServices must list \"\(type)\": add it to NSBonjourServices in "
                + "\(path). No prompt is shown."
            logger.error("\(text)")
        case .needsPrompt, .denied:
            let reason = waitingReason(for: verdict == .denied ? .denied : .notDetermined)
            logger.info("gate: \(subject): \(verdict); waiting: \(reason)")
        case .manifestError(let text):
            logger.error("gate: \(subject): cannot decide, \(text)")
        case .missingEntitlement(let key):
            logger.error("gate: \(subject): refused: the app's entitlements lack \(key); no prompt is shown")
        }
        if verdict == .needsPrompt { requestPrompt(for: operation, origin: origin) }
        return verdict
    }

    var manifestPath: String? { state.withLock { $0.manifest?.path } }

    private func decide(_ operation: LocalNetworkOperation) -> GateVerdict {
        switch operation {
        case .connect(let endpoint) where isLoopbackHost(endpoint.host): return .exempt
        case .listen(let host) where isLoopbackHost(host): return .exempt
        default: break
        }
        let manifest: AppManifest
        do {
            manifest = try self.manifest()
        } catch {
            return .manifestError("\(error)")
        }
        if let type = operation.serviceType, !manifest.declares(serviceType: type) {
            return .noAuth(serviceType: type)
        }
        if let key = operation.requiredEntitlement {
            do {
                let entitlements = try AppEntitlements.load(besideManifest: manifest.path)
                guard entitlements?.grants(key) == true else { return .missingEntitlement(key) }
            } catch {
                return .manifestError("\(error)")
            }
        }
        switch authorization {
        case .allowed: return .allowed
        case .denied: return .denied
        case .notDetermined: return .needsPrompt
        }
    }

    /// Stores the user's answer to the prompt (remembered until `tictactoe privacy reset`).
    public func answerPrompt(allow: Bool) throws {
        let trigger = state.withLock { state in
            defer {
                state.promptOutstanding = false
                state.promptTrigger = nil
            }
            return state.promptTrigger
        }
        logger.info("local network prompt answered: \(allow ? "OK (allow)" : "Don't Allow")")
        report?.recordPromptAnswered(allow: allow, for: trigger?.operation, origin: trigger?.origin)
        try store.write(allow ? .allowed : .denied, source: "prompt")
        observe(allow ? .allowed : .denied)
    }

    // MARK: Prompting

    /// Gives the gate a prompt presenter: called (on the thread that called `evaluate`; it must not block) when an
    /// operation needs the prompt and none is showing. Show the prompt, then call `answerPrompt(allow:)`, or
    /// `promptDismissed()` if it went away unanswered. Nil removes it.
    public func setPromptHandler(_ handler: (@Sendable (LocalNetworkPromptRequest) -> Void)?) {
        state.withLock { $0.promptHandler = handler }
    }

    /// The prompt went away without an answer: the next operation that needs it asks again.
    public func promptDismissed() {
        state.withLock {
            $0.promptOutstanding = false
            $0.promptTrigger = nil
        }
    }

    /// A front end that shows the prompt itself (the TUI) says so: recorded in the privacy report with the operation
    /// and who asked, and the answer (`answerPrompt`) is recorded with them.
    public func promptPresented(for operation: LocalNetworkOperation, origin: OperationOrigin?) {
        state.withLock { $0.promptTrigger = (operation, origin) }
        report?.recordPromptShown(for: operation, origin: origin)
    }

    /// The prompt for `operation` (needs the manifest).
    public func promptRequest(for operation: LocalNetworkOperation) throws -> LocalNetworkPromptRequest {
        let manifest = try manifest()
        return LocalNetworkPromptRequest(
            title: manifest.promptTitle(), message: manifest.promptMessage(),
            usesDefaultMessage: manifest.usesDefaultUsageDescription, operation: operation
        )
    }

    private func requestPrompt(for operation: LocalNetworkOperation, origin: OperationOrigin?) {
        let handler = state.withLock { state -> (@Sendable (LocalNetworkPromptRequest) -> Void)? in
            guard let handler = state.promptHandler, !state.promptOutstanding else { return nil }
            state.promptOutstanding = true
            return handler
        }
        guard let handler, let request = try? promptRequest(for: operation) else { return }
        logger.info("local network prompt shown for \(operation): \"\(request.title)\" / \"\(request.message)\"")
        promptPresented(for: operation, origin: origin)
        handler(request)
    }

    // MARK: Waiting

    /// The state each time it changes (from this process or another), as `DecisionStore.changes()`; transitions are
    /// logged.
    public func changes() -> AsyncStream<LocalNetworkAuthorization> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: LocalNetworkAuthorization.self, bufferingPolicy: .bufferingNewest(8)
        )
        startWatching(continuation) { state in continuation.yield(state) }
        return stream
    }

    /// True when talking to `address` needs no permission (loopback): a match with such a peer goes on whatever the
    /// decision. Nil (an unknown address) counts as the local network.
    public func isExempt(_ address: SocketAddress?) -> Bool {
        guard let host = address?.ipAddress else { return false }
        return isLoopbackHost(host)
    }

    /// Yields each time local network access stops being allowed (turned off in Settings, `privacy deny`, `privacy
    /// reset`), here or in another process: what is running on the LAN must stop then. Callers subscribe for something
    /// the gate allowed, so access that is already off when they subscribe (turned off in between) yields at once.
    public func revocations() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let wasAllowed = Locked(true)
        startWatching(continuation) { state in
            let revoked = wasAllowed.withLock { allowed -> Bool in
                defer { allowed = state == .allowed }
                return allowed && state != .allowed
            }
            if revoked { continuation.yield(()) }
        }
        // Watching has started: a change from now on is seen; one before it shows in the state read now.
        let now = authorization
        let revokedAlready = wasAllowed.withLock { allowed -> Bool in
            defer { allowed = now == .allowed }
            return allowed && now != .allowed
        }
        if revokedAlready { continuation.yield(()) }
        return stream
    }

    /// Watches the store until `continuation` terminates, noting each new state; finishes it if watching fails. The
    /// gate has one watch of the decision, shared by everything waiting on it: started with the first subscriber,
    /// stopped with the last.
    func startWatching<Element>(
        _ continuation: AsyncStream<Element>.Continuation,
        onChange: @escaping @Sendable (LocalNetworkAuthorization) -> Void
    ) {
        let id = UUID()
        let failure = watchers.withLock { watchers -> String? in
            watchers.subscribers[id] = onChange
            guard watchers.watch == nil else { return nil }
            do {
                watchers.watch = try store.watch { [weak self] state in self?.deliver(state) }
                return nil
            } catch {
                watchers.subscribers[id] = nil
                return "\(error)"
            }
        }
        if let failure {
            logger.error("cannot watch the local network decision for changes: \(failure)")
            continuation.finish()
            return
        }
        continuation.onTermination = { [weak self] _ in
            let last = self?.watchers.withLock { watchers -> DirectoryWatch? in
                watchers.subscribers[id] = nil
                guard watchers.subscribers.isEmpty else { return nil }
                defer { watchers.watch = nil }
                return watchers.watch
            }
            last?.cancel()
        }
    }

    /// A new state from the one watch: noted (and logged), then handed to every subscriber.
    private func deliver(_ state: LocalNetworkAuthorization) {
        observe(state)
        let subscribers = watchers.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber(state) }
    }
}
