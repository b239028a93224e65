import AppCore
import AppProcess
import GameClient
import GameProtocol
import GameTransport
import LocalNetworkPrivacy
import Logging
import MatchPlay
import TicTacToeTestSupport

/// A host in process (on 127.0.0.1 unless its request says otherwise), `hostMatches` in a task: what it reports (as
/// reports and as its `--json` lines), the listeners it made, the stop that ends a host that would keep serving (what
/// Ctrl-C does), and its port.
struct LoopbackHost {
    let task: Task<ExitStatus, Never>
    let reports: Recorder<MatchReport>
    let json: JSONSide
    let listeners: Recorder<GameListener>
    let stop: StopSignal
    let port: Int

    /// Starts `request` with `options` through `gate`, and returns once it listens; `reporter`, if given, is told
    /// every report too (a test's own transcript).
    static func start(
        _ request: HostRequest, options: MatchOptions, gate: LocalNetworkGate, reporter: (any MatchReporter)? = nil,
        logger: Logger = Logger(label: "tictactoe.host"), file: StaticString = #filePath, line: UInt = #line
    ) async throws -> LoopbackHost {
        let (reports, json, listeners) = (Recorder<MatchReport>(), JSONSide(), Recorder<GameListener>())
        let stop = StopSignal()
        let jsonReporter = json.reporter
        let task = Task {
            await hostMatches(request, options: options, gate: gate, reporter: ClosureReporter { report in
                reports.append(report)
                jsonReporter.report(report)
                reporter?.report(report)
            }, stop: stop, logger: logger, onListener: { listeners.append($0) })
        }
        let port = try await listeningPort(reports, file: file, line: line)
        return LoopbackHost(task: task, reports: reports, json: json, listeners: listeners, stop: stop, port: port)
    }
}
