@testable import AppCore
import Foundation
import GameClient
import GameProtocol
import GameRules
import GameTransport
import HeadlessUI
import JSONLines
@testable import MatchPlay
import NIOCore
import Synchronization
import TicTacToeTestSupport
import XCTest

import AppManifest
import AppProcess
@testable import LocalNetworkPrivacy

/// The host's move time limit (`--move-timeout`) through the app core: a host in process on loopback, a joiner that
/// stalls, and the host's clock a `ManualClock` this test advances (nothing sleeps through the 120 s).
final class MoveTimeoutTests: XCTestCase {
    private let origin = OperationOrigin("move timeout tests")
    private let limit = Duration.seconds(120)

    /// A gate over a fresh, unanswered decision: loopback is cleared without asking, nothing else is.
    /// A perfect host with the move time limit on `clock`, serving on 127.0.0.1.
    private func startHost(
        games: Int, clock: ManualClock, gate: LocalNetworkGate, gameTime: Duration? = nil, moveDelay: Duration = .zero
    ) async throws -> (Task<ExitStatus, Never>, Recorder<MatchReport>, Recorder<GameListener>, Int) {
        var options = MatchOptions(name: "host", player: .perfect, seed: 1, games: games, moveDelay: moveDelay,
                                   moveTimeout: limit, clock: clock)
        options.gameTime = gameTime
        // The test's joiner is a raw plaintext (protocol 1) connection.
        let request = HostRequest(target: .address("127.0.0.1"), port: 0, matches: 1, advertise: false, origin: origin,
                                  security: .plaintext)
        let host = try await LoopbackHost.start(request, options: options, gate: gate)
        return (host.task, host.reports, host.listeners, host.port)
    }

    /// What the host on `port` sends a joiner (X, to move first) that never moves: the host's turn timer on `clock`
    /// still waits a second before `limit`, and has run out at it.
    private func framesToAJoinerThatNeverMoves(
        port: Int, gate: LocalNetworkGate, clock: ManualClock, limit: Duration
    ) async throws -> [GameMessage] {
        try await connection(to: port, gate: gate).run { link -> [GameMessage] in
            var frames: [GameMessage] = []
            guard let start = try await link.next() else { return frames }
            frames.append(start)
            await clock.waitForSleepers(1)  // the host's turn timer
            await clock.advance(by: limit - .seconds(1))
            XCTAssertEqual(clock.sleeping, 1, "a second before the limit, the timer still waits")
            await clock.advance(by: .seconds(1))
            while let frame = try await link.next() { frames.append(frame) }
            return frames
        }
    }

    private func connection(to port: Int, gate: LocalNetworkGate) -> GameConnection {
        GameConnection(
            to: Endpoint(host: "127.0.0.1", port: port), localName: "staller",
            configuration: .init(clock: ContinuousClock()), gate: gate, origin: origin)
    }

    private func json(_ reports: [MatchReport]) -> [String] {
        reports.compactMap { try? JSONEvent.line($0) }
    }

    private func waitForMatchOver(_ reports: Recorder<MatchReport>) async {
        await assertEventually("the host's match-over") {
            reports.all.contains { if case .session(.matchOver) = $0 { return true } else { return false } }
        }
    }

    /// Once the host listens for its next joiner (its match is over and reported), it is stopped.
    private func stopWhenListeningAgain(_ reports: Recorder<MatchReport>, _ listeners: Recorder<GameListener>) async {
        await assertEventually("the host to listen again") {
            reports.all.filter { if case .listening = $0 { return true } else { return false } }.count == 2
        }
        listeners.all.last?.stop()
    }

    /// A joiner that claims the host ran out of time as its first frame, on its own turn, announcing no limit: the
    /// host refuses the claim, and the joiner forfeits game 1.
    func testAJoinerCannotWinByClaimingTheHostTimedOut() async throws {
        let gate = try makeGate()
        let clock = ManualClock()
        let (host, reports, listeners, port) = try await startHost(games: 1, clock: clock, gate: gate)

        let frames = try await connection(to: port, gate: gate).run { link -> [GameMessage] in
            var frames: [GameMessage] = []
            guard let start = try await link.next() else { return frames }
            frames.append(start)
            try await link.send(.bye(.timeout))
            while let frame = try await link.next() { frames.append(frame) }
            return frames
        }
        let refusal = "bye(timeout), but you announced no time limit in your handshake"
        XCTAssertEqual(frames, [.start(game: 1, joinerMark: .x, firstMover: .x),
                                .error(code: .timeoutNotDue, text: refusal)])
        await waitForMatchOver(reports)
        let lines = json(reports.all)
        XCTAssertTrue(lines.contains {
            $0.contains(#""event":"game-over""#) && $0.contains(#""reason":"forfeit""#) && $0.contains(#""winner":"O""#)
        }, lines.joined(separator: "\n"))
        XCTAssertFalse(lines.contains { $0.contains(#""timed_out""#) }, lines.joined(separator: "\n"))
        await stopWhenListeningAgain(reports, listeners)
        _ = await host.value
    }

    /// The host's pause before its own move (`--move-delay`) waits on the match's clock, as every wait does.
    func testTheHostsMoveDelayWaitsOnTheMatchClock() async throws {
        let gate = try makeGate()
        let clock = ManualClock()
        let (host, reports, listeners, port) = try await startHost(
            games: 1, clock: clock, gate: gate, moveDelay: .seconds(5))
        let moves = { (side: MatchSession.Side) in
            reports.all.filter { if case .session(.moved(_, _, side)) = $0 { return true } else { return false } }.count
        }
        let connection = connection(to: port, gate: gate)
        let joiner = Task {
            try await connection.run { link -> GameMessage? in
                _ = try await link.next()  // the start: the joiner plays X and moves first
                try await link.send(.move(cell: 4))
                let reply = try await link.next()
                try await link.send(.bye(.quit))
                return reply
            }
        }
        await assertEventually("the joiner's move at the host") { moves(.peer) == 1 }
        // The turn timer's sleep (armed for the joiner's turn) and the delayed move's.
        await clock.waitForSleepers(2)
        XCTAssertEqual(moves(.local), 0, "the host's move waits for the clock")
        await clock.advance(by: .seconds(5))
        let reply = try await joiner.value
        guard case .move = reply else { return XCTFail("the host's reply: \(String(describing: reply))") }
        XCTAssertEqual(moves(.local), 1)
        listeners.all.last?.stop()
        _ = await host.value
    }

    func testAJoinerThatDoesNotMoveLosesTheGameOnTime() async throws {
        let gate = try makeGate()
        let clock = ManualClock()
        let (host, reports, _, port) = try await startHost(games: 1, clock: clock, gate: gate)

        let frames = try await framesToAJoinerThatNeverMoves(port: port, gate: gate, clock: clock, limit: .seconds(120))
        XCTAssertEqual(frames, [.start(game: 1, joinerMark: .x, firstMover: .x), .bye(.timeout)])

        // The host reports the game lost on time, and the match as ended by the opponent's timeout.
        await waitForMatchOver(reports)
        let lines = json(reports.all)
        XCTAssertTrue(lines.contains {
            $0.contains(#""event":"game-over""#) && $0.contains(#""reason":"timeout""#) && $0.contains(#""timed_out":"X""#)
                && $0.contains(#""winner":"O""#)
        }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains {
            $0.contains(#""event":"match-over""#) && $0.contains(#""end":"peer-move-timeout""#)
                && $0.contains("the opponent ran out of time (120 s for a move or a rematch answer)")
        }, lines.joined(separator: "\n"))

        // A timed-out match does not count as completed: the host serves the next joiner, who moves in time.
        await assertEventually("the host to listen again") {
            reports.all.filter { if case .listening = $0 { return true } else { return false } }.count == 2
        }
        let next = await joinMatch(
            JoinRequest(target: try JoinTarget(parsing: "127.0.0.1:\(port)"), origin: origin, security: .plaintext),
            options: MatchOptions(name: "next", player: .perfect, seed: 1, games: nil, clock: ContinuousClock()), gate: gate,
            reporter: ClosureReporter { _ in })
        XCTAssertEqual(next, .success)
        let status = await host.value
        XCTAssertEqual(status, .success, "its one match completed")
    }

    /// A joiner that pauses longer before its move than the host allows is told it ran out of time, and exits 6: its
    /// transcript says it lost on time, and its error line why the match ended.
    func testAJoinerOutOfTimeIsToldAndExits6() async throws {
        let gate = try makeGate()
        let clock = ManualClock()
        let (host, reports, listeners, port) = try await startHost(games: 1, clock: clock, gate: gate)
        let (text, errors) = (Recorder<String>(), Recorder<String>())
        let transcript = TranscriptReporter(
            localName: "slow", target: "127.0.0.1", write: { text.append($0) }, writeError: { errors.append($0) })
        let request = JoinRequest(
            target: try JoinTarget(parsing: "127.0.0.1:\(port)"), origin: origin, security: .plaintext)
        let options = MatchOptions(
            name: "slow", player: .perfect, seed: 1, games: nil, moveDelay: limit * 2, clock: clock)
        let joining = Task { await joinMatch(request, options: options, gate: gate, reporter: transcript) }
        await clock.waitForSleepers(2)  // the host's turn timer, and the joiner's pause before its move
        await clock.advance(by: limit)
        let status = await joining.value
        XCTAssertEqual(status, .timeout)
        XCTAssertEqual(status.rawValue, 6)
        XCTAssertTrue(text.all.contains { $0.contains("you ran out of time") }, text.all.joined(separator: "\n"))
        XCTAssertTrue(errors.all.contains { $0.contains("we ran out of time") }, errors.all.joined(separator: "\n"))
        await stopWhenListeningAgain(reports, listeners)
        _ = await host.value
    }

    func testAJoinerWhoseGameClockRunsOutLosesOnTimeAndTheReasonNamesTheGameClock() async throws {
        let gate = try makeGate()
        let clock = ManualClock()
        let (host, reports, listeners, port) = try await startHost(
            games: 1, clock: clock, gate: gate, gameTime: .seconds(10))

        // The game clock (10 s) runs out before the move limit (120 s) would.
        let frames = try await framesToAJoinerThatNeverMoves(port: port, gate: gate, clock: clock, limit: .seconds(10))
        XCTAssertEqual(frames, [.start(game: 1, joinerMark: .x, firstMover: .x), .bye(.timeout)])
        await waitForMatchOver(reports)
        let lines = json(reports.all)
        XCTAssertTrue(lines.contains {
            $0.contains(#""event":"game-over""#) && $0.contains(#""reason":"timeout""#) && $0.contains(#""timed_out":"X""#)
        }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains {
            $0.contains(#""event":"match-over""#) && $0.contains(#""end":"peer-game-timeout""#)
                && $0.contains("the opponent ran out of time on its game clock (10 s for the whole game)")
        }, lines.joined(separator: "\n"))
        await stopWhenListeningAgain(reports, listeners)
        let status = await host.value
        XCTAssertEqual(status, .timeout)
    }

    /// A joiner's game clock times out a host that does not move: the host, told the joiner's limit in the
    /// handshake, finds the claim true by its own clock and loses the game on time (not the joiner by forfeit).
    func testAJoinersGameClockTimesOutAHostThatDoesNotMove() async throws {
        let gate = try makeGate()
        let clock = ManualClock()
        let hostOptions = MatchOptions(name: "host", commands: AsyncStream { _ in }, clock: clock)  // never moves
        let request = HostRequest(target: .address("127.0.0.1"), port: 0, matches: 1, advertise: false, origin: origin)
        let hosting = try await LoopbackHost.start(request, options: hostOptions, gate: gate)
        let (host, joiner) = (hosting.json, JSONSide())
        var joinerOptions = MatchOptions(name: "joiner", player: .perfect, seed: 6, games: nil, clock: clock)
        joinerOptions.gameTime = .milliseconds(500)
        let join = JoinRequest(
            target: try JoinTarget(parsing: "127.0.0.1:\(hosting.port)"), origin: origin)
        let joining = Task { await joinMatch(join, options: joinerOptions, gate: gate, reporter: joiner.reporter) }
        // The joiner (X) moves at once; once both sides have seen it, the host's half second runs out.
        await assertEventually("the first move on both sides") {
            !joiner.events(named: "move").isEmpty && !host.events(named: "move").isEmpty
        }
        await clock.waitForSleepers(1)  // the joiner's timer for the host's turn
        await clock.advance(by: .milliseconds(500))
        let status = await joining.value
        XCTAssertEqual(status, .timeout, "a match ended on time: \(joiner.lines.all)")
        hosting.stop.raise(.quit)
        _ = await hosting.task.value
        for (name, side) in [("joiner", joiner), ("host", host)] {
            let over = try XCTUnwrap(side.events(named: "game-over").first, "\(name): \(side.lines.all)")
            XCTAssertEqual(over["reason"] as? String, "timeout", "\(name): \(over)")
            XCTAssertEqual(over["timed_out"] as? String, "O", "the host (O) ran out of time: \(name): \(over)")
            XCTAssertEqual(over["winner"] as? String, "X", "\(name): \(over)")
        }
        XCTAssertFalse(host.lines.all.joined().contains("timeout-not-due"), "\(host.lines.all)")
    }

    func testARematchOfferLeftUnansweredEndsTheMatchOnTime() async throws {
        let gate = try makeGate()
        let clock = ManualClock()
        let (host, reports, listeners, port) = try await startHost(games: 2, clock: clock, gate: gate)

        let (last, session) = try await connection(to: port, gate: gate).run {
            link -> (GameMessage?, MatchSession) in
            // Play game 1 (the first free cell each turn, at once), then leave the host's rematch offer unanswered.
            var session = MatchSession(role: .joiner)
            XCTAssertEqual(link.peerLimits, TimeLimits(move: limit), "the host's accept announces its move limit")
            session.peerLimits = link.peerLimits
            while let frame = try await link.next() {
                var actions = session.receive(frame)
                var offered = false
                while !actions.isEmpty {
                    let action = actions.removeFirst()
                    switch action {
                    case .send(let message): try await link.send(message)
                    case .requestLocalMove:
                        let cell = (0..<9).first { session.currentGame?.board[$0] == nil } ?? 0
                        actions += try session.playLocalMove(cell)
                    case .emit(.rematchOffered): offered = true
                    default: break
                    }
                }
                if offered { break }
            }
            await clock.waitForSleepers(1)  // the host's rematch timer
            await clock.advance(by: limit)
            let last = try await link.next()
            session.clockTime(limit)  // the offer came at 0 s on the same clock
            _ = session.receive(last ?? .bye(.quit))
            return (last, session)
        }
        XCTAssertEqual(last, .bye(.timeout))
        XCTAssertEqual(session.end, .moveTimeout(by: .local, limit: nil))
        XCTAssertEqual(session.score.gamesPlayed, 1, "the game played stands; no game is lost on time")

        await waitForMatchOver(reports)
        let overs = reports.all.compactMap { report -> MatchSession.End? in
            if case .session(.matchOver(let end, _)) = report { return end }
            return nil
        }
        XCTAssertEqual(overs, [.moveTimeout(by: .peer, limit: limit)])
        let games = reports.all.filter { if case .session(.gameOver) = $0 { return true } else { return false } }
        XCTAssertEqual(games.count, 1)
        listeners.all.last?.stop()
        _ = await host.value
    }

    func testTheTurnTimerReportsOnlyTheLastTurnItWasGiven() async throws {
        let clock = ManualClock()
        let expired = Recorder<MatchSession.PeerTurn>()
        let timer = TurnTimer(clock: clock) { expired.append($0) }
        timer.start(.move(game: 1, played: 0), limit: .seconds(10))
        await clock.waitForSleepers(1)
        timer.start(.move(game: 1, played: 2), limit: .seconds(10))  // replaces the first
        XCTAssertEqual(clock.sleeping, 1, "the first timer fires in time for the second: it stays, alone")
        await clock.advance(by: .seconds(10))
        await expired.waitUntil("the second timer's end") { !$0.isEmpty }
        XCTAssertEqual(expired.all, [.move(game: 1, played: 2)])

        timer.start(.rematchAnswer(afterGame: 1), limit: .seconds(5))
        await clock.waitForSleepers(1)  // the rematch timer
        timer.stop()
        await clock.advance(by: .seconds(60))
        timer.start(.move(game: 2, played: 0), limit: .seconds(1))
        await clock.waitForSleepers(1)  // the next turn's timer
        await clock.advance(by: .seconds(1))
        await expired.waitUntil("the next turn's end") { $0.count == 2 }
        XCTAssertEqual(expired.all, [.move(game: 1, played: 2), .move(game: 2, played: 0)],
                       "a stopped turn is never reported")
    }
}

/// The turn timer re-arms lazily: a turn costs a clock read, not a scheduled task; it still reports exactly the turn
/// that ran out, when it runs out. Time and the scheduler are the test's.
final class LazyTurnTimerTests: XCTestCase {
    /// A scheduler whose time the test moves: `advance` runs what came due, in order of due time.
    private final class FakeScheduler: @unchecked Sendable {  // used from the test's thread only
        var time: Duration = .zero
        var pending: [(id: Int, at: Duration, body: @Sendable () -> Void)] = []
        var scheduled = 0
        var cancelled = 0
        private var nextID = 0

        func schedule(_ delay: Duration, _ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
            nextID += 1
            scheduled += 1
            let id = nextID
            pending.append((id, time + delay, body))
            return { [self] in
                if let index = pending.firstIndex(where: { $0.id == id }) {
                    pending.remove(at: index)
                    cancelled += 1
                }
            }
        }

        func advance(by amount: Duration) {
            let target = time + amount
            while let next = pending.filter({ $0.at <= target }).min(by: { $0.at < $1.at }) {
                pending.removeAll { $0.id == next.id }
                time = next.at
                next.body()
            }
            time = target
        }
    }

    private func makeTimer(_ scheduler: FakeScheduler, _ expired: Recorder<MatchSession.PeerTurn>) -> TurnTimer {
        TurnTimer(schedule: { scheduler.schedule($0, $1) }, now: { scheduler.time }) { expired.append($0) }
    }

    func testTurnsThatEndInTimeScheduleNothingMoreAndTheLastOneRunsOutOnTime() {
        let scheduler = FakeScheduler()
        let expired = Recorder<MatchSession.PeerTurn>()
        let timer = makeTimer(scheduler, expired)
        // Forty turns of 10 s, each answered after 1 s: one timer armed, none cancelled.
        for played in 0..<40 {
            timer.start(.move(game: 1, played: played), limit: .seconds(10))
            scheduler.advance(by: .seconds(1))
            timer.stop()
        }
        XCTAssertTrue(expired.all.isEmpty)
        XCTAssertLessThanOrEqual(scheduler.scheduled, 5, "re-armed every 10 s at most, not once a turn")
        XCTAssertEqual(scheduler.cancelled, 0)
        // The next turn is not answered: it runs out 10 s after it started, not earlier, not later.
        timer.start(.move(game: 1, played: 40), limit: .seconds(10))
        scheduler.advance(by: .milliseconds(9_999))
        XCTAssertTrue(expired.all.isEmpty, "not before its limit")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(expired.all, [.move(game: 1, played: 40)])
        scheduler.advance(by: .seconds(60))
        XCTAssertEqual(expired.all, [.move(game: 1, played: 40)], "reported once")
    }

    /// A scheduler that runs a due timer at once, inside `schedule` (as one on another thread might before the
    /// timer is recorded): the turn is still reported, and the next one is timed.
    func testATimerThatFiresBeforeItIsRecordedIsHeard() {
        let expired = Recorder<MatchSession.PeerTurn>()
        let time = Mutex<Duration>(.zero)
        let timer = TurnTimer(schedule: { delay, fire in
            if delay == .zero { fire() }
            return {}
        }, now: { time.withLock { $0 } }) { expired.append($0) }
        timer.start(.move(game: 1, played: 0), limit: .zero)
        XCTAssertEqual(expired.all, [.move(game: 1, played: 0)])
        time.withLock { $0 = .seconds(1) }
        timer.start(.move(game: 1, played: 2), limit: .zero)
        XCTAssertEqual(expired.all, [.move(game: 1, played: 0), .move(game: 1, played: 2)])
    }

    func testAShorterLimitArmsEarlierAndAStoppedTurnIsNeverReported() {
        let scheduler = FakeScheduler()
        let expired = Recorder<MatchSession.PeerTurn>()
        let timer = makeTimer(scheduler, expired)
        timer.start(.move(game: 1, played: 0), limit: .seconds(30))
        scheduler.advance(by: .seconds(1))
        // A rematch answer with a 5 s limit: due before the armed timer, so the timer is re-armed for it.
        timer.start(.rematchAnswer(afterGame: 1), limit: .seconds(5))
        XCTAssertEqual(scheduler.cancelled, 1)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(expired.all, [.rematchAnswer(afterGame: 1)])
        // Stopped in time: nothing, ever.
        timer.start(.move(game: 2, played: 0), limit: .seconds(2))
        scheduler.advance(by: .seconds(1))
        timer.stop()
        scheduler.advance(by: .seconds(60))
        XCTAssertEqual(expired.all, [.rematchAnswer(afterGame: 1)])
        // The match over: nothing stays scheduled.
        timer.start(.move(game: 3, played: 0), limit: .seconds(2))
        timer.cancel()
        XCTAssertTrue(scheduler.pending.isEmpty)
        scheduler.advance(by: .seconds(60))
        XCTAssertEqual(expired.all, [.rematchAnswer(afterGame: 1)])
    }
}

/// The `--json` lines of a timeout and of a joiner waiting for a busy host, pinned.
final class TimeoutJSONLinesTests: XCTestCase {
    private func assertLine(_ report: MatchReport, _ expected: String, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        XCTAssertEqual(try JSONEvent.line(report), expected, file: file, line: line)
    }

    func testAGameLostOnTime() throws {
        var game = Game()
        try game.play(4, by: .x)
        game.timeOut(.o)
        try assertLine(
            .session(.gameOver(number: 1, result: try XCTUnwrap(game.result), board: game.board,
                               score: MatchSession.Score(localWins: 1))),
            #"{"board":"....X....","event":"game-over","game":1,"reason":"timeout","#
                + #""score":{"draws":0,"games":1,"losses":0,"wins":1},"timed_out":"O","winner":"X"}"#)
    }

    func testAMatchEndedOnTime() throws {
        try assertLine(
            .session(.matchOver(.moveTimeout(by: .peer, limit: .seconds(120)), score: MatchSession.Score(localWins: 1))),
            #"{"detail":"the opponent ran out of time (120 s for a move or a rematch answer)","#
                + #""end":"peer-move-timeout","event":"match-over","score":{"draws":0,"games":1,"losses":0,"wins":1}}"#)
        try assertLine(
            .session(.matchOver(.moveTimeout(by: .local, limit: nil), score: MatchSession.Score(peerWins: 1))),
            #"{"detail":"we ran out of time (the host's limit for a move or a rematch answer)","#
                + #""end":"local-move-timeout","event":"match-over","score":{"draws":0,"games":1,"losses":1,"wins":0}}"#)
        XCTAssertEqual(MatchSession.End.moveTimeout(by: .local, limit: nil).exitStatus, .timeout)
        XCTAssertEqual(MatchSession.End.moveTimeout(by: .peer, limit: .seconds(1)).exitStatus, .timeout)
    }

    func testWaitingForABusyHost() throws {
        try assertLine(
            .connectionState(.waiting(.hostBusy(text: "Bob is already playing a game; try again later", retryIn: .milliseconds(500)))),
            #"{"event":"state","reason":"the host is playing another game: busy, retrying in 0.5 s","state":"waiting"}"#)
    }
}
