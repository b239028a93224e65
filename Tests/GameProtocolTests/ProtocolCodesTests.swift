import GameProtocol
import GameRules
import XCTest

/// The numeric codes on the wire (docs/PROTOCOL.md tables) and their names.
final class ProtocolCodesTests: XCTestCase {
    func testRejectReasons() {
        let expected: [(RejectReason, UInt8, String)] = [
            (.busy, 1, "busy"), (.version, 2, "version"), (.badHello, 3, "bad-hello"),
            (.shuttingDown, 4, "shutting-down"),
        ]
        for (reason, raw, name) in expected {
            XCTAssertEqual(reason.rawValue, raw)
            XCTAssertEqual(reason.description, name)
            XCTAssertEqual(RejectReason(rawValue: raw), reason)
        }
    }

    func testByeReasons() {
        let expected: [(ByeReason, UInt8, String)] = [
            (.seriesOver, 0, "series-over"), (.quit, 1, "quit"), (.shutdown, 2, "shutdown"), (.timeout, 3, "timeout"),
        ]
        for (reason, raw, name) in expected {
            XCTAssertEqual(reason.rawValue, raw)
            XCTAssertEqual(reason.description, name)
        }
        // A reason this version does not name is kept as its number (the session treats it as a forfeit).
        XCTAssertEqual(ByeReason(rawValue: 9).description, "reason-9")
    }

    func testErrorCodes() {
        let expected: [(ProtocolErrorCode, UInt16, String)] = [
            (.malformedFrame, 1, "malformed-frame"), (.badFrameLength, 2, "bad-frame-length"),
            (.unknownMessage, 3, "unknown-message"), (.unexpectedMessage, 4, "unexpected-message"),
            (.moveOutOfRange, 10, "move-out-of-range"), (.cellOccupied, 11, "cell-occupied"),
            (.notYourTurn, 12, "not-your-turn"), (.gameOver, 13, "game-over"),
            (.handshakeTimeout, 20, "handshake-timeout"), (.heartbeatTimeout, 21, "heartbeat-timeout"),
        ]
        for (code, raw, name) in expected {
            XCTAssertEqual(code.rawValue, raw)
            XCTAssertEqual(code.description, name)
        }
    }

    func testRulesViolationsMapToErrorCodes() {
        XCTAssertEqual(ProtocolErrorCode(MoveError.outOfRange(9)), .moveOutOfRange)
        XCTAssertEqual(ProtocolErrorCode(MoveError.occupied(4)), .cellOccupied)
        XCTAssertEqual(ProtocolErrorCode(MoveError.notYourTurn(expected: .o)), .notYourTurn)
        XCTAssertEqual(ProtocolErrorCode(MoveError.gameOver), .gameOver)
    }

    func testKindOfEachMessage() {
        XCTAssertEqual(GameMessage.hello(version: 1, name: "a").kind, .hello)
        XCTAssertEqual(GameMessage.error(code: .gameOver, text: "").kind, .error)
        for (message, frame) in WireSamples.all {
            XCTAssertEqual(message.kind.rawValue, frame[2])
        }
    }
}
