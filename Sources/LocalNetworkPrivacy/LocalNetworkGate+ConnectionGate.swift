import GameTransport

/// `GameConnection`'s seam: a connection to a LAN address sits in `waiting(.notAllowed(reason))` until local network
/// access is allowed, and proceeds by itself when the decision changes (the decision file is watched); loopback
/// endpoints are exempt.
extension LocalNetworkGate: ConnectionGate {
    public func evaluate(_ endpoint: Endpoint) async -> GateDecision {
        let verdict: GateVerdict = evaluate(.connect(endpoint))
        switch verdict {
        case .allowed, .exempt:
            return .allow
        case .needsPrompt:
            return .wait(Self.waitingReason(for: .notDetermined))
        case .denied:
            return .wait(Self.waitingReason(for: .denied))
        case .manifestError(let text):
            // ConnectionGate has no way to fail; the reason says what is wrong and what to do.
            return .wait(text)
        case .noAuth(let type):
            return .wait(LocalNetworkPrivacyError.noAuth(serviceType: type, manifestPath: nil).description)
        }
    }

    /// Yields whenever the decision changes (for `GameConnection`; disfavoured so that `changes()` on a
    /// `LocalNetworkGate` means the typed stream).
    @_disfavoredOverload
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        startWatching(continuation) { _ in continuation.yield(()) }
        return stream
    }
}
