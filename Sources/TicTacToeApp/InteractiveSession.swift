import Foundation
import GameProtocol
import GameRules
import GameTransport
import LocalNetworkPrivacy
import Logging
import NIOCore

/// A match for a UI: hosts (one match) or joins; the local side's moves, resignations and rematch answers come
/// from `send(_:)`, and everything that happens is reported through `report`. No NIO types cross this API.
public final class InteractiveSession: @unchecked Sendable {
    private let commands: AsyncStream<LocalCommand>
    private let commandSink: AsyncStream<LocalCommand>.Continuation
    private let lock = NSLock()
    private var listener: GameListener?
    private var connection: GameConnection?
    private var matchRunning = false
    private var matchStatus = ExitStatus.success
    private var cancelled = false
    private var task: Task<Void, Never>?

    private init() {
        (commands, commandSink) = AsyncStream<LocalCommand>.makeStream()
    }

    /// What the local player decides.
    public func send(_ command: LocalCommand) {
        commandSink.yield(command)
    }

    /// Stops listening or connecting. A match in progress is not cut: send `.leave` so the peer hears a bye.
    public func cancel() {
        let (listener, connection, running) = lock.withLock {
            cancelled = true
            return (self.listener, self.connection, matchRunning)
        }
        listener?.stop()
        if !running { connection?.cancel() }
    }

    private func setMatchRunning(_ running: Bool) {
        lock.withLock { matchRunning = running }
    }

    /// Hosts one match on `port` (0: any free port) and then stops listening.
    public static func host(
        name: String,
        port: Int,
        listen: ListenCapability,
        advertising: HostAdvertising? = nil,
        logger: Logger = Logger(label: "tictactoe.ui.host"),
        report: @escaping @Sendable (MatchReport) -> Void,
        finished: @escaping @Sendable (ExitStatus) -> Void
    ) -> InteractiveSession {
        let session = InteractiveSession()
        let reporter = ClosureReporter(report)
        let listener = GameListener(capability: listen, port: port, hostName: name, logger: logger)
        session.lock.withLock { session.listener = listener }
        let commands = session.commands
        session.task = Task {
            var status: ExitStatus
            do {
                try await listener.run(
                    onEvent: { event in
                        switch event {
                        case .listening(let host, let port):
                            reporter.report(.listening(host: host, port: port, name: name))
                            advertising?.advertise(port: port)
                        case .rejectedBusy(let remote): reporter.report(.rejectedBusy(remote: remote))
                        case .handshakeFailed(let remote, let error): reporter.report(.peerFailed(remote: remote, error: error))
                        }
                    },
                    onMatch: { link in
                        session.setMatchRunning(true)
                        advertising?.withdraw()  // a host serves one game
                        var runner = MatchRunner(role: .host, controller: .commands(commands), policy: .followPeer,
                                                 reporter: reporter)
                        let end = await runner.run(&link)
                        session.lock.withLock {
                            session.matchRunning = false
                            session.matchStatus = end.exitStatus
                        }
                        return .stop
                    }
                )
                status = session.lock.withLock { session.matchStatus }
            } catch {
                reporter.report(.error(
                    "cannot listen on port \(port): \(error). Host again with another port (0: any free one)",
                    .cannotListen))
                status = .cannotListen
            }
            advertising?.stop()
            finished(status)
        }
        return session
    }

    /// Joins the host at the first of `endpoints` that answers (every address but the last gets at most
    /// `perAddressSeconds`, the last the rest of the connect timeout) and plays one match. `resolve`, when given, is
    /// awaited first to find the endpoints (a Bonjour name).
    public static func join(
        name: String,
        endpoints: [Endpoint],
        resolve: (@Sendable () async throws -> [Endpoint])? = nil,
        connectTimeoutSeconds: Double = 10,
        perAddressSeconds: Double = 3,
        gate: LocalNetworkGate,
        origin: OperationOrigin = .joinScreen,
        logger: Logger = Logger(label: "tictactoe.ui.join"),
        report: @escaping @Sendable (MatchReport) -> Void,
        finished: @escaping @Sendable (ExitStatus) -> Void
    ) -> InteractiveSession {
        let session = InteractiveSession()
        let reporter = ClosureReporter(report)
        let commands = session.commands
        session.task = Task {
            var targets = endpoints
            if let resolve {
                do {
                    targets = try await resolve()
                } catch {
                    reporter.report(.error("\(error)", .unreachable))
                    finished(.unreachable)
                    return
                }
            }
            let deadline = ContinuousClock.now + .nanoseconds(Int64(connectTimeoutSeconds * 1e9))
            var lastStatus = ExitStatus.unreachable
            for (index, endpoint) in targets.enumerated() {
                if session.isCancelled { break }
                let remaining = deadline - .now
                let isLast = index == targets.count - 1
                let budget = isLast ? remaining : min(remaining, .nanoseconds(Int64(perAddressSeconds * 1e9)))
                guard budget > .zero else { break }
                let connection = GameConnection(
                    to: endpoint, localName: name,
                    configuration: .init(connectTimeout: .nanoseconds(budget.components.seconds * 1_000_000_000
                                                                      + budget.components.attoseconds / 1_000_000_000)),
                    gate: gate, origin: origin, logger: logger,
                    onStateChange: { state in
                        // A failed address that is not the last is not the end: the next one is tried.
                        if case .failed = state, !isLast { return }
                        reporter.report(.connectionState(state))
                    }
                )
                session.lock.withLock { session.connection = connection }
                do {
                    let end = try await connection.run { link in
                        session.setMatchRunning(true)
                        var runner = MatchRunner(role: .joiner, controller: .commands(commands), policy: .followPeer,
                                                 reporter: reporter)
                        let end = await runner.run(&link)
                        session.setMatchRunning(false)
                        return end
                    }
                    finished(end.exitStatus)
                    return
                } catch let error as ConnectionError {
                    switch error {
                    case .rejected: lastStatus = .rejected
                    case .timedOut: lastStatus = .timeout
                    case .localNetworkRefused: lastStatus = .localNetworkNotAllowed
                    default: lastStatus = .unreachable
                    }
                    if case .rejected = error { break }  // the host answered: another address would say the same
                } catch {
                    lastStatus = .interrupted
                    break
                }
            }
            finished(lastStatus)
        }
        return session
    }

    private var isCancelled: Bool { lock.withLock { cancelled } }
}

/// A reporter that hands every report to a closure.
public struct ClosureReporter: MatchReporter {
    private let closure: @Sendable (MatchReport) -> Void
    public init(_ closure: @escaping @Sendable (MatchReport) -> Void) { self.closure = closure }
    public func report(_ report: MatchReport) { closure(report) }
}
