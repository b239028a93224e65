import GameProtocol
import GameRules
import XCTest

/// Starting and playing one game through `MatchSession`.
final class MatchSessionGameTests: XCTestCase {
    private let support = MatchSessionTestSupport.self

    func testNewSessionHasNoGame() {
        for role in [MatchSession.Role.host, .joiner] {
            let session = MatchSession(role: role)
            XCTAssertEqual(session.role, role)
            XCTAssertNil(session.currentGame)
            XCTAssertNil(session.localMark)
            XCTAssertNil(session.end)
            XCTAssertEqual(session.score, Score())
            XCTAssertEqual(session.score.gamesPlayed, 0)
        }
    }

    func testJoinerIsXInOddGamesAndOInEvenGames() {
        XCTAssertEqual(MatchSession.joinerMark(forGame: 1), .x)
        XCTAssertEqual(MatchSession.joinerMark(forGame: 2), .o)
        XCTAssertEqual(MatchSession.joinerMark(forGame: 3), .x)
        XCTAssertEqual(MatchSession.joinerMark(forGame: 10), .o)
    }

    func testHostBeginSendsStartAndWaitsForTheJoinersMove() {
        var host = MatchSession(role: .host)
        XCTAssertEqual(
            host.begin(),
            [
                .send(.start(game: 1, joinerMark: .x, firstMover: .x)),
                .emit(.gameStarted(number: 1, localMark: .o, firstMover: .x)),
            ]
        )
        XCTAssertEqual(host.localMark, .o)
        XCTAssertEqual(host.currentGame, Game(firstMover: .x))
        XCTAssertEqual(host.begin(), [], "begin is only good once")
    }

    func testJoinerBeginDoesNothing() {
        var joiner = MatchSession(role: .joiner)
        XCTAssertEqual(joiner.begin(), [])
        XCTAssertNil(joiner.currentGame)
    }

    func testJoinerReceivesStartAndIsAskedToMove() {
        var joiner = MatchSession(role: .joiner)
        XCTAssertEqual(
            joiner.receive(.start(game: 1, joinerMark: .x, firstMover: .x)),
            [.emit(.gameStarted(number: 1, localMark: .x, firstMover: .x)), .requestLocalMove]
        )
        XCTAssertEqual(joiner.localMark, .x)
        XCTAssertEqual(joiner.currentGame?.turn, .x)
    }

    func testJoinerTakesTheMarksTheHostAnnounces() {
        var joiner = MatchSession(role: .joiner)
        XCTAssertEqual(
            joiner.receive(.start(game: 1, joinerMark: .o, firstMover: .x)),
            [.emit(.gameStarted(number: 1, localMark: .o, firstMover: .x))]
        )
        XCTAssertEqual(joiner.localMark, .o)
    }

    func testFullGameBetweenTwoSessionsEndsInAWinWithTheRightScore() {
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])  // X (joiner): 0 1 2, the top row

        let board = support.board([0, 3, 1, 4, 2])
        let result = GameResult(winner: .x, reason: .line([0, 1, 2]))
        XCTAssertEqual(
            pair.joinerLog,
            [
                .emit(.gameStarted(number: 1, localMark: .x, firstMover: .x)), .requestLocalMove,
                .send(.move(cell: 0)), .emit(.moved(mark: .x, cell: 0, by: .local)),
                .emit(.moved(mark: .o, cell: 3, by: .peer)), .requestLocalMove,
                .send(.move(cell: 1)), .emit(.moved(mark: .x, cell: 1, by: .local)),
                .emit(.moved(mark: .o, cell: 4, by: .peer)), .requestLocalMove,
                .send(.move(cell: 2)), .emit(.moved(mark: .x, cell: 2, by: .local)),
                .emit(.gameOver(number: 1, result: result, board: board, score: Score(localWins: 1))),
                .requestRematchDecision,
            ]
        )
        XCTAssertEqual(
            pair.hostLog,
            [
                .send(.start(game: 1, joinerMark: .x, firstMover: .x)),
                .emit(.gameStarted(number: 1, localMark: .o, firstMover: .x)),
                .emit(.moved(mark: .x, cell: 0, by: .peer)), .requestLocalMove,
                .send(.move(cell: 3)), .emit(.moved(mark: .o, cell: 3, by: .local)),
                .emit(.moved(mark: .x, cell: 1, by: .peer)), .requestLocalMove,
                .send(.move(cell: 4)), .emit(.moved(mark: .o, cell: 4, by: .local)),
                .emit(.moved(mark: .x, cell: 2, by: .peer)),
                .emit(.gameOver(number: 1, result: result, board: board, score: Score(peerWins: 1))),
                .requestRematchDecision,
            ]
        )
        XCTAssertEqual(pair.joiner.score, Score(localWins: 1))
        XCTAssertEqual(pair.host.score, Score(peerWins: 1))
        XCTAssertNil(pair.joiner.currentGame)
        XCTAssertNil(pair.host.currentGame)
        XCTAssertNil(pair.host.end)
    }

    func testDrawCountsOnBothSides() {
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 4, 8, 1, 7, 6, 2, 5, 3])
        let draw = Event.gameOver(
            number: 1,
            result: GameResult(winner: nil, reason: .draw),
            board: support.board([0, 4, 8, 1, 7, 6, 2, 5, 3]),
            score: Score(draws: 1)
        )
        XCTAssertEqual(pair.joiner.score, Score(draws: 1))
        XCTAssertEqual(pair.host.score, Score(draws: 1))
        XCTAssertEqual(pair.events(.joiner).last, draw)
        XCTAssertEqual(pair.events(.host).last, draw)
        XCTAssertTrue(pair.hostDecisionRequested)
        XCTAssertTrue(pair.joinerDecisionRequested)
    }

    func testLocalResignation() {
        var joiner = support.joinerInGame(after: [4, 0])
        let result = GameResult(winner: .o, reason: .resignation(.x))
        XCTAssertEqual(
            joiner.resign(),
            [
                .send(.resign),
                .emit(.gameOver(number: 1, result: result, board: support.board([4, 0]), score: Score(peerWins: 1))),
                .requestRematchDecision,
            ]
        )
        XCTAssertEqual(joiner.resign(), [], "nothing to resign between games")
    }

    func testPeerResignationOutOfTurnWins() {
        var joiner = support.joinerInGame(after: [4, 0])  // X (us) to move; O resigns anyway
        let result = GameResult(winner: .x, reason: .resignation(.o))
        XCTAssertEqual(
            joiner.receive(.resign),
            [
                .emit(.gameOver(number: 1, result: result, board: support.board([4, 0]), score: Score(localWins: 1))),
                .requestRematchDecision,
            ]
        )
    }

    func testResignationTravelsToThePeer() {
        let pair = SessionPair()
        pair.begin()
        pair.play(4)
        pair.apply(pair.host.resign(), at: .host)
        pair.pump()
        XCTAssertEqual(pair.host.score, Score(peerWins: 1))
        XCTAssertEqual(pair.joiner.score, Score(localWins: 1))
        guard case .gameOver(_, let result, _, _)? = pair.events(.joiner).last else {
            return XCTFail("no game over: \(pair.events(.joiner))")
        }
        XCTAssertEqual(result, GameResult(winner: .x, reason: .resignation(.o)))
    }

    func testIllegalLocalMovesThrowAndSendNothing() {
        var host = MatchSession(role: .host)
        XCTAssertThrowsError(try host.playLocalMove(0)) { XCTAssertEqual($0 as? MoveError, .gameOver) }
        _ = host.begin()
        XCTAssertThrowsError(try host.playLocalMove(0)) {
            XCTAssertEqual($0 as? MoveError, .notYourTurn(expected: .x))
        }
        var joiner = support.joinerInGame(after: [4, 0])
        XCTAssertThrowsError(try joiner.playLocalMove(9)) { XCTAssertEqual($0 as? MoveError, .outOfRange(9)) }
        XCTAssertThrowsError(try joiner.playLocalMove(-1)) { XCTAssertEqual($0 as? MoveError, .outOfRange(-1)) }
        XCTAssertThrowsError(try joiner.playLocalMove(4)) { XCTAssertEqual($0 as? MoveError, .occupied(4)) }
        XCTAssertEqual(joiner.currentGame?.moves, [4, 0], "the game is unchanged")
        XCTAssertEqual(
            try joiner.playLocalMove(8),
            [.send(.move(cell: 8)), .emit(.moved(mark: .x, cell: 8, by: .local))]
        )
    }
}
