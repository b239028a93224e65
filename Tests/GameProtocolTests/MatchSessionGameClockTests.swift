import GameProtocol
import GameRules
import XCTest

/// `--game-time`: each side's clock for the whole game, chess-clock style. Time is an input (`clockTime`): the test
/// says what time it is; no clock runs here.
final class MatchSessionGameClockTests: XCTestCase {
    private typealias Action = MatchSession.Action
    private let gameTime = Duration.seconds(10)

    private func timerActions(_ actions: [Action]) -> [Action] {
        actions.filter {
            switch $0 {
            case .startTurnTimer, .stopTurnTimer: return true
            default: return false
            }
        }
    }

    /// A host whose joiner (X in game 1) is to move, at time 0.
    private func host(turnTimeLimit: Duration? = nil) -> (MatchSession, [Action]) {
        var host = MatchSession(role: .host, turnTimeLimit: turnTimeLimit, gameTime: gameTime)
        host.clockTime(.zero)
        let actions = host.begin()
        return (host, actions)
    }

    func testOnlyTheMoversClockRunsAndTheTimeLeftCarriesOver() throws {
        var (host, actions) = host()
        XCTAssertEqual(timerActions(actions), [.startTurnTimer(.move(game: 1, played: 0), limit: gameTime)])
        XCTAssertEqual(host.localTimeLeft, gameTime)
        XCTAssertEqual(host.peerTimeLeft, gameTime)

        host.clockTime(.seconds(3))
        XCTAssertEqual(host.peerTimeLeft, .seconds(7), "the peer's clock runs while it is to move")
        XCTAssertEqual(host.localTimeLeft, gameTime, "ours does not")
        XCTAssertEqual(timerActions(host.receive(.move(cell: 0))), [.stopTurnTimer])

        host.clockTime(.seconds(5))
        XCTAssertEqual(host.peerTimeLeft, .seconds(7), "the peer's clock stopped when it moved")
        XCTAssertEqual(host.localTimeLeft, .seconds(8), "ours runs now")
        XCTAssertEqual(
            timerActions(try host.playLocalMove(4)), [.startTurnTimer(.move(game: 1, played: 2), limit: .seconds(7))],
            "the peer's next turn is timed by what it has left")

        host.clockTime(.seconds(9))
        XCTAssertEqual(host.localTimeLeft, .seconds(8))
        XCTAssertEqual(host.peerTimeLeft, .seconds(3))
        _ = host.receive(.move(cell: 1))
        XCTAssertEqual(host.peerTimeLeft, .seconds(3))
    }

    func testThePeerWhoseGameClockRunsOutLosesOnTimeAndTheReasonNamesTheGameClock() {
        var (host, _) = host()
        host.clockTime(.seconds(4))
        _ = host.receive(.move(cell: 0))
        host.clockTime(.seconds(5))
        let actions = try! host.playLocalMove(4)
        XCTAssertEqual(timerActions(actions), [.startTurnTimer(.move(game: 1, played: 2), limit: .seconds(6))])

        host.clockTime(.seconds(11))
        let score = MatchSession.Score(localWins: 1)
        XCTAssertEqual(
            host.turnTimeLimitPassed(.move(game: 1, played: 2)),
            [
                .send(.bye(.timeout)),
                .emit(.gameOver(number: 1, result: GameResult(winner: .o, reason: .timeout(.x)),
                                board: MatchSessionTestSupport.board([0, 4]), score: score)),
                .emit(.matchOver(.gameTimeout(limit: gameTime), score: score)),
                .close,
                .stopTurnTimer,
            ])
        XCTAssertEqual(host.end, .gameTimeout(limit: gameTime))
    }

    func testTheMoveLimitStillAppliesWhileTheGameClockHasMoreAndTheGameClockOnceItHasLess() throws {
        var (host, actions) = host(turnTimeLimit: .seconds(5))
        XCTAssertEqual(timerActions(actions), [.startTurnTimer(.move(game: 1, played: 0), limit: .seconds(5))])
        host.clockTime(.seconds(4))
        _ = host.receive(.move(cell: 0))  // 6 s left
        XCTAssertEqual(
            timerActions(try host.playLocalMove(4)), [.startTurnTimer(.move(game: 1, played: 2), limit: .seconds(5))])
        host.clockTime(.seconds(8))
        _ = host.receive(.move(cell: 1))  // 2 s left
        XCTAssertEqual(
            timerActions(try host.playLocalMove(2)), [.startTurnTimer(.move(game: 1, played: 4), limit: .seconds(2))])
        host.clockTime(.seconds(10))
        let over = host.turnTimeLimitPassed(.move(game: 1, played: 4))
        XCTAssertTrue(over.contains(.emit(.matchOver(.gameTimeout(limit: gameTime), score: .init(localWins: 1)))))
    }

    func testAMoveTimeoutIsStillAMoveTimeout() {
        var (host, _) = host(turnTimeLimit: .seconds(5))
        host.clockTime(.seconds(5))
        let over = host.turnTimeLimitPassed(.move(game: 1, played: 0))
        XCTAssertEqual(host.end, .moveTimeout(by: .peer, limit: .seconds(5)))
        XCTAssertTrue(over.contains(.send(.bye(.timeout))))
    }

    func testTheClocksAreResetAtEachGame() throws {
        var (host, _) = host()
        // Game 1: the joiner (X) wins along the top row, having used 1 s a move.
        var time = Duration.zero
        for (cell, byPeer) in [(0, true), (3, false), (1, true), (4, false), (2, true)] {
            time += .seconds(1)
            host.clockTime(time)
            if byPeer { _ = host.receive(.move(cell: UInt8(cell))) } else { _ = try host.playLocalMove(cell) }
        }
        XCTAssertNil(host.currentGame)
        XCTAssertNil(host.peerTimeLeft, "no game, no clock")
        time += .seconds(30)  // between games no clock runs
        host.clockTime(time)
        _ = host.decideRematch(true)
        let actions = host.receive(.rematchAccept)  // game 2: the host is X and moves first
        XCTAssertEqual(host.localTimeLeft, gameTime)
        XCTAssertEqual(host.peerTimeLeft, gameTime)
        XCTAssertEqual(timerActions(actions), [.stopTurnTimer])
        time += .seconds(2)
        host.clockTime(time)
        XCTAssertEqual(host.localTimeLeft, .seconds(8))
        XCTAssertEqual(
            timerActions(try host.playLocalMove(4)), [.startTurnTimer(.move(game: 2, played: 1), limit: gameTime)])
    }

    func testTheJoinerCanKeepAGameClockToo() {
        var joiner = MatchSession(role: .joiner, gameTime: gameTime)
        joiner.clockTime(.zero)
        _ = joiner.begin()
        // Game 2 arrives only after game 1; here game 1: the joiner is X and moves first, the host then has its clock.
        let start = joiner.receive(.start(game: 1, joinerMark: .x, firstMover: .x))
        XCTAssertEqual(timerActions(start), [])
        joiner.clockTime(.seconds(1))
        XCTAssertEqual(joiner.localTimeLeft, .seconds(9))
        XCTAssertEqual(
            timerActions(try! joiner.playLocalMove(4)), [.startTurnTimer(.move(game: 1, played: 1), limit: gameTime)])
    }
}
