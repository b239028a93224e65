import GameProtocol
import XCTest

final class HostHandshakeTests: XCTestCase {
    func testHelloOfOurVersionIsAccepted() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 1, name: "Ann"), hostName: "Bob"),
            .accept(version: 1, name: "Bob")
        )
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 1, name: "Zoë 🎲"), hostName: "Léa"),
            .accept(version: 1, name: "Léa")
        )
    }

    func testOtherVersionsAreRejected() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 2, name: "Ann"), hostName: "Bob"),
            .reject(reason: .version, text: "host speaks protocol version 1, joiner 2")
        )
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 0, name: "Ann"), hostName: "Bob"),
            .reject(reason: .version, text: "host speaks protocol version 1, joiner 0")
        )
    }

    func testVersionIsCheckedBeforeTheName() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 9, name: ""), hostName: "Bob"),
            .reject(reason: .version, text: "host speaks protocol version 1, joiner 9")
        )
    }

    func testEmptyNameIsABadHello() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 1, name: ""), hostName: "Bob"),
            .reject(reason: .badHello, text: "empty player name")
        )
    }

    func testAnythingButHelloIsAnUnexpectedMessage() {
        let cases: [(GameMessage, String)] = [
            (.move(cell: 4), "expected hello, got move"),
            (.accept(version: 1, name: "Ann"), "expected hello, got accept"),
            (.ping(1), "expected hello, got ping"),
            (.start(game: 1, joinerMark: .x, firstMover: .x), "expected hello, got start"),
            (.bye(.quit), "expected hello, got bye"),
        ]
        for (message, text) in cases {
            XCTAssertEqual(
                HostHandshake.answer(to: message, hostName: "Bob"),
                .error(code: .unexpectedMessage, text: text)
            )
        }
    }
}
