import GameProtocol
import GameRules
import XCTest

/// Rematches: offers, accepts, crossing offers, declines, and who plays X in each game.
final class MatchSessionSeriesTests: XCTestCase {
    private let joinerWinsTopRow = [0, 3, 1, 4, 2]  // game 1: joiner X
    private let hostWinsDiagonal = [4, 0, 2, 1, 6]  // game 2: host X
    private let draw = [0, 4, 8, 1, 7, 6, 2, 5, 3]

    func testSeriesOfThreeGames() {
        let pair = SessionPair()
        pair.begin()
        pair.play(joinerWinsTopRow)
        XCTAssertTrue(pair.joinerDecisionRequested && pair.hostDecisionRequested)

        // Joiner offers, host accepts: the host answers and starts game 2 with itself as X.
        pair.clearLogs()
        pair.decide(.joiner, true, deliver: false)
        XCTAssertEqual(pair.joinerLog, [.send(.rematchOffer)])
        pair.pump()
        XCTAssertEqual(pair.hostLog, [.emit(.rematchOffered)])
        pair.clearLogs()
        pair.decide(.host, true)
        XCTAssertEqual(
            pair.hostLog,
            [
                .send(.rematchAccept),
                .send(.start(game: 2, joinerMark: .o, firstMover: .x)),
                .emit(.gameStarted(number: 2, localMark: .x, firstMover: .x)),
                .requestLocalMove,
            ]
        )
        XCTAssertEqual(pair.joinerLog, [.emit(.gameStarted(number: 2, localMark: .o, firstMover: .x))])
        XCTAssertTrue(pair.hostMoveRequested)
        XCTAssertFalse(pair.joinerMoveRequested)

        pair.play(hostWinsDiagonal)
        XCTAssertEqual(pair.host.score, Score(localWins: 1, peerWins: 1))
        XCTAssertEqual(pair.joiner.score, Score(localWins: 1, peerWins: 1))
        guard case .gameOver(2, let result, _, _)? = pair.events(.host).last else {
            return XCTFail("game 2 did not end: \(pair.events(.host))")
        }
        XCTAssertEqual(result, GameResult(winner: .x, reason: .line([2, 4, 6])))

        // Both offer at once: the offers cross and count as agreement; no accept is sent.
        pair.clearLogs()
        pair.decide(.host, true, deliver: false)
        pair.decide(.joiner, true, deliver: false)
        pair.pump()
        XCTAssertEqual(pair.sent(.host), [.rematchOffer, .start(game: 3, joinerMark: .x, firstMover: .x)])
        XCTAssertEqual(pair.sent(.joiner), [.rematchOffer])
        XCTAssertFalse(pair.events(.host).contains(.rematchOffered))
        XCTAssertFalse(pair.events(.joiner).contains(.rematchOffered))
        XCTAssertEqual(pair.events(.joiner), [.gameStarted(number: 3, localMark: .x, firstMover: .x)])
        XCTAssertTrue(pair.joinerMoveRequested)

        pair.play(draw)
        let score = Score(localWins: 1, peerWins: 1, draws: 1)
        XCTAssertEqual(pair.host.score, score)
        XCTAssertEqual(pair.joiner.score, score)
        XCTAssertEqual(score.gamesPlayed, 3)

        // Joiner offers, host declines: decline, bye, and a completed match on both sides.
        pair.clearLogs()
        pair.decide(.joiner, true)
        pair.clearLogs()
        pair.decide(.host, false)
        XCTAssertEqual(
            pair.hostLog,
            [
                .send(.rematchDecline), .send(.bye(.seriesOver)),
                .emit(.matchOver(.completed(by: .local), score: score)), .close,
            ]
        )
        XCTAssertEqual(pair.joinerLog, [.emit(.matchOver(.completed(by: .peer), score: score)), .close])
        XCTAssertEqual(pair.host.end, .completed(by: .local))
        XCTAssertEqual(pair.joiner.end, .completed(by: .peer))
    }

    func testHostOffersAndJoinerAccepts() {
        let pair = SessionPair()
        pair.begin()
        pair.play(joinerWinsTopRow)
        pair.clearLogs()
        pair.decide(.host, true)
        XCTAssertEqual(pair.hostLog, [.send(.rematchOffer)])
        XCTAssertEqual(pair.joinerLog, [.emit(.rematchOffered)])
        pair.clearLogs()
        pair.decide(.joiner, true)
        XCTAssertEqual(pair.sent(.joiner), [.rematchAccept])
        XCTAssertEqual(pair.sent(.host), [.start(game: 2, joinerMark: .o, firstMover: .x)])
        XCTAssertEqual(pair.host.localMark, .x)
        XCTAssertEqual(pair.joiner.localMark, .o)
    }

    func testDecliningWithoutAnOfferSendsOnlyBye() {
        let pair = SessionPair()
        pair.begin()
        pair.play(joinerWinsTopRow)
        pair.clearLogs()
        pair.decide(.host, false)
        let hostScore = Score(peerWins: 1)
        let joinerScore = Score(localWins: 1)
        XCTAssertEqual(
            pair.hostLog,
            [.send(.bye(.seriesOver)), .emit(.matchOver(.completed(by: .local), score: hostScore)), .close]
        )
        XCTAssertEqual(pair.joinerLog, [.emit(.matchOver(.completed(by: .peer), score: joinerScore)), .close])
        // The joiner's own decision comes too late and does nothing.
        XCTAssertEqual(pair.joiner.decideRematch(false), [])
        XCTAssertEqual(pair.joiner.decideRematch(true), [])
    }

    func testOfferMetByADeclineEndsTheMatch() {
        let pair = SessionPair()
        pair.begin()
        pair.play(joinerWinsTopRow)
        pair.decide(.host, true)
        pair.clearLogs()
        pair.decide(.joiner, false)
        XCTAssertEqual(pair.sent(.joiner), [.rematchDecline, .bye(.seriesOver)])
        XCTAssertEqual(pair.joiner.end, .completed(by: .local))
        XCTAssertEqual(pair.host.end, .completed(by: .peer))
        XCTAssertEqual(pair.hostLog, [.emit(.matchOver(.completed(by: .peer), score: Score(peerWins: 1))), .close])
    }

    func testOfferCrossingOurByeIsIgnored() {
        var host = MatchSession(role: .host)
        _ = host.begin()
        for cell: UInt8 in [0, 1, 2] {
            _ = host.receive(.move(cell: cell))
            if cell < 2 { _ = try! host.playLocalMove(Int(cell) + 3) }
        }
        XCTAssertEqual(host.decideRematch(false).last, .close)
        XCTAssertEqual(host.receive(.rematchOffer), [])
        XCTAssertEqual(host.receive(.bye(.seriesOver)), [])
    }

    func testDecideRematchOnlyCountsBetweenGames() {
        var host = MatchSession(role: .host)
        XCTAssertEqual(host.decideRematch(true), [], "before the first game")
        _ = host.begin()
        XCTAssertEqual(host.decideRematch(true), [], "during a game")
        let pair = SessionPair()
        pair.begin()
        pair.play(joinerWinsTopRow)
        pair.decide(.joiner, true, deliver: false)
        XCTAssertEqual(pair.joiner.decideRematch(true), [], "already decided")
    }

    func testGameNumbersAndMarksAlternateOverALongSeries() {
        let pair = SessionPair()
        pair.begin()
        for number in 1...6 {
            let joinerIsX = number % 2 == 1
            XCTAssertEqual(pair.joiner.localMark, joinerIsX ? .x : .o, "game \(number)")
            XCTAssertEqual(pair.host.localMark, joinerIsX ? .o : .x, "game \(number)")
            pair.play([0, 3, 1, 4, 2])  // X wins each game
            pair.decide(.host, true)
            pair.decide(.joiner, true)
        }
        XCTAssertEqual(pair.joiner.score, Score(localWins: 3, peerWins: 3))
        XCTAssertEqual(pair.host.score, Score(localWins: 3, peerWins: 3))
        XCTAssertEqual(pair.sent(.host).filter { $0.kind == .start }.count, 7)
    }
}
