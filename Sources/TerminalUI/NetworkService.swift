import GameTransport
import TicTacToeApp

/// A running host or join, as the UI sees it.
public protocol NetworkHandle: AnyObject {
    func send(_ command: LocalCommand)
    func cancel()
}

/// Starts network matches for the UI; events arrive through `events` (from any thread).
public protocol NetworkService {
    func host(name: String, port: Int, events: @escaping @Sendable (NetworkEvent) -> Void) -> NetworkHandle
    func join(name: String, address: String, events: @escaping @Sendable (NetworkEvent) -> Void) -> NetworkHandle
}

extension InteractiveSession: NetworkHandle {}

/// The real network: TCP through `InteractiveSession`.
public struct LiveNetworkService: NetworkService {
    public init() {}

    public func host(name: String, port: Int, events: @escaping @Sendable (NetworkEvent) -> Void) -> NetworkHandle {
        InteractiveSession.host(name: name, port: port, report: { events(.report($0)) }, finished: { events(.finished($0)) })
    }

    public func join(name: String, address: String, events: @escaping @Sendable (NetworkEvent) -> Void) -> NetworkHandle {
        guard let endpoint = try? Endpoint(parsing: address) else {
            let handle = FailedHandle()
            events(.report(.error("bad address '\(address)'", .usage)))
            events(.finished(.usage))
            return handle
        }
        return InteractiveSession.join(
            name: name, endpoint: endpoint, report: { events(.report($0)) }, finished: { events(.finished($0)) }
        )
    }
}

private final class FailedHandle: NetworkHandle {
    func send(_ command: LocalCommand) {}
    func cancel() {}
}
