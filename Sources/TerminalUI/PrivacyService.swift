import Bonjour
import Foundation
import GameTransport
import LocalNetworkPrivacy
import TicTacToeApp

/// The privacy side of the UI runtime: asks the gate, remembers answers, reports the state (fake in tests).
public protocol PrivacyService: AnyObject {
    /// The gate's verdict for what the user asked for, and the prompt's text when it must be asked.
    func verdict(for intent: NetworkIntent) -> (GateVerdict, prompt: (title: String, message: String)?)
    func answerPrompt(allow: Bool)
    func setAllowed(_ allowed: Bool)
    func reset()
    func info() -> PrivacyInfo
    /// Calls `changed` whenever the decision changes (here or in another process) until the returned closure is
    /// called.
    func watch(_ changed: @escaping @Sendable () -> Void) -> () -> Void
}

/// The real one: `LocalNetworkGate` over the user's decision file and the app manifest.
public final class LivePrivacyService: PrivacyService, @unchecked Sendable {
    public let gate: LocalNetworkGate
    private let logFile: String

    public init(gate: LocalNetworkGate, logFile: String) {
        self.gate = gate
        self.logFile = logFile
    }

    static func operation(for intent: NetworkIntent) -> LocalNetworkOperation {
        switch intent {
        case .search:
            return .browse(serviceType: GameService.type)
        case .host:
            return .listen(bindHost: "0.0.0.0")
        case .join(_, let address):
            if case .address(let endpoint)? = try? JoinTarget(parsing: address) { return .connect(endpoint) }
            return .browse(serviceType: GameService.type)  // a Bonjour name is resolved first
        }
    }

    public func verdict(for intent: NetworkIntent) -> (GateVerdict, prompt: (title: String, message: String)?) {
        let operation = Self.operation(for: intent)
        let verdict = gate.evaluate(operation)
        guard verdict == .needsPrompt, let request = try? gate.promptRequest(for: operation) else { return (verdict, nil) }
        return (verdict, (request.title, request.message))
    }

    public func answerPrompt(allow: Bool) { try? gate.answerPrompt(allow: allow) }
    public func setAllowed(_ allowed: Bool) { try? gate.store.write(allowed ? .allowed : .denied, source: "settings") }
    public func reset() { try? gate.store.reset() }

    public func info() -> PrivacyInfo {
        let manifest = Result { try gate.manifest() }
        return PrivacyInfo(
            state: gate.store.read(),
            usageDescription: (try? manifest.get())?.usageDescription,
            services: (try? manifest.get())?.bonjourServices ?? [],
            manifestPath: (try? manifest.get())?.path,
            manifestError: { if case .failure(let error) = manifest { return "\(error)" } else { return nil } }(),
            decisionFile: gate.store.decisionPath,
            logFile: logFile
        )
    }

    public func watch(_ changed: @escaping @Sendable () -> Void) -> () -> Void {
        let stream: AsyncStream<LocalNetworkAuthorization> = gate.changes()
        let task = Task {
            for await _ in stream { changed() }
        }
        return { task.cancel() }
    }
}
