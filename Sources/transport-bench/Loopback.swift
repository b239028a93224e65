import Foundation
import GameProtocol
import GameTransport
import LocalNetworkPrivacy
import Logging

/// Why a bench run could not finish (it then exits 1: the figures would mean nothing).
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Everything on 127.0.0.1, which the gate clears without asking (no manifest, no decision, no LAN traffic).
enum Loopback {
    static let host = "127.0.0.1"
    static let origin = OperationOrigin("transport bench")
    /// The listener's, the connections' and the gate's logger: errors only (to standard error), so that hundreds of
    /// joins do not bury the figures under "listening" and "exempt (loopback)" lines.
    static let logger: Logger = {
        var logger = Logger(label: "transport-bench")
        logger.logLevel = .error
        return logger
    }()
}

/// The gate the bench goes through, like the app: a real one over a decision store in a temporary directory (never
/// the user's), with no manifest, so that only loopback can be used. `remove()` deletes the directory.
struct BenchGate: Sendable {
    let gate: LocalNetworkGate
    private let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tictactoe-transport-bench-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = DecisionStore(directory: directory, logger: Loopback.logger)
        gate = LocalNetworkGate(store: store, logger: Loopback.logger) {
            throw LocalNetworkPrivacyError.manifest("the transport bench uses loopback only and has no manifest")
        }
    }

    /// Permission to listen on 127.0.0.1.
    func listenCapability() throws -> ListenCapability {
        switch gate.listen(on: .address(Loopback.host), for: Loopback.origin) {
        case .granted(let capability): return capability
        case .waiting(let reason, _): throw BenchFailure("the gate did not clear loopback: \(reason)")
        case .refused(let error): throw BenchFailure("the gate refused loopback: \(error)")
        }
    }

    /// A joiner's connection to the bench host on `port`.
    func connection(to port: Int, security: JoinerSecurity) -> GameConnection {
        GameConnection(
            to: Endpoint(host: Loopback.host, port: port), localName: "Bench joiner",
            configuration: .init(connectTimeout: .seconds(10), clock: ContinuousClock(), security: security),
            gate: gate, origin: Loopback.origin, logger: Loopback.logger)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A `GameListener` on 127.0.0.1 (a port the kernel picks) serving every joiner with `onMatch`. After each joiner
/// the bench waits until the host is free again (`waitUntilFree`), so that no joiner is ever answered "busy" and
/// every timing is one joiner alone.
struct LoopbackHost {
    let port: Int
    private let listener: GameListener
    private let task: Task<Void, Never>
    private var events: AsyncThrowingStream<GameListener.Event, Error>.AsyncIterator

    init(
        gate: BenchGate, security: HostSecurity,
        onMatch: @escaping @Sendable (inout PeerLink) async -> GameListener.Next
    ) async throws {
        let listener = GameListener(
            capability: try gate.listenCapability(), port: 0, hostName: "Bench host", security: security,
            clock: ContinuousClock(), logger: Loopback.logger)
        let (stream, continuation) = AsyncThrowingStream<GameListener.Event, Error>.makeStream()
        task = Task {
            do {
                try await listener.run(onEvent: { continuation.yield($0) }, onMatch: onMatch)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        var events = stream.makeAsyncIterator()
        guard case .listening(_, let port)? = try await events.next() else {
            throw BenchFailure("the bench host stopped before listening")
        }
        self.listener = listener
        self.events = events
        self.port = port
    }

    /// Waits for the listener's next "listening" (free again after a joiner); any failure it reports instead fails
    /// the run.
    mutating func waitUntilFree() async throws {
        while let event = try await events.next() {
            switch event {
            case .listening:
                return
            case .handshakeFailed(let remote, let error):
                throw BenchFailure("the host's handshake with \(remote) failed: \(error)")
            case .pairingFailed(let remote, let reason):
                throw BenchFailure("the host's pairing with \(remote) failed: \(reason)")
            case .pairingRefused(let source, _, let reason):
                throw BenchFailure("the host refused \(source): \(reason)")
            case .rejectedBusy(let remote):
                throw BenchFailure("the host answered \(remote) busy")
            case .wrongCodeCounted, .codeReplaced:
                throw BenchFailure("the host counted a wrong code")
            case .wrongCodesForgiven, .spectator:
                continue
            }
        }
        throw BenchFailure("the bench host stopped listening")
    }

    func stop() async {
        listener.stop()
        await task.value
    }
}
