import GameProtocol
import GameRules
import XCTest

/// Byes, closed connections, leaving, peer errors, and ping/pong.
///
/// When a game in progress is forfeited the session emits `gameOver` and then `matchOver`, and asks for no rematch
/// decision: the match is over.
final class MatchSessionLeavingTests: XCTestCase {
    private let support = MatchSessionTestSupport.self

    private func withoutDecisionRequest(_ actions: [Action], file: StaticString = #filePath, line: UInt = #line)
        -> [Action]
    {
        XCTAssertFalse(actions.contains(.requestRematchDecision), "a forfeit asked for a rematch", file: file, line: line)
        return actions
    }

    // MARK: Peer leaves

    func testPeerByeMidGameForfeitsTheGameAndEndsTheMatch() {
        var joiner = support.joinerInGame(after: [4, 0])
        let result = GameResult(winner: .x, reason: .forfeit(.o))
        let score = Score(localWins: 1)
        XCTAssertEqual(
            withoutDecisionRequest(joiner.receive(.bye(.quit))),
            [
                .emit(.gameOver(number: 1, result: result, board: support.board([4, 0]), score: score)),
                .emit(.matchOver(.peerLeft(.quit), score: score)),
                .close,
            ]
        )
        XCTAssertEqual(joiner.end, .peerLeft(.quit))
        XCTAssertEqual(joiner.decideRematch(true), [])
    }

    func testPeerByeSeriesOverMidGameStillCountsAsLeaving() {
        var host = MatchSession(role: .host)
        _ = host.begin()
        let actions = host.receive(.bye(.seriesOver))
        XCTAssertEqual(actions.last, .close)
        XCTAssertEqual(host.end, .peerLeft(.seriesOver))
        XCTAssertEqual(host.score, Score(localWins: 1))
    }

    func testPeerByeBetweenGames() {
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        var host = pair.host
        XCTAssertEqual(
            host.receive(.bye(.seriesOver)),
            [.emit(.matchOver(.completed(by: .peer), score: Score(peerWins: 1))), .close]
        )
        var other = pair.host
        XCTAssertEqual(
            other.receive(.bye(.quit)),
            [.emit(.matchOver(.peerLeft(.quit), score: Score(peerWins: 1))), .close]
        )
    }

    func testPeerByeBeforeTheFirstGame() {
        var joiner = MatchSession(role: .joiner)
        XCTAssertEqual(
            joiner.receive(.bye(.shutdown)),
            [.emit(.matchOver(.peerLeft(.shutdown), score: Score())), .close]
        )
    }

    func testConnectionClosedMidGame() {
        var joiner = support.joinerInGame(after: [4])
        let result = GameResult(winner: .x, reason: .forfeit(.o))
        XCTAssertEqual(
            withoutDecisionRequest(joiner.connectionClosed()),
            [
                .emit(.gameOver(number: 1, result: result, board: support.board([4]), score: Score(localWins: 1))),
                .emit(.matchOver(.peerLeft(nil), score: Score(localWins: 1))),
            ],
            "no .close: the connection is already gone"
        )
        XCTAssertEqual(joiner.end, .peerLeft(nil))
        XCTAssertEqual(joiner.connectionClosed(), [])
    }

    func testConnectionClosedWithAReason() {
        var host = MatchSession(role: .host)
        _ = host.begin()
        let actions = withoutDecisionRequest(host.connectionClosed(.peerTimedOut("silent for 4 s")))
        XCTAssertEqual(actions.last, .emit(.matchOver(.peerTimedOut("silent for 4 s"), score: Score(localWins: 1))))
        XCTAssertEqual(host.end, .peerTimedOut("silent for 4 s"))
    }

    func testConnectionClosedBetweenGamesOrBeforeStart() {
        var joiner = MatchSession(role: .joiner)
        XCTAssertEqual(joiner.connectionClosed(), [.emit(.matchOver(.peerLeft(nil), score: Score()))])
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        XCTAssertEqual(
            pair.joiner.connectionClosed(.peerLeft(nil)),
            [.emit(.matchOver(.peerLeft(nil), score: Score(localWins: 1)))]
        )
    }

    // MARK: We leave

    func testLeaveMidGameSendsByeAndForfeits() {
        var joiner = support.joinerInGame(after: [4])
        let result = GameResult(winner: .o, reason: .forfeit(.x))
        let score = Score(peerWins: 1)
        XCTAssertEqual(
            withoutDecisionRequest(joiner.leave()),
            [
                .send(.bye(.quit)),
                .emit(.gameOver(number: 1, result: result, board: support.board([4]), score: score)),
                .emit(.matchOver(.localLeft(.quit), score: score)),
                .close,
            ]
        )
        XCTAssertEqual(joiner.end, .localLeft(.quit))
        XCTAssertEqual(joiner.leave(), [])
    }

    func testLeaveBeforeTheGameOrBetweenGames() {
        var joiner = MatchSession(role: .joiner)
        XCTAssertEqual(
            joiner.leave(.shutdown),
            [.send(.bye(.shutdown)), .emit(.matchOver(.localLeft(.shutdown), score: Score())), .close]
        )
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        XCTAssertEqual(
            pair.host.leave(),
            [.send(.bye(.quit)), .emit(.matchOver(.localLeft(.quit), score: Score(peerWins: 1))), .close]
        )
    }

    func testLeaveReachesThePeerAsPeerLeft() {
        let pair = SessionPair()
        pair.begin()
        pair.play([4])
        pair.apply(pair.host.leave(), at: .host)
        pair.pump()
        XCTAssertEqual(pair.host.end, .localLeft(.quit))
        XCTAssertEqual(pair.joiner.end, .peerLeft(.quit))
        XCTAssertEqual(pair.host.score, Score(peerWins: 1))
        XCTAssertEqual(pair.joiner.score, Score(localWins: 1))
        XCTAssertTrue(pair.hostClosed && pair.joinerClosed)
    }

    // MARK: Peer errors

    func testPeerErrorFrameEndsTheMatch() {
        var joiner = support.joinerInGame(after: [4])
        let end = MatchSession.End.peerReportedError(code: .cellOccupied, text: "cell 5 is already taken")
        XCTAssertEqual(
            joiner.receive(.error(code: .cellOccupied, text: "cell 5 is already taken")),
            [.emit(.matchOver(end, score: Score())), .close]
        )
        XCTAssertEqual(joiner.end, end)
    }

    // MARK: Liveness frames

    func testPingIsAnsweredWithPongInEveryLiveState() {
        var joiner = MatchSession(role: .joiner)
        XCTAssertEqual(joiner.receive(.ping(42)), [.send(.pong(42))], "waiting for start")
        _ = joiner.receive(.start(game: 1, joinerMark: .x, firstMover: .x))
        XCTAssertEqual(joiner.receive(.ping(.max)), [.send(.pong(.max))], "during a game")
        XCTAssertEqual(joiner.currentGame?.moves, [])
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        XCTAssertEqual(pair.host.receive(.ping(7)), [.send(.pong(7))], "between games")
        _ = pair.host.leave()
        XCTAssertEqual(pair.host.receive(.ping(7)), [], "after the end")
    }

    func testPongIsIgnored() {
        var joiner = support.joinerInGame()
        XCTAssertEqual(joiner.receive(.pong(1)), [])
        XCTAssertEqual(joiner.localMark, .x)
        XCTAssertNil(joiner.end)
    }
}
