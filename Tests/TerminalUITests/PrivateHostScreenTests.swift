import GameClient
import GameProtocol
import TerminalUI
import TerminalWidgets
import TicTacToeTestSupport
import XCTest

/// Host a private game: the menu item hosts with `.private`; the host's screen shows the code (from `.privateCode`,
/// never a report), the code that replaces it with the reason, and each failed attempt with its address; the UI's log
/// never has a code.
final class PrivateHostScreenTests: XCTestCase {
    /// Host a private game from the menu: "r", then Enter on the form (prefilled with port 7878).
    private func hostPrivately(_ tail: [FakeTerminal.Step]) -> [FakeTerminal.Step] {
        [
            .keys("r"), .key(.enter),
            .network(.report(.listening(host: "0.0.0.0", port: 7878, name: "tester", security: .private))),
        ] + tail
    }

    func testTheMenuItemHostsAPrivateGameAndTheOtherHostsAnOpenOne() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: hostPrivately([]))
        try runApp(terminal, network: network)
        XCTAssertTrue(terminal.frames.map(\.text).contains { $0.contains("Host a private game") && $0.contains("Port") })
        XCTAssertEqual(network.hosted.count, 1)
        XCTAssertEqual(network.hosted.first?.security, .private)
        XCTAssertEqual(network.hosted.first?.port, 7878)
        XCTAssertTrue(terminal.lastFrame.contains("Hosting a private game as tester"), terminal.lastFrame)

        let open = FakeNetwork()
        try runApp(FakeTerminal(script: [.keys("h"), .key(.enter)]), network: open)
        XCTAssertEqual(open.hosted.first?.security, .open)
    }

    func testTheHostsScreenShowsTheCode() throws {
        let terminal = FakeTerminal(script: hostPrivately([.network(.privateCode("482913", replacedBecause: nil))]))
        try runApp(terminal)
        let frame = terminal.lastFrame
        XCTAssertTrue(frame.contains("Code: 482 913 — give it to the player who joins"), frame)
        XCTAssertTrue(frame.contains("Waiting for someone to join on port 7878"), frame)
        // The code is the screen's headline: drawn in the title style.
        let canvas = try XCTUnwrap(terminal.frames.last)
        let row = try XCTUnwrap(frame.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("Code: 482 913") })
        XCTAssertTrue(canvas.cells[row].contains { $0.style == .title && $0.character == "4" })

        let ascii = FakeTerminal(unicode: false, script: hostPrivately([.network(.privateCode("000042", replacedBecause: nil))]))
        try runApp(ascii)
        XCTAssertTrue(ascii.lastFrame.contains("Code: 000 042 - give it to the player who joins"), ascii.lastFrame)
    }

    func testAReplacedCodeShowsWithItsReasonAndTheOldOneIsGone() throws {
        let terminal = FakeTerminal(script: hostPrivately([
            .network(.privateCode("482913", replacedBecause: nil)),
            .network(.report(.codeReplaced(reason: "3 wrong codes in a row"))),
            .network(.privateCode("105377", replacedBecause: "3 wrong codes in a row")),
        ]))
        try runApp(terminal)
        let words = terminal.lastFrameWords
        XCTAssertTrue(words.contains("New code: 105 377 (3 wrong codes in a row)"), terminal.lastFrame)
        XCTAssertTrue(words.contains("the old code no longer works"), terminal.lastFrame)
        XCTAssertFalse(terminal.lastFrame.contains("482 913"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.split(separator: "\n").last?.contains("A new code") ?? false, terminal.lastFrame)
    }

    func testEachFailedAttemptShowsWithItsAddress() throws {
        let terminal = FakeTerminal(script: hostPrivately([
            .network(.privateCode("482913", replacedBecause: nil)),
            .network(.report(.peerFailed(remote: "192.0.2.7:50112", error: "wrong code"))),
        ]))
        try runApp(terminal)
        let lines = terminal.lastFrame.split(separator: "\n")
        // Listed once, with its address; the status line counts the attempts instead of repeating the line.
        XCTAssertEqual(lines.filter { $0.contains("Wrong code from 192.0.2.7:50112") }.count, 1, terminal.lastFrame)
        XCTAssertTrue(lines.last?.contains("1 failed attempt to join") ?? false, "not in the status line:\n"
                      + terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Code: 482 913"), "the code stays shown:\n\(terminal.lastFrame)")

        // The latest three are listed, each with its address; other failures say what happened.
        let many = FakeTerminal(script: hostPrivately([
            .network(.report(.peerFailed(remote: "192.0.2.7:50112", error: "wrong code"))),
            .network(.report(.peerFailed(remote: "192.0.2.8:50113", error: "wrong code"))),
            .network(.report(.peerFailed(remote: "[2001:db8::9]:50114", error: "wrong code"))),
            .network(.report(.peerFailed(remote: "192.0.2.10:50115", error: "not TLS"))),
        ]))
        try runApp(many)
        let frame = many.lastFrame
        XCTAssertFalse(frame.contains("192.0.2.7:"), frame)
        XCTAssertTrue(frame.contains("Wrong code from 192.0.2.8:50113"), frame)
        XCTAssertTrue(frame.contains("Wrong code from [2001:db8::9]:50114"), frame)
        XCTAssertTrue(frame.contains("Failed attempt from 192.0.2.10:50115: not TLS"), frame)
        XCTAssertTrue(frame.split(separator: "\n").last?.contains("4 failed attempts to join") ?? false, frame)
    }

    func testAnOpenHostShowsNoCodeAndTheCodeGoesWhenTheMatchBegins() throws {
        let open = FakeTerminal(script: [
            .keys("h"), .key(.enter), .network(.report(.listening(host: "0.0.0.0", port: 7878, name: "tester"))),
        ])
        try runApp(open)
        XCTAssertFalse(open.lastFrame.contains("Code:"), open.lastFrame)
        XCTAssertTrue(open.lastFrame.contains("Hosting as tester"), open.lastFrame)

        let playing = FakeTerminal(script: hostPrivately([
            .network(.privateCode("482913", replacedBecause: nil)),
            .network(.report(.connected(peerName: "bob", address: "127.0.0.1:5000", role: .host,
                                        cipher: "ECDHE-PSK-CHACHA20-POLY1305"))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .x, firstMover: .x)))),
        ]))
        try runApp(playing)
        XCTAssertFalse(playing.lastFrame.contains("482 913"), playing.lastFrame)
        XCTAssertTrue(playing.lastFrame.contains("Your turn (X)"), playing.lastFrame)
    }

    /// The screen is the only place a code goes: a private host's code, a joiner's wrong one and its right one are
    /// not in what the UI logs about them.
    func testTheUIsLogNeverHasTheCode() throws {
        let lines = Recorder<String>()
        func run(_ script: [FakeTerminal.Step]) throws {
            let terminal = FakeTerminal(script: script)
            let network = FakeNetwork()
            let app = UIApp(terminal: terminal, settings: UISettings(name: "tester"),
                            client: fakeClient(network, FakePrivacy(state: .allowed)), seed: 7,
                            clock: { [unowned terminal] in terminal.now }, logger: recordingLogger(lines))
            terminal.queue = app.queue
            terminal.network = network
            _ = try app.run()
        }
        try run(hostPrivately([
            .network(.privateCode("482913", replacedBecause: nil)),
            .network(.report(.peerFailed(remote: "127.0.0.1:50112", error: "wrong code"))),
        ]))
        let wrongCode = "wrong code: 127.0.0.1:7000 did not accept the code given"
        try run([
            .keys("a"), .keys("127.0.0.1:7000"), .key(.enter),
            .network(.report(.error(wrongCode, .wrongCode))), .network(.finished(.wrongCode)),
            .keys("111 111"), .key(.enter),
            .network(.report(.error(wrongCode, .wrongCode))), .network(.finished(.wrongCode)),
            .keys("482 913"), .key(.enter),
        ])
        let logged = lines.all.joined(separator: "\n")
        XCTAssertTrue(logged.contains("hosting a private game as tester"), logged)
        XCTAssertTrue(logged.contains("joining 127.0.0.1:7000 as tester with a code"), logged)
        for code in ["482913", "482 913", "111111", "111 111"] {
            XCTAssertFalse(logged.contains(code), "the log has the code \(code):\n\(logged)")
        }
    }

    func testLeavingAPrivateHostGoesBackToItsMenuEntry() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: hostPrivately([.keys("q")]))
        let (app, _) = try runApp(terminal, network: network)
        guard case .menu(let menu) = app.model.screen else { return XCTFail("not back: \(app.model.screen)") }
        XCTAssertEqual(menu.selected.title, "Host a private game")
        XCTAssertTrue(network.handles.first?.cancelled ?? false)
    }
}
