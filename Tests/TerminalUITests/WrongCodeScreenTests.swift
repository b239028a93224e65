import GameClient
import GameProtocol
import TerminalUI
import XCTest

/// A joiner whose code the host does not share (protocol 2's keys did not match) is told so in words.
final class WrongCodeScreenTests: XCTestCase {
    func testAWrongCodeSaysWrongCodeTryAgain() throws {
        let terminal = FakeTerminal(script: [
            .keys("a"), .keys("127.0.0.1:7000"), .key(.enter),
            .network(.report(.connectionState(.failed(.wrongCode)))),
            .network(.report(.error("\(ConnectionError.wrongCode)", .wrongCode))),
        ])
        try runApp(terminal)
        XCTAssertTrue(terminal.lastFrame.contains("Wrong code, try again"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Failed: wrong code"), terminal.lastFrame)
    }
}
