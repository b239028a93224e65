import GameProtocol
import GameRules
import XCTest

/// Every rules or protocol violation by the peer becomes: an `error` frame, the game in progress (if any) forfeited
/// by the peer and counted, `matchOver(.peerViolation)`, close.
final class MatchSessionViolationTests: XCTestCase {
    private let support = MatchSessionTestSupport.self

    private func assertViolation(
        _ session: inout MatchSession,
        receiving message: GameMessage,
        _ code: ProtocolErrorCode,
        _ text: String,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        var score = session.score
        var forfeit: [Action] = []
        if let game = session.currentGame, let number = session.currentGameNumber, let localMark = session.localMark {
            score.localWins += 1
            forfeit = [.emit(.gameOver(
                number: number, result: GameResult(winner: localMark, reason: .forfeit(localMark.opponent)),
                board: game.board, score: score))]
        }
        XCTAssertEqual(
            session.receive(message),
            [.send(.error(code: code, text: text))] + forfeit + [
                .emit(.matchOver(.peerViolation(code: code, text: text), score: score)),
                .close,
            ],
            file: file,
            line: line
        )
        XCTAssertEqual(session.score, score, "a game in progress counts as the peer's forfeit", file: file, line: line)
        XCTAssertEqual(session.end, .peerViolation(code: code, text: text), file: file, line: line)
        // Once ended, nothing more happens.
        XCTAssertEqual(session.receive(.move(cell: 0)), [], file: file, line: line)
        XCTAssertEqual(session.receive(.ping(1)), [], file: file, line: line)
        XCTAssertEqual(session.receive(.bye(.quit)), [], file: file, line: line)
        XCTAssertEqual(session.decideRematch(true), [], file: file, line: line)
        XCTAssertEqual(session.leave(), [], file: file, line: line)
        XCTAssertEqual(session.connectionClosed(), [], file: file, line: line)
    }

    // MARK: Rules

    func testMoveOutOfTurn() {
        var joiner = support.joinerInGame()  // X to move: us
        assertViolation(&joiner, receiving: .move(cell: 4), .notYourTurn, "illegal move: it is X's turn")
    }

    func testSecondMoveInARowByTheJoiner() {
        var host = MatchSession(role: .host)
        _ = host.begin()
        XCTAssertEqual(
            host.receive(.move(cell: 0)),
            [.emit(.moved(mark: .x, cell: 0, by: .peer)), .requestLocalMove]
        )
        assertViolation(&host, receiving: .move(cell: 1), .notYourTurn, "illegal move: it is O's turn")
    }

    func testMoveToAnOccupiedCell() {
        var joiner = support.joinerInGame(after: [4])
        assertViolation(&joiner, receiving: .move(cell: 4), .cellOccupied, "illegal move: cell 5 is already taken")
    }

    func testMoveOutOfRange() {
        for cell: UInt8 in [9, 10, 255] {
            var joiner = support.joinerInGame(after: [4])
            assertViolation(
                &joiner, receiving: .move(cell: cell), .moveOutOfRange,
                "illegal move: cell \(Int(cell) + 1) is out of range (1-9)"
            )
        }
    }

    func testMoveBetweenGames() {
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        assertViolation(&pair.host, receiving: .move(cell: 5), .gameOver, "the game is over")
    }

    func testResignBetweenGames() {
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        assertViolation(&pair.joiner, receiving: .resign, .gameOver, "the game is over")
    }

    func testMoveAfterOurOfferIsStillGameOver() {
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        pair.decide(.host, true, deliver: false)
        assertViolation(&pair.host, receiving: .move(cell: 5), .gameOver, "the game is over")
    }

    // MARK: Unexpected messages

    func testUnexpectedStart() {
        var host = MatchSession(role: .host)
        assertViolation(
            &host, receiving: .start(game: 1, joinerMark: .x, firstMover: .x), .unexpectedMessage,
            "unexpected start message before the game started"
        )
        var playingHost = MatchSession(role: .host)
        _ = playingHost.begin()
        assertViolation(
            &playingHost, receiving: .start(game: 1, joinerMark: .x, firstMover: .x), .unexpectedMessage,
            "unexpected start message during a game"
        )
        var joiner = support.joinerInGame()
        assertViolation(
            &joiner, receiving: .start(game: 2, joinerMark: .o, firstMover: .x), .unexpectedMessage,
            "unexpected start message during a game"
        )
    }

    func testStartOfTheWrongGame() {
        var joiner = MatchSession(role: .joiner)
        assertViolation(
            &joiner, receiving: .start(game: 2, joinerMark: .o, firstMover: .x), .unexpectedMessage,
            "expected game 1, got start of game 2"
        )
        var again = MatchSession(role: .joiner)
        assertViolation(
            &again, receiving: .start(game: 0, joinerMark: .x, firstMover: .x), .unexpectedMessage,
            "expected game 1, got start of game 0"
        )
    }

    func testUnexpectedHandshakeMessages() {
        var joiner = MatchSession(role: .joiner)
        assertViolation(
            &joiner, receiving: .hello(version: 1, name: "Ann"), .unexpectedMessage,
            "unexpected hello message while waiting for the host to start"
        )
        var host = MatchSession(role: .host)
        _ = host.begin()
        assertViolation(
            &host, receiving: .hello(version: 1, name: "Ann"), .unexpectedMessage,
            "unexpected hello message during a game"
        )
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        assertViolation(
            &pair.joiner, receiving: .accept(version: 1, name: "Bob"), .unexpectedMessage,
            "unexpected accept message between games"
        )
        assertViolation(
            &pair.host, receiving: .reject(reason: .busy, text: ""), .unexpectedMessage,
            "unexpected reject message between games"
        )
    }

    func testMoveBeforeTheGameStarted() {
        var joiner = MatchSession(role: .joiner)
        assertViolation(
            &joiner, receiving: .move(cell: 4), .unexpectedMessage,
            "unexpected move message while waiting for the host to start"
        )
        var host = MatchSession(role: .host)
        assertViolation(
            &host, receiving: .move(cell: 4), .unexpectedMessage, "unexpected move message before the game started"
        )
    }

    func testRematchMessagesOutOfPlace() {
        var joiner = support.joinerInGame()
        assertViolation(
            &joiner, receiving: .rematchOffer, .unexpectedMessage, "unexpected rematchOffer message during a game"
        )
        let unanswered: [(GameMessage, String)] = [
            (.rematchAccept, "unexpected rematchAccept message between games"),
            (.rematchDecline, "unexpected rematchDecline message between games"),
        ]
        for (message, text) in unanswered {
            let pair = SessionPair()
            pair.begin()
            pair.play([0, 3, 1, 4, 2])
            assertViolation(&pair.host, receiving: message, .unexpectedMessage, text)
        }
    }

    func testSecondRematchOfferIsUnexpected() {
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        XCTAssertEqual(pair.host.receive(.rematchOffer), [.emit(.rematchOffered)])
        assertViolation(
            &pair.host, receiving: .rematchOffer, .unexpectedMessage, "unexpected rematchOffer message between games"
        )
    }

    func testViolationKeepsTheScoreSoFar() {
        let pair = SessionPair()
        pair.begin()
        pair.play([0, 3, 1, 4, 2])
        XCTAssertEqual(pair.joiner.score, Score(localWins: 1))
        assertViolation(&pair.joiner, receiving: .move(cell: 0), .gameOver, "the game is over")
    }
}

/// A resignation sent while the peer's move was already on its way.
final class MatchSessionCrossingResignTests: XCTestCase {
    func testAMoveCrossingOurResignationIsIgnoredOnce() {
        var host = MatchSession(role: .host)
        _ = host.begin()  // game 1: the joiner is X and moves first
        let actions = host.resign()
        XCTAssertEqual(actions.first, .send(.resign))
        // The joiner's first move crossed our resign: no violation.
        XCTAssertEqual(host.receive(.move(cell: 4)), [])
        XCTAssertNil(host.end)
        // A second late move is a violation again.
        XCTAssertEqual(host.receive(.move(cell: 5)).last, .close)
        XCTAssertEqual(host.end, .peerViolation(code: .gameOver, text: "the game is over"))
    }

    func testResigningOnOurOwnTurnToleratesNothing() {
        var host = MatchSession(role: .host)
        _ = host.begin()
        _ = host.receive(.move(cell: 4))  // now it is the host's turn
        _ = host.resign()
        XCTAssertEqual(host.receive(.move(cell: 0)).last, .close)
    }
}
