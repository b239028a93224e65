import GameRules
import XCTest

final class MarkTests: XCTestCase {
    func testRawValuesOpponentsAndDescriptions() {
        XCTAssertEqual(Mark.x.rawValue, 1)
        XCTAssertEqual(Mark.o.rawValue, 2)
        XCTAssertEqual(Mark(rawValue: 0), nil)
        XCTAssertEqual(Mark.allCases, [.x, .o])
        XCTAssertEqual(Mark.x.opponent, .o)
        XCTAssertEqual(Mark.o.opponent, .x)
        XCTAssertEqual(Mark.x.description, "X")
        XCTAssertEqual("\(Mark.o)", "O")
    }

    func testPublicTypesAreSendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(Mark.self)
        requireSendable(Board.self)
        requireSendable(WinningLine.self)
        requireSendable(GameEndReason.self)
        requireSendable(GameResult.self)
        requireSendable(MoveError.self)
        requireSendable(Game.self)
        requireSendable(SplitMix64.self)
        requireSendable(ScriptedPlayer.self)
        requireSendable(ScriptError.self)
        requireSendable(PerfectPlayer<SplitMix64>.self)
        requireSendable(RandomPlayer<SplitMix64>.self)
    }
}
