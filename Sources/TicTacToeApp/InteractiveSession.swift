import Foundation
import GameProtocol
import GameRules
import GameTransport
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
        let (listener, connection, running) = lock.withLock { (self.listener, self.connection, matchRunning) }
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
        bindHost: String = "0.0.0.0",
        logger: Logger = Logger(label: "tictactoe.ui.host"),
        report: @escaping @Sendable (MatchReport) -> Void,
        finished: @escaping @Sendable (ExitStatus) -> Void
    ) -> InteractiveSession {
        let session = InteractiveSession()
        let reporter = ClosureReporter(report)
        let listener = GameListener(bindHost: bindHost, port: port, hostName: name, logger: logger)
        session.lock.withLock { session.listener = listener }
        let commands = session.commands
        session.task = Task {
            var status: ExitStatus
            do {
                try await listener.run(
                    onEvent: { event in
                        switch event {
                        case .listening(let host, let port): reporter.report(.listening(host: host, port: port, name: name))
                        case .rejectedBusy(let remote): reporter.report(.rejectedBusy(remote: remote))
                        case .handshakeFailed(let remote, let error): reporter.report(.peerFailed(remote: remote, error: error))
                        }
                    },
                    onMatch: { link in
                        session.setMatchRunning(true)
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
                reporter.report(.error("cannot listen on port \(port): \(error)", .cannotListen))
                status = .cannotListen
            }
            finished(status)
        }
        return session
    }

    /// Joins `endpoint` and plays one match.
    public static func join(
        name: String,
        endpoint: Endpoint,
        connectTimeoutSeconds: Double = 10,
        gate: ConnectionGate = OpenGate(),
        logger: Logger = Logger(label: "tictactoe.ui.join"),
        report: @escaping @Sendable (MatchReport) -> Void,
        finished: @escaping @Sendable (ExitStatus) -> Void
    ) -> InteractiveSession {
        let session = InteractiveSession()
        let reporter = ClosureReporter(report)
        let connection = GameConnection(
            to: endpoint, localName: name,
            configuration: .init(connectTimeout: .nanoseconds(Int64(connectTimeoutSeconds * 1e9))),
            gate: gate, logger: logger,
            onStateChange: { reporter.report(.connectionState($0)) }
        )
        session.lock.withLock { session.connection = connection }
        let commands = session.commands
        session.task = Task {
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
            } catch let error as ConnectionError {
                // The state change to `failed` has already been reported.
                switch error {
                case .rejected: finished(.rejected)
                case .timedOut: finished(.timeout)
                default: finished(.unreachable)
                }
            } catch {
                finished(.interrupted)
            }
        }
        return session
    }
}

/// A reporter that hands every report to a closure.
public struct ClosureReporter: MatchReporter {
    private let closure: @Sendable (MatchReport) -> Void
    public init(_ closure: @escaping @Sendable (MatchReport) -> Void) { self.closure = closure }
    public func report(_ report: MatchReport) { closure(report) }
}
