import AppProcess
import Bonjour
import FoundationEssentials
import GameClient
import GamePairing
import GameProtocol
import GameTransport
import LocalNetworkPrivacy
import Logging
import MatchPlay
import PairingCode
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A match for a UI: hosts (one match) or joins through the same coordinators as the headless commands; the local
/// side's moves, resignations and rematch answers come from `send(_:)`, and everything that happens is reported
/// through `report`. No NIO types cross this API.
public final class InteractiveSession: Sendable {
    private let commands: AsyncStream<LocalCommand>
    private let commandSink: AsyncStream<LocalCommand>.Continuation
    private struct State {
        var listener: GameListener?
        var connection: GameConnection?
        var matchRunning = false
        var task: Task<Void, Never>?
        /// A watch's way out: raised, it says bye to the host (or stops connecting).
        var stop: StopSignal?
    }
    private let state = Mutex(State())

    private init() {
        (commands, commandSink) = AsyncStream<LocalCommand>.makeStream()
    }

    /// What the local player decides.
    public func send(_ command: LocalCommand) {
        commandSink.yield(command)
    }

    /// Stops waiting for permission, listening or connecting. A match in progress is not cut: send `.leave` so the
    /// peer hears a bye.
    public func cancel() {
        let (listener, connection, running, task, stop) = state.withLock {
            ($0.listener, $0.connection, $0.matchRunning, $0.task, $0.stop)
        }
        if let stop {
            // A watch leaves as `tictactoe watch` does on Ctrl-C: the host hears bye. Before it is connected (waiting
            // for permission, say) nothing needs telling: the task ends.
            stop.raise(.quit)
            if connection == nil { task?.cancel() }
            return
        }
        // The host leaves: its spectators hear that it went away (`quit`), not that it is done.
        listener?.stop(spectatorsHear: .quit)
        if !running {
            connection?.cancel()
            task?.cancel()
        }
    }

    /// Notes whether a match runs (so that `cancel` leaves it alone), then passes the report on.
    private func reporter(_ report: @escaping @Sendable (MatchReport) -> Void) -> MatchReporter {
        ClosureReporter { [weak self] event in
            switch event {
            case .connected: self?.state.withLock { $0.matchRunning = true }
            case .session(.matchOver): self?.state.withLock { $0.matchRunning = false }
            default: break
            }
            report(event)
        }
    }

    private func start(_ body: @escaping @Sendable () async -> ExitStatus, finished: @escaping @Sendable (ExitStatus) -> Void) {
        let task = Task { finished(await body()) }
        state.withLock { $0.task = task }
    }

    /// Hosts one match on `port` (0: any free port) on every interface, advertised as `name` (unless `advertise` is
    /// false: the Lobby's game), and then stops. A private game (`security`) hands its code, and each code that
    /// replaces it with the reason, to `showCode` only (for the host's screen): never to `report`. `origin` is the
    /// screen the privacy log and report name.
    public static func host(
        name: String,
        port: Int,
        security: GameSecurity = .open,
        spectators: Int = 0,
        advertise: Bool = true,
        origin: OperationOrigin = .hostScreen,
        gate: LocalNetworkGate,
        clock: any Clock<Duration>,
        logger: Logger = Logger(label: "tictactoe.ui.host"),
        showCode: @escaping @Sendable (_ code: GameCode, _ replacedBecause: String?) -> Void = { _, _ in },
        report: @escaping @Sendable (MatchReport) -> Void,
        finished: @escaping @Sendable (ExitStatus) -> Void
    ) -> InteractiveSession {
        let session = InteractiveSession()
        let reporter = session.reporter(report)
        let options = MatchOptions(name: name, commands: session.commands, clock: clock)
        let request = HostRequest(
            port: port, matches: 1, advertise: advertise, origin: origin, endsWithFirstMatch: true, security: security,
            showCode: showCode, spectators: spectators)
        session.start({
            await hostMatches(request, options: options, gate: gate, reporter: reporter, logger: logger) { listener in
                session.state.withLock { $0.listener = listener }
            }
        }, finished: finished)
        return session
    }

    /// Joins `target` (a Bonjour name or an address) and plays one match: an open game, or a private one with the
    /// code in `security` (missing or wrong: `.error(_, .wrongCode)`, exit 13).
    public static func join(
        name: String,
        target: JoinTarget,
        security: JoinSecurity = .encrypted(code: nil),
        origin: OperationOrigin = .joinScreen,
        gate: LocalNetworkGate,
        clock: any Clock<Duration>,
        logger: Logger = Logger(label: "tictactoe.ui.join"),
        report: @escaping @Sendable (MatchReport) -> Void,
        finished: @escaping @Sendable (ExitStatus) -> Void
    ) -> InteractiveSession {
        let session = InteractiveSession()
        let reporter = session.reporter(report)
        let options = MatchOptions(name: name, commands: session.commands, clock: clock)
        let request = JoinRequest(target: target, origin: origin, security: security)
        session.start({
            await joinMatch(request, options: options, gate: gate, reporter: reporter, logger: logger) { connection in
                session.state.withLock { $0.connection = connection }
            }
        }, finished: finished)
        return session
    }

    /// Watches the match at `target` read-only (a spectator: `tictactoe watch`), with a private game's code in
    /// `security`; `cancel` leaves, telling the host.
    public static func watch(
        name: String,
        target: JoinTarget,
        security: JoinSecurity = .encrypted(code: nil),
        gate: LocalNetworkGate,
        clock: any Clock<Duration>,
        logger: Logger = Logger(label: "tictactoe.ui.watch"),
        report: @escaping @Sendable (MatchReport) -> Void,
        finished: @escaping @Sendable (ExitStatus) -> Void
    ) -> InteractiveSession {
        let session = InteractiveSession()
        let stop = StopSignal()
        session.state.withLock { $0.stop = stop }
        let options = MatchOptions(name: name, player: .perfect, seed: 0, games: nil, moveDelay: .zero, clock: clock)
        let request = JoinRequest(target: target, origin: .watchScreen, security: security, role: .spectator)
        session.start({
            await joinMatch(request, options: options, gate: gate, reporter: ClosureReporter(report), stop: stop,
                            logger: logger) { connection in
                session.state.withLock { $0.connection = connection }
            }
        }, finished: finished)
        return session
    }
}

/// A reporter that hands every report to a closure.
public struct ClosureReporter: MatchReporter {
    private let closure: @Sendable (MatchReport) -> Void
    public init(_ closure: @escaping @Sendable (MatchReport) -> Void) { self.closure = closure }
    public func report(_ report: MatchReport) { closure(report) }
}
