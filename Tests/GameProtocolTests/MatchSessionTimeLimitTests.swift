import GameProtocol
import GameRules
import XCTest

/// The host's turn time limit (`--move-timeout`): what the session times, what happens when the time is up, and how
/// the peer takes `bye(timeout)`. The session only asks for timers; no clock runs here.
final class MatchSessionTimeLimitTests: XCTestCase {
    private let support = MatchSessionTestSupport.self
    private let limit = Duration.seconds(120)

    private func timerActions(_ actions: [Action]) -> [Action] {
        actions.filter {
            switch $0 {
            case .startTurnTimer, .stopTurnTimer: return true
            default: return false
            }
        }
    }

    // MARK: What is timed

    func testWithoutALimitNoTimerIsAskedFor() {
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        pair.decide(.host, true)
        pair.decide(.joiner, true)
        XCTAssertEqual(timerActions(pair.log(.host)), [])
        XCTAssertEqual(timerActions(pair.log(.joiner)), [])
        XCTAssertNil(pair.host.turnTimeLimit)
    }

    func testTheHostTimesEachOfTheJoinersMovesAndNothingElse() {
        let pair = SessionPair(hostTimeLimit: limit)
        pair.begin()  // game 1: the joiner is X and moves first
        XCTAssertEqual(timerActions(pair.log(.host)), [.startTurnTimer(.move(game: 1, played: 0), limit: limit)])
        XCTAssertEqual(pair.hostTimedTurn, .move(game: 1, played: 0))
        pair.clearLogs()

        pair.play(0)  // the joiner moves: the host's own turn is not timed
        XCTAssertEqual(timerActions(pair.log(.host)), [.stopTurnTimer])
        XCTAssertNil(pair.hostTimedTurn)
        XCTAssertNil(pair.host.awaitedPeerTurn)
        pair.clearLogs()

        pair.play(3)  // the host moves: the joiner's turn again
        XCTAssertEqual(timerActions(pair.log(.host)), [.startTurnTimer(.move(game: 1, played: 2), limit: limit)])
        XCTAssertEqual(pair.host.awaitedPeerTurn, .move(game: 1, played: 2))
        XCTAssertEqual(timerActions(pair.log(.joiner)), [], "the joiner keeps no time")
    }

    func testAPingDoesNotRestartTheTimer() {
        var host = MatchSession(role: .host, turnTimeLimit: limit)
        XCTAssertEqual(timerActions(host.begin()), [.startTurnTimer(.move(game: 1, played: 0), limit: limit)])
        XCTAssertEqual(host.receive(.ping(7)), [.send(.pong(7))], "a sign of life is not a move")
    }

    // MARK: Time up during a game

    func testTheJoinerWhoDoesNotMoveInTimeLosesTheGameOnTime() {
        let pair = SessionPair(hostTimeLimit: limit)
        pair.begin()
        pair.play([4, 0])  // X (the joiner) in the centre, O (the host) in a corner: the joiner to move
        let turn = MatchSession.PeerTurn.move(game: 1, played: 2)
        XCTAssertEqual(pair.hostTimedTurn, turn)
        pair.clearLogs()

        let board = support.board([4, 0])
        let hostScore = Score(localWins: 1)
        pair.advance(by: limit)
        pair.apply(pair.host.turnTimeLimitPassed(turn), at: .host)
        XCTAssertEqual(
            pair.log(.host),
            [
                .send(.bye(.timeout)),
                .emit(.gameOver(number: 1, result: GameResult(winner: .o, reason: .timeout(.x)), board: board,
                                score: hostScore)),
                .emit(.matchOver(.moveTimeout(by: .peer, limit: limit), score: hostScore)),
                .close,
                .stopTurnTimer,
            ]
        )
        XCTAssertEqual(pair.host.end, .moveTimeout(by: .peer, limit: limit))

        // The joiner hears bye(timeout): it lost that game on time, and the match is over.
        pair.deliver(to: .joiner)
        let joinerScore = Score(peerWins: 1)
        XCTAssertEqual(
            pair.log(.joiner),
            [
                .emit(.gameOver(number: 1, result: GameResult(winner: .o, reason: .timeout(.x)), board: board,
                                score: joinerScore)),
                .emit(.matchOver(.moveTimeout(by: .local, limit: nil), score: joinerScore)),
                .close,
            ]
        )
        XCTAssertEqual(pair.joiner.end, .moveTimeout(by: .local, limit: nil))
    }

    func testATimerForATurnAlreadyPlayedChangesNothing() {
        let pair = SessionPair(hostTimeLimit: limit)
        pair.begin()
        let first = MatchSession.PeerTurn.move(game: 1, played: 0)
        pair.play([4, 0])  // the joiner moved in time, and the host answered
        XCTAssertEqual(pair.host.turnTimeLimitPassed(first), [], "a late timer of an earlier turn")
        XCTAssertNil(pair.host.end)

        var untimed = MatchSession(role: .host)
        _ = untimed.begin()
        XCTAssertEqual(untimed.turnTimeLimitPassed(first), [], "no limit, no verdict")
        XCTAssertNil(untimed.end)
    }

    func testAMoveThatCrossesTheVerdictDoesNotCount() {
        let pair = SessionPair(hostTimeLimit: limit)
        pair.begin()
        pair.advance(by: limit)
        pair.apply(pair.host.turnTimeLimitPassed(.move(game: 1, played: 0)), at: .host)
        // The joiner moves before bye(timeout) reaches it.
        pair.play(4)
        XCTAssertEqual(pair.host.end, .moveTimeout(by: .peer, limit: limit), "the host ignores the late move")
        XCTAssertEqual(pair.host.score, Score(localWins: 1))
        XCTAssertEqual(pair.joiner.end, .moveTimeout(by: .local, limit: nil))
        XCTAssertEqual(pair.joiner.score, Score(peerWins: 1), "both sides count the game as lost on time")
        guard case .gameOver(_, let result, let board, _)? = pair.events(.joiner).first(where: {
            if case .gameOver = $0 { return true } else { return false }
        }) else { return XCTFail("no game over for the joiner: \(pair.events(.joiner))") }
        XCTAssertEqual(result, GameResult(winner: .o, reason: .timeout(.x)))
        XCTAssertEqual(board, support.board([4]), "its own move is on its board; the result stands")
        XCTAssertTrue(pair.sent(.host).filter { if case .error = $0 { return true } else { return false } }.isEmpty,
                      "the late move is not a violation")
    }

    // MARK: Rematch offers

    func testARematchOfferLeftUnansweredEndsTheMatch() {
        let pair = SessionPair(hostTimeLimit: limit)
        pair.begin()
        pair.play([0, 3, 1, 4, 2])  // the joiner (X) wins game 1
        pair.clearLogs()
        pair.decide(.host, true)
        let turn = MatchSession.PeerTurn.rematchAnswer(afterGame: 1)
        XCTAssertEqual(pair.log(.host), [.send(.rematchOffer), .startTurnTimer(turn, limit: limit)])
        pair.clearLogs()

        // The joiner never answers.
        let score = Score(peerWins: 1)
        pair.advance(by: limit)
        pair.apply(pair.host.turnTimeLimitPassed(turn), at: .host)
        XCTAssertEqual(
            pair.log(.host),
            [
                .send(.bye(.timeout)), .emit(.matchOver(.moveTimeout(by: .peer, limit: limit), score: score)), .close,
                .stopTurnTimer,
            ]
        )
        pair.deliver(to: .joiner)
        XCTAssertEqual(
            pair.log(.joiner),
            [.emit(.matchOver(.moveTimeout(by: .local, limit: nil), score: Score(localWins: 1))), .close],
            "no game is lost: the match just ends"
        )
    }

    func testAnAnsweredRematchOfferStopsItsTimerAndTheNextGameIsTimed() {
        let pair = SessionPair(hostTimeLimit: limit)
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        pair.decide(.host, true)
        pair.clearLogs()
        pair.decide(.joiner, true)  // game 2: the host is X and moves first
        XCTAssertEqual(timerActions(pair.log(.host)), [.stopTurnTimer])
        XCTAssertEqual(pair.host.turnTimeLimitPassed(.rematchAnswer(afterGame: 1)), [])
        pair.clearLogs()
        pair.play(4)
        XCTAssertEqual(timerActions(pair.log(.host)), [.startTurnTimer(.move(game: 2, played: 1), limit: limit)])
    }

    func testAnOfferFromTheJoinerIsNotTimedWhileTheHostDecides() {
        let pair = SessionPair(hostTimeLimit: limit)
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        pair.decide(.joiner, true)  // the joiner offers first; the host's own decision is not timed
        XCTAssertNil(pair.host.awaitedPeerTurn)
        XCTAssertNil(pair.hostTimedTurn)
    }

    // MARK: The receiving side

    /// A claim that cannot be true is the claimant's violation: an `error` frame, and it forfeits the game.
    private func assertRefused(
        _ session: inout MatchSession, _ why: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let text = "bye(timeout), but \(why)"
        let actions = session.receive(.bye(.timeout))
        XCTAssertEqual(support.sent(in: actions), [.error(code: .timeoutNotDue, text: text)], file: file, line: line)
        XCTAssertEqual(session.end, .peerViolation(code: .timeoutNotDue, text: text), file: file, line: line)
    }

    func testAClaimBeforeTheFirstGameIsRefused() {
        var joiner = MatchSession(role: .joiner)
        joiner.peerLimits = TimeLimits(move: limit)
        assertRefused(&joiner, "our time has not run out: 0.0 s of the 120.0 s move limit used")
        XCTAssertEqual(joiner.score, Score(), "no game was in progress")
    }

    /// A joiner's very first frame, on its own turn, with no limit announced anywhere: the host does not lose on
    /// time; the joiner forfeits game 1.
    func testAClaimFromAPeerThatAnnouncedNoLimitIsItsForfeit() {
        var host = MatchSession(role: .host, turnTimeLimit: limit)
        _ = host.begin()
        let actions = host.receive(.bye(.timeout))
        let text = "bye(timeout), but you announced no time limit in your handshake"
        XCTAssertEqual(
            actions,
            [
                .send(.error(code: .timeoutNotDue, text: text)),
                .emit(.gameOver(number: 1, result: GameResult(winner: .o, reason: .forfeit(.x)), board: Board(),
                                score: Score(localWins: 1))),
                .emit(.matchOver(.peerViolation(code: .timeoutNotDue, text: text), score: Score(localWins: 1))),
                .close,
                .stopTurnTimer,
            ])
    }

    func testAClaimOnTheClaimantsOwnTurnIsRefused() {
        var joiner = support.joinerInGame(after: [4])  // the host (O) is to move
        joiner.peerLimits = TimeLimits(move: limit)
        joiner.clockTime(.seconds(500))
        assertRefused(&joiner, "our time has not run out: 0.0 s of the 120.0 s move limit used")
        XCTAssertEqual(joiner.score, Score(localWins: 1))
    }

    func testAClaimBeforeTheAnnouncedMoveLimitIsRefusedAndAtItCounts() {
        var early = MatchSession(role: .joiner)
        early.peerLimits = TimeLimits(move: limit)
        _ = early.receive(.start(game: 1, joinerMark: .x, firstMover: .x))  // our turn, from 0 s
        early.clockTime(limit - MatchSession.claimTolerance - .milliseconds(100))
        assertRefused(&early, "our time has not run out: 119.4 s of the 120.0 s move limit used")
        XCTAssertEqual(early.score, Score(localWins: 1))

        var due = MatchSession(role: .joiner)
        due.peerLimits = TimeLimits(move: limit)
        _ = due.receive(.start(game: 1, joinerMark: .x, firstMover: .x))
        due.clockTime(limit - MatchSession.claimTolerance)  // the frames' way: the claimant started first
        _ = due.receive(.bye(.timeout))
        XCTAssertEqual(due.end, .moveTimeout(by: .local, limit: nil))
        XCTAssertEqual(due.score, Score(peerWins: 1))
    }

    func testAGameClockClaimCountsOurWholeGameNotTheTurn() throws {
        var joiner = MatchSession(role: .joiner)
        joiner.peerLimits = TimeLimits(game: .seconds(10))
        _ = joiner.receive(.start(game: 1, joinerMark: .x, firstMover: .x))
        joiner.clockTime(.seconds(6))
        _ = try joiner.playLocalMove(4)  // 6 s used
        joiner.clockTime(.seconds(7))
        _ = joiner.receive(.move(cell: 0))
        joiner.clockTime(.seconds(9))  // 8 s used
        var refused = joiner
        assertRefused(&refused, "our time has not run out: 8.0 s of the 10.0 s game clock used")
        joiner.clockTime(.seconds(10.6))  // 9.6 s used: within the tolerance of 10
        _ = joiner.receive(.bye(.timeout))
        XCTAssertEqual(joiner.end, .moveTimeout(by: .local, limit: nil))
    }

    func testARematchAnswerOwedPastTheLimitCounts() {
        let pair = SessionPair(hostTimeLimit: limit)
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        pair.decide(.host, true)  // the host offers; the joiner owes the answer
        pair.advance(by: .seconds(30))
        var refused = pair.joiner
        assertRefused(&refused, "our time has not run out: 30.0 s of the 120.0 s move limit used")
        pair.advance(by: limit)
        _ = pair.joiner.receive(.bye(.timeout))
        XCTAssertEqual(pair.joiner.end, .moveTimeout(by: .local, limit: nil))
    }

    /// A peer that does not know a bye reason treats it as the sender leaving: during a game, a forfeit by the
    /// sender. (So a peer older than reason 3 `timeout` counts a timeout as the host's forfeit.)
    func testAnUnknownByeReasonMidGameIsAForfeitByTheSender() {
        var joiner = support.joinerInGame(after: [4, 0])
        let unknown = ByeReason(rawValue: 9)
        let score = Score(localWins: 1)
        XCTAssertEqual(
            joiner.receive(.bye(unknown)),
            [
                .emit(.gameOver(number: 1, result: GameResult(winner: .x, reason: .forfeit(.o)),
                                board: support.board([4, 0]), score: score)),
                .emit(.matchOver(.peerLeft(unknown), score: score)),
                .close,
            ]
        )
    }
}
