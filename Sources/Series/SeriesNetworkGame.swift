import AppCore
import AppManifest
import AppProcess
import Bonjour
import GameClient
import GameProtocol
import GameRules
import GameTransport
import LocalNetworkPrivacy
import MatchPlay
import Synchronization


/// Where `tictactoe match --over` plays each game: as a network match between a host and a joiner in this process,
/// through the very code `tictactoe host` and `tictactoe join` run (`hostMatches`, `joinMatch`: the privacy gate, the
/// transport security policy, the handshake, `MatchSession` and `MatchRunner`).
public struct SeriesNetwork: Sendable {
    /// The address the game's host listens on and its joiner connects to: 127.0.0.1 or ::1 (loopback: no permission
    /// needed), or an address of this machine on the LAN (the gate asks first, as for `host --bind`).
    public var address: String
    /// `.open` (encrypted, protocol 2: the default) or `.plaintext` (protocol 1, where transport security allows it).
    public var security: GameSecurity
    public var gate: LocalNetworkGate
    /// How long each side waits for local network permission (nil: until it comes).
    public var waitTimeout: Duration?
    public var timeouts: ConnectionTimeouts

    public init(
        address: String, security: GameSecurity = .open, gate: LocalNetworkGate, waitTimeout: Duration? = nil,
        timeouts: ConnectionTimeouts = .default
    ) {
        self.address = address
        self.security = security
        self.gate = gate
        self.waitTimeout = waitTimeout
        self.timeouts = timeouts
    }

    /// "127.0.0.1" for `loopback`, the address itself otherwise.
    public static func address(over venue: String) -> String {
        venue.lowercased() == "loopback" ? "127.0.0.1" : venue
    }

    /// Why `venue` cannot be played over, or nil: it must be `loopback` or one IP address (a host listens on it and
    /// a joiner connects to it), not every interface, not a multicast group.
    public static func addressProblem(_ venue: String) -> String? {
        let address = Self.address(over: venue)
        let usage = "takes loopback or an IP address of this machine (e.g. --over 192.168.1.20)"
        switch AddressScope(address: address) {
        case nil: return "'\(venue)' is not an IP address: it \(usage)"
        case .unspecified?: return "'\(venue)' is every interface, not an address to connect to; it \(usage)"
        case .multicast?: return "'\(venue)' is a multicast group; it \(usage)"
        case .broadcast?: return "'\(venue)' is the broadcast address, not one host; it \(usage)"
        case .unicast?, .loopback?: return nil
        }
    }

    /// Asks for local network permission to listen on `address` (or waits for it, up to `waitTimeout` on `clock`, with
    /// each reason given to `onWaiting`) before the first game, so that a series asks once, at its start; the games'
    /// hosts and joiners then find the decision made. Loopback needs none. Plaintext on the LAN is judged by the
    /// manifest's transport security first, without a prompt. Throws `TransportSecurityRefusal` or
    /// `LocalNetworkAccessError`.
    public func obtainAccess(
        clock: any Clock<Duration>, onWaiting: @escaping @Sendable (String) -> Void
    ) async throws {
        if security == .plaintext, !Loopback.isLoopback(host: address), let manifest = try? gate.manifest() {
            try manifest.checkTransportSecurity(to: address, security: .plaintext)
        }
        let target = ListenTarget.address(address)
        _ = try await LocalNetworkAccess(gate: gate, clock: clock).obtain(
            { $0.listen(on: target, for: .matchCommand) }, waitTimeout: waitTimeout, onWaiting: onWaiting)
    }
}

extension SeriesGamePlayer {
    /// One game of the series as a one-game network match: the game's O player hosts on `network.address` (any free
    /// port), its X player joins it (a joiner is X in a match's first game, and X moves first, as in process). Each
    /// side's player is seeded as in process, so a seed gives the same games whichever way they are played. The
    /// record is the joiner's view of the game (the host's where the joiner saw no end); a game that could not be
    /// played stops the series with the status `host` or `join` would exit with.
    func playOverNetwork(
        _ scheduled: SeriesSchedule.Game, _ network: SeriesNetwork
    ) async throws(SeriesFailure) -> SeriesGameRecord {
        let host = SeriesSideLog(mark: .o)
        let joiner = SeriesSideLog(mark: .x)
        let stop = StopSignal()
        let (ports, portsContinuation) = AsyncStream<Int>.makeStream()
        let hostReporter = ClosureReporter { report in
            if case .listening(_, let port, _, _, _) = report { portsContinuation.yield(port) }
            host.report(report)
        }
        let hostRequest = HostRequest(
            target: .address(network.address), port: 0, matches: 1, advertise: false, origin: .matchCommand,
            waitTimeout: network.waitTimeout, endsWithFirstMatch: true, security: network.security)
        let hostOptions = matchOptions(scheduled, mark: .o, network: network)
        let joinOptions = matchOptions(scheduled, mark: .x, network: network)
        let gate = network.gate
        let statuses: (host: ExitStatus, join: ExitStatus?) = await withTaskCancellationHandler {
            async let hostStatus: ExitStatus = {
                let status = await hostMatches(
                    hostRequest, options: hostOptions, gate: gate, reporter: hostReporter, stop: stop)
                portsContinuation.finish()
                return status
            }()
            var joinStatus: ExitStatus?
            var listening = ports.makeAsyncIterator()
            if let port = await listening.next() {
                let request = JoinRequest(
                    target: .address(Endpoint(host: network.address, port: port)), waitTimeout: network.waitTimeout,
                    origin: .matchCommand,
                    security: network.security == .plaintext ? .plaintext : .encrypted(code: nil))
                let status = await joinMatch(request, options: joinOptions, gate: gate, reporter: joiner, stop: stop)
                joinStatus = status
                // A joiner that could not play leaves a host listening for it: it stops. (After a match played to
                // its end the host ends by itself, with its own status.)
                if status != .success { stop.raise(.shutdown) }
            }
            return (await hostStatus, joinStatus)
        } onCancel: {
            // The series is over (an SPRT decided, the output failed): both sides say goodbye.
            stop.raise(.shutdown)
        }
        // The joiner's view of the game, or the host's where only the host saw its end.
        let seen = [joiner.game, host.game].first { $0?.result != nil } ?? joiner.game ?? host.game
        for side in [joiner, host] where side.status(statuses) == .scriptError {
            throw SeriesFailure(
                game: scheduled.number, player: names[side.mark == .x ? scheduled.x : scheduled.o],
                why: side.error ?? "the script failed")
        }
        guard let seen, let result = seen.result else {
            // Not played to its end: why, from the side that failed first (the host's refusal comes before a join).
            let failed = [host, joiner].first { $0.error != nil }
            let status = failed.flatMap { $0.status(statuses) }
                ?? [statuses.join ?? .failure, statuses.host].first { $0 != .success } ?? .failure
            throw SeriesFailure(
                game: scheduled.number, player: nil,
                why: "the network game over \(network.address) did not finish: "
                    + (failed?.error ?? seen?.end ?? "the match ended before its game did"),
                exitStatus: status)
        }
        let failure = joiner.engineFailure ?? host.engineFailure
        return SeriesGameRecord(
            game: scheduled, moves: seen.moves, result: result, board: seen.board, engineFailure: failure,
            engines: joiner.engines + host.engines)
    }

    /// The side of `mark` as a one-game match: its name, player and seed as in process, the series' time limits.
    private func matchOptions(_ scheduled: SeriesSchedule.Game, mark: Mark, network: SeriesNetwork) -> MatchOptions {
        let index = mark == .x ? scheduled.x : scheduled.o
        var options = MatchOptions(
            name: names[index], player: specs[index],
            seed: SeriesSeeds.seed(series: seed, game: scheduled.number, mark: mark), games: 1,
            timeouts: network.timeouts, moveTimeout: moveTime ?? MatchOptions.defaultMoveTimeout, clock: clock)
        options.gameTime = gameTime
        options.joinerEngineMoveTime = moveTime
        options.engineLogDirectory = engineLogDirectory
        return options
    }
}

/// What one side of a series' network game reported: its view of the game, the engine it started, how it failed.
private final class SeriesSideLog: MatchReporter {
    struct Seen {
        var moves: [Int] = []
        var result: GameResult?
        var board = Board()
        /// How the match ended, when it ended without its game (`MatchSession.End.description`).
        var end: String?
    }

    let mark: Mark
    private let state = Mutex(
        (seen: Seen?.none, error: String?.none, status: ExitStatus?.none,
         engines: [SeriesGameRecord.EngineStart](), failure: SeriesGameRecord.EngineFailureNote?.none))

    init(mark: Mark) { self.mark = mark }

    var game: Seen? { state.withLock { $0.seen } }
    /// The first error it reported.
    var error: String? { state.withLock { $0.error } }
    var engines: [SeriesGameRecord.EngineStart] { state.withLock { $0.engines } }
    var engineFailure: SeriesGameRecord.EngineFailureNote? { state.withLock { $0.failure } }

    /// The status of the error it reported, else its exit status.
    func status(_ statuses: (host: ExitStatus, join: ExitStatus?)) -> ExitStatus? {
        state.withLock { $0.status } ?? (mark == .o ? statuses.host : statuses.join)
    }

    func report(_ report: MatchReport) {
        let mark = self.mark
        state.withLock { state in
            switch report {
            case .session(.gameStarted):
                state.seen = Seen()
            case .session(.moved(_, let cell, _)):
                state.seen?.moves.append(cell)
            case .session(.gameOver(_, let result, let board, _)):
                state.seen?.result = result
                state.seen?.board = board
            case .session(.matchOver(let end, _)):
                if state.seen?.result == nil { state.seen?.end = end.text }
            case .error(let message, let status) where state.error == nil:
                state.error = message
                state.status = status
            case .engineStarted(let name, let pid, let log):
                state.engines.append(.init(mark: mark, name: name, pid: pid, log: log))
            case .engineFailed(_, let engine, let kind, let reason, let log) where state.failure == nil:
                state.failure = .init(mark: mark, engine: engine, kind: kind, reason: reason, logPath: log)
            default:
                break
            }
        }
    }
}
