import Dispatch
import FoundationEssentials
import Synchronization
import GameProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A request to stop (Ctrl-C, SIGTERM, SIGHUP) that any number of running matches can wait for. Once raised, it stays
/// raised: a match starting later sees it at once.
public final class StopSignal: Sendable {
    private struct State {
        var reason: ByeReason?
        var continuations: [UUID: AsyncStream<ByeReason>.Continuation] = [:]
    }
    private let state = Mutex(State())

    public init() {}

    /// The reason, once raised.
    public var raised: ByeReason? { state.withLock { $0.reason } }

    public func raise(_ reason: ByeReason) {
        let waiting = state.withLock { state -> [AsyncStream<ByeReason>.Continuation] in
            guard state.reason == nil else { return [] }
            state.reason = reason
            return Array(state.continuations.values)
        }
        for continuation in waiting { continuation.yield(reason) }
    }

    /// Yields the reason once raised.
    public func stream() -> AsyncStream<ByeReason> {
        let (stream, continuation) = AsyncStream<ByeReason>.makeStream()
        let id = UUID()
        let raised = state.withLock { state -> ByeReason? in
            if let reason = state.reason { return reason }
            state.continuations[id] = continuation
            return nil
        }
        if let raised {
            continuation.yield(raised)
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }
}

extension StopSignal {
    /// When `output` fails (a reader that closed the pipe, a full disk), the run stops as a shutdown would: a match in
    /// progress tells the peer goodbye with its normal `bye`, and the host takes no further joiner. The run then ends
    /// with exit code 74 (`ExitStatus.unlessOutputFailed`).
    public func raiseWhenFailing(_ output: CheckedOutput = .standardOutput) {
        output.onFailure { [weak self] _ in self?.raise(.shutdown) }
    }
}

/// Signals and shutdown in one place, for a command-line run. With a run to stop: Ctrl-C (SIGINT), SIGTERM and
/// SIGHUP raise its `StopSignal` (a match in progress tells its peer goodbye, a host takes nobody else), and so does
/// standard output failing (a reader that went away, a full disk); whatever still runs 2 s after a signal (3 s after
/// the output failed) is ended with the stop's exit code (130 for Ctrl-C, 143 for SIGTERM and SIGHUP, 74 for the
/// output), and a second signal ends it at once. Without a run to stop (`browse`), signals keep their default
/// action and a failing output exits at once. The signal handlers live as long as this value: keep it to the end of
/// the command.
public final class Shutdown {
    /// The signals that stop a run, and how (Ctrl-C is the player quitting; the others, the system stopping us).
    public static let stopSignals: [(number: Int32, reason: ByeReason)] = [
        (SIGINT, .quit), (SIGTERM, .shutdown), (SIGHUP, .shutdown),
    ]

    /// The reason each of `signals` stands for (the first, when one is given twice).
    public static func reasons(_ signals: [(number: Int32, reason: ByeReason)] = stopSignals) -> [Int32: ByeReason] {
        Dictionary(signals.map { ($0.number, $0.reason) }, uniquingKeysWith: { first, _ in first })
    }

    private let signals: SignalCatcher?

    /// `watchingOutput` false: the command decides itself what a failing output does (`match`). Tests pass other
    /// `signals`, their own `clock` and `exit`.
    public init(
        stopping stop: StopSignal?, watchingOutput: Bool = true,
        signals: [(number: Int32, reason: ByeReason)] = stopSignals, clock: some Clock<Duration> = ContinuousClock(),
        exit: @escaping @Sendable (ExitStatus) -> Void = { Glibc.exit($0.rawValue) }
    ) {
        if watchingOutput { Self.endRunWhenOutputFails(stop, clock: clock, exit: exit) }
        guard let stop else {
            self.signals = nil
            return
        }
        let reasons = Self.reasons(signals)
        self.signals = SignalCatcher(signals.map(\.number)) { number in
            guard let reason = reasons[number] else { return }
            let status = ExitStatus(stoppedBy: reason)
            if stop.raised != nil { return exit(status) }
            stop.raise(reason)
            Task.detached {
                try? await clock.sleep(for: .seconds(2))
                exit(status)
            }
        }
    }

    private static func endRunWhenOutputFails(
        _ stop: StopSignal?, clock: some Clock<Duration>, exit: @escaping @Sendable (ExitStatus) -> Void
    ) {
        CheckedOutput.standardOutput.onFailure { error in
            // Found by the exit's last flush: the status is decided (and exit() must not run again).
            guard !CheckedOutput.isExiting else {
                CheckedOutput.standardError.writeLine("tictactoe: \(error)")
                return
            }
            CheckedOutput.standardError.writeLine(
                "tictactoe: \(error); stopping, exit code \(ExitStatus.outputFailed.rawValue)")
            guard stop != nil else { return exit(.outputFailed) }
            Task.detached {
                try? await clock.sleep(for: .seconds(3))
                guard !CheckedOutput.isExiting else { return }  // exiting already (waiting for a paused reader)
                exit(.outputFailed)
            }
        }
        stop?.raiseWhenFailing(.standardOutput)
    }
}
