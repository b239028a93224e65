import GameClient
import GameProtocol
import TerminalUI
import TerminalWidgets
import XCTest

/// Joining a private game: a join the host turns away for its code (exit 13) asks for the code, "This game is private"
/// when none was given and "Wrong code, try again" when it was wrong; Enter joins the same game again with the typed
/// code, Esc goes back, and text that is not a code is refused where it was typed.
final class WrongCodeScreenTests: XCTestCase {
    private let address = "127.0.0.1:7000"
    private let privateGameError = "127.0.0.1:7000 hosts a private game: give its code with --code-file FILE, --code - "
        + "or TICTACTOE_CODE"
    private let wrongCodeError = "wrong code: 127.0.0.1:7000 did not accept the code given (ask its host for the code "
        + "on their screen; it changes after three wrong codes in a row)"

    /// Join by address, and the host says the game is private (no code was given).
    private func joinAPrivateGame() -> [FakeTerminal.Step] {
        [
            .keys("a"), .keys(address), .key(.enter),
            .network(.report(.error(privateGameError, .wrongCode))),
            .network(.finished(.wrongCode)),
        ]
    }

    func testAPrivateGameJoinedWithoutACodeAsksForItAndJoinsAgainWithIt() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joinAPrivateGame() + [.keys("482 913"), .key(.enter)])
        let (app, _) = try runApp(terminal, network: network)
        let asked = try XCTUnwrap(terminal.frames.map(\.text).first { $0.contains("This game is private: enter its code") })
        XCTAssertTrue(asked.contains("Joining 127.0.0.1:7000 as tester"), asked)
        XCTAssertTrue(asked.contains("Code (6 digits)"), asked)
        XCTAssertFalse(asked.contains("Wrong code"), asked)
        XCTAssertEqual(network.joined.map(\.address), [address, address])
        XCTAssertEqual(network.joined.map(\.code), [nil, "482913"])
        XCTAssertEqual(network.joined.last?.name, "tester")
        guard case .network(let game) = app.model.screen else { return XCTFail("not joining again: \(app.model.screen)") }
        XCTAssertEqual(game.role, .joiner)
        XCTAssertTrue(terminal.lastFrame.contains("Connecting to 127.0.0.1:7000"), terminal.lastFrame)
    }

    func testAWrongCodeSaysWrongCodeTryAgainAndJoinsAgainWithTheNewCode() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joinAPrivateGame() + [
            .keys("111111"), .key(.enter),
            .network(.report(.connectionState(.failed(.wrongCode)))),
            .network(.report(.error(wrongCodeError, .wrongCode))),
            .network(.finished(.wrongCode)),
        ])
        let (app, _) = try runApp(terminal, network: network)
        XCTAssertTrue(terminal.lastFrame.contains("Wrong code, try again"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Failed: wrong code"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Code (6 digits)"), terminal.lastFrame)
        guard case .code(let entry) = app.model.screen else { return XCTFail("no code form: \(app.model.screen)") }
        XCTAssertEqual(entry.reason, .wrongCode)
        XCTAssertEqual(entry.text, "", "the wrong code is not typed in again for the player")

        let retry = FakeTerminal(script: joinAPrivateGame() + [
            .keys("111111"), .key(.enter),
            .network(.report(.error(wrongCodeError, .wrongCode))),
            .network(.finished(.wrongCode)),
            .keys("222-222"), .key(.enter),
        ])
        let retryNetwork = FakeNetwork()
        try runApp(retry, network: retryNetwork)
        XCTAssertEqual(retryNetwork.joined.map(\.code), [nil, "111111", "222222"])
        XCTAssertEqual(Set(retryNetwork.joined.map(\.address)), [address])
    }

    func testEscapeOnTheCodeFormGoesBackWithoutJoining() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joinAPrivateGame() + [.keys("48"), .key(.escape)])
        let (app, _) = try runApp(terminal, network: network)
        XCTAssertEqual(network.joined.count, 1)
        guard case .menu(let menu) = app.model.screen else { return XCTFail("not back: \(app.model.screen)") }
        XCTAssertEqual(menu.selected.title, "Join by address")
    }

    func testTextThatIsNotACodeIsRefusedOnTheForm() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joinAPrivateGame() + [.keys("48291"), .key(.enter)])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.joined.count, 1, "a malformed code was sent")
        XCTAssertTrue(terminal.lastFrameWords.contains("a game code is 6 digits (spaces and dashes are ignored), and this has 5"),
                      terminal.lastFrame)

        let letters = FakeTerminal(script: joinAPrivateGame() + [.keys("48x913"), .key(.enter)])
        let lettersNetwork = FakeNetwork()
        try runApp(letters, network: lettersNetwork)
        XCTAssertEqual(lettersNetwork.joined.count, 1)
        XCTAssertTrue(letters.lastFrameWords.contains("a game code is 6 digits (0-9"), letters.lastFrame)

        let empty = FakeTerminal(script: joinAPrivateGame() + [.key(.enter)])
        let emptyNetwork = FakeNetwork()
        try runApp(empty, network: emptyNetwork)
        XCTAssertEqual(emptyNetwork.joined.count, 1)
        XCTAssertTrue(empty.lastFrameWords.contains("no game code given"), empty.lastFrame)

        // Fixed, it goes: the error is gone and the join carries the digits only.
        let fixed = FakeTerminal(script: joinAPrivateGame() + [
            .keys("48291"), .key(.enter), .keys("3"), .key(.enter),
        ])
        let fixedNetwork = FakeNetwork()
        try runApp(fixed, network: fixedNetwork)
        XCTAssertEqual(fixedNetwork.joined.map(\.code), [nil, "482913"])
    }

    /// A game from the search list that turns out private (an older listing without `sec`, or a host that became
    /// private) is joined again by its name with the code.
    func testAGameFromTheSearchListThatTurnsOutPrivateAsksForItsCodeAndJoinsItByName() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games([GameListing(name: "alice", security: .open)])), .key(.enter),
            .network(.report(.error("alice hosts a private game: give its code with --code-file FILE", .wrongCode))),
            .network(.finished(.wrongCode)),
            .keys("000042"), .key(.enter),
        ])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.joined.map(\.address), ["alice", "alice"])
        XCTAssertEqual(network.joined.map(\.code), [nil, "000042"])
        XCTAssertTrue(terminal.frames.map(\.text).contains { $0.contains("Joining alice as tester") })
    }

    /// A game the list marks private asks for its code before joining: one join, with the code.
    func testAGameListedAsPrivateAsksForItsCodeBeforeJoining() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games([GameListing(name: "alice", security: .private)])), .key(.enter),
            .keys("123 456"), .key(.enter),
        ])
        try runApp(terminal, network: network)
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("This game is private: enter its code") })
        XCTAssertEqual(network.joined.map(\.address), ["alice"])
        XCTAssertEqual(network.joined.map(\.code), ["123456"])
    }
}
