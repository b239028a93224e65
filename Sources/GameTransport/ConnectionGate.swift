/// Decides whether a connection to an endpoint may proceed: the seam the local network privacy gate plugs into.
///
/// `GameConnection` asks before every attempt. While the answer is `.wait(reason)` the connection sits in
/// `waiting(.notAllowed(reason))` and asks again when `changes()` yields.
public protocol ConnectionGate: Sendable {
    func evaluate(_ endpoint: Endpoint) async -> GateDecision
    /// Yields whenever a decision may have changed (e.g. the user granted permission elsewhere).
    func changes() -> AsyncStream<Void>
}

public enum GateDecision: Sendable, Hashable {
    case allow
    case wait(String)
}

/// A gate that always allows: loopback and tests.
public struct OpenGate: ConnectionGate {
    public init() {}
    public func evaluate(_ endpoint: Endpoint) async -> GateDecision { .allow }
    public func changes() -> AsyncStream<Void> { AsyncStream { $0.finish() } }
}
