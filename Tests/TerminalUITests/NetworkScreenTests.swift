@testable import AppProcess
import GameProtocol
import GameRules
import GameClient
import TerminalUI
import TerminalWidgets
import XCTest
import TextSupport

final class NetworkScreenTests: XCTestCase {
    private func hostScript(_ tail: [FakeTerminal.Step]) -> [FakeTerminal.Step] {
        [.keys("h"), .key(.enter)] + tail  // the form starts on the port field, prefilled with 7878
    }

    func testHostFormStartsHostingWithTheNameAndPort() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: hostScript([
            .network(.report(.listening(host: "0.0.0.0", port: 7878, name: "tester"))),
        ]))
        try runApp(terminal, network: network)
        XCTAssertEqual(network.hosted.first?.name, "tester")
        XCTAssertEqual(network.hosted.first?.port, 7878)
        XCTAssertTrue(terminal.lastFrame.contains("Waiting for someone to join on port 7878"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Encrypted game: anyone on the network can join"), terminal.lastFrame)
    }

    func testJoinFormValidatesTheAddress() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [.keys("a"), .keys("host:99999"), .key(.enter)])
        try runApp(terminal, network: network)
        XCTAssertTrue(network.joined.isEmpty)
        XCTAssertTrue(terminal.lastFrame.contains("port number"), terminal.lastFrame)
        let good = FakeTerminal(script: [.keys("a"), .keys("127.0.0.1:7000"), .key(.enter)])
        let goodNetwork = FakeNetwork()
        try runApp(good, network: goodNetwork)
        XCTAssertEqual(goodNetwork.joined.first?.address, "127.0.0.1:7000")
        XCTAssertTrue(good.lastFrame.contains("Connecting to 127.0.0.1:7000"), good.lastFrame)
    }

    func testAGameOverTheNetworkSendsMovesAndShowsTheScore() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: hostScript([
            .network(.report(.connected(peerName: "bob", address: "127.0.0.1:5000", role: .host))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .o, firstMover: .x)))),
            .network(.report(.session(.moved(mark: .x, cell: 4, by: .peer)))),
            .keys("1"),
        ]))
        try runApp(terminal, network: network)
        XCTAssertEqual(network.handles.first?.sent, [LocalCommandRecord(.move(0))])
        XCTAssertTrue(terminal.lastFrame.contains("Your turn (O)"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Playing against bob"), terminal.lastFrame)
    }

    func testRematchResignAndOpponentLeft() throws {
        let network = FakeNetwork()
        let board = Board("XXXOO....")!
        let terminal = FakeTerminal(script: hostScript([
            .network(.report(.connected(peerName: "bob", address: "127.0.0.1:5000", role: .host))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .x, firstMover: .x)))),
            .keys("R"), .keys("y"),  // R asks first; y confirms
            .network(.report(.session(.gameOver(number: 1, result: GameResult(winner: .x, reason: .line([0, 1, 2])),
                                                  board: board, score: .init(localWins: 1))))),
            .network(.report(.session(.rematchOffered))),
            .keys("r"),
            .network(.report(.session(.gameStarted(number: 2, localMark: .o, firstMover: .x)))),
            .network(.report(.session(.matchOver(.peerLeft(nil), score: .init(localWins: 2))))),
        ]))
        try runApp(terminal, network: network)
        XCTAssertEqual(network.handles.first?.sent, [LocalCommandRecord(.resign), LocalCommandRecord(.rematch(true))])
        let texts = terminal.frames.map(\.text)
        XCTAssertTrue(texts.contains { $0.contains("bob wants a rematch") }, texts.last ?? "")
        XCTAssertTrue(terminal.lastFrame.contains("bob left before the match was over."), terminal.lastFrame)
        // Said once: the status line does not repeat the sentence the screen shows.
        XCTAssertEqual(terminal.lastFrame.components(separatedBy: "left before the match").count, 2, terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Disconnected"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Score: you 2"), terminal.lastFrame)
    }

    func testNamesFromTheNetworkAreShownEscapedAndCut() throws {
        let evil = "ev\u{1b}[31mil\u{07}\u{9b}2J" + String(repeating: "長", count: 40)
        let terminal = FakeTerminal(script: hostScript([
            .network(.report(.connected(peerName: evil, address: "127.0.0.1:5000", role: .host))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .x, firstMover: .x)))),
        ]))
        try runApp(terminal)
        for canvas in terminal.frames {
            for row in canvas.cells {
                for cell in row {
                    XCTAssertFalse(cell.character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                                   "a control character reached the screen")
                }
            }
        }
        let frame = terminal.lastFrame
        XCTAssertTrue(frame.contains(#"ev\x1b[31mil\x07\x9b2J"#), frame)
        XCTAssertTrue(frame.contains("…"), "the long name was not cut:\n\(frame)")
        // Wide characters take two columns and the line still fits the window.
        for line in frame.split(separator: "\n") { XCTAssertLessThanOrEqual(DisplayWidth.of(String(line)), 100) }
    }

    func testLeavingAMatchSaysByeAndCtrlCQuits() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: hostScript([
            .network(.report(.connected(peerName: "bob", address: "127.0.0.1:5000", role: .host))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .x, firstMover: .x)))),
            .input(.signal(.quit)),
        ]))
        let (_, status) = try runApp(terminal, network: network)
        XCTAssertEqual(status, .interrupted)
        XCTAssertEqual(network.handles.first?.sent, [LocalCommandRecord(.leave(.quit))])
        XCTAssertTrue(network.handles.first?.cancelled ?? false)
        XCTAssertTrue(terminal.stopped, "the terminal was not restored")
    }

    func testConnectionWaitingAndFailureAreShownInWords() throws {
        let terminal = FakeTerminal(script: [
            .keys("a"), .keys("127.0.0.1:7000"), .key(.enter),
            .network(.report(.connectionState(.waiting(.peerUnreachable("connection refused (is the host running?)",
                                                                        retryIn: .milliseconds(500)))))),
        ])
        try runApp(terminal)
        XCTAssertTrue(terminal.lastFrame.contains("Waiting: connection refused"), terminal.lastFrame)
        let failed = FakeTerminal(script: [
            .keys("a"), .keys("127.0.0.1:7000"), .key(.enter),
            .network(.report(.connectionState(.failed(.rejected(reason: "busy", text: "alice is already playing"))))),
        ])
        try runApp(failed)
        XCTAssertTrue(failed.lastFrame.contains("rejected by the host (busy)"), failed.lastFrame)
    }

    func testAJoinerWaitingForABusyHostSaysSo() throws {
        let terminal = FakeTerminal(script: [
            .keys("a"), .keys("127.0.0.1:7000"), .key(.enter),
            .network(.report(.connectionState(.waiting(.hostBusy(text: "alice is already playing", retryIn: .seconds(1)))))),
        ])
        try runApp(terminal)
        XCTAssertTrue(terminal.lastFrame.contains("busy, retrying in 1 s"), terminal.lastFrame)
    }

    func testAGameLostOnTimeSaysWhoRanOutOfTime() throws {
        var won = Game()
        try won.play(4, by: .x)
        won.timeOut(.o)
        let hosting = FakeTerminal(script: hostScript([
            .network(.report(.connected(peerName: "bob", address: "127.0.0.1:5000", role: .host))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .x, firstMover: .x)))),
            .network(.report(.session(.moved(mark: .x, cell: 4, by: .local)))),
            .network(.report(.session(.gameOver(number: 1, result: try XCTUnwrap(won.result), board: won.board,
                                                  score: .init(localWins: 1))))),
        ]))
        try runApp(hosting)
        XCTAssertTrue(hosting.lastFrame.contains("bob ran out of time: you win."), hosting.lastFrame)
        XCTAssertFalse(hosting.lastFrame.contains("r for a rematch"), "no rematch after a timeout:\n\(hosting.lastFrame)")

        let joining = FakeTerminal(script: [
            .keys("a"), .keys("127.0.0.1:7000"), .key(.enter),
            .network(.report(.connected(peerName: "alice", address: "127.0.0.1:7000", role: .joiner))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .o, firstMover: .x)))),
            .network(.report(.session(.moved(mark: .x, cell: 4, by: .peer)))),
            .network(.report(.session(.gameOver(number: 1, result: try XCTUnwrap(won.result), board: won.board,
                                                  score: .init(peerWins: 1))))),
            .network(.report(.session(.matchOver(.moveTimeout(by: .local, limit: nil), score: .init(peerWins: 1))))),
        ])
        try runApp(joining)
        let texts = joining.frames.map(\.text)
        XCTAssertTrue(texts.contains { $0.contains("You ran out of time.") }, texts.last ?? "")
        XCTAssertTrue(joining.lastFrame.contains("You ran out of time: the host allows"), joining.lastFrame)
    }

    /// A host's reject or error text, and a peer's reasons, are shown escaped: no escape sequence reaches the screen.
    func testRejectAndErrorTextsFromThePeerAreShownEscaped() throws {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{202E}"
        let shown = #"\x1b]0;pwned\x07\x1b[2J\u202e"#
        let rejected = FakeTerminal(script: [
            .keys("a"), .keys("127.0.0.1:7000"), .key(.enter),
            .network(.report(.connectionState(.failed(.rejected(reason: "busy", text: hostile))))),
        ])
        try runApp(rejected)
        XCTAssertTrue(rejected.lastFrame.contains("Could not join: rejected by the host (busy): " + shown), rejected.lastFrame)
        let reported = FakeTerminal(script: hostScript([
            .network(.report(.connected(peerName: "bob", address: "127.0.0.1:5000", role: .host))),
            .network(.report(.session(.matchOver(.peerReportedError(code: .malformedFrame, text: hostile),
                                                 score: .init())))),
        ]))
        try runApp(reported)
        XCTAssertTrue(reported.lastFrame.contains("bob reported an error: " + shown), reported.lastFrame)
        for canvas in rejected.frames + reported.frames {
            for row in canvas.cells {
                for cell in row {
                    XCTAssertFalse(cell.character.unicodeScalars.contains {
                        DisplayText.isControl($0) || DisplayText.isBidiFormatting($0)
                    }, "a control or bidi character reached the screen")
                }
            }
        }
    }

    /// The runtime's warnings (a log file that failed) go to the status line, never over the screen.
    func testANoticeIsShownInTheStatusLine() throws {
        let warning = "Warning: cannot write the log file /dev/full (No space left on device); logging is off, the game goes on"
        let terminal = FakeTerminal(size: TerminalSize(rows: 24, columns: 120), script: [.input(.notice(warning))])
        try runApp(terminal)
        let lines = terminal.lastFrame.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.last.map(String.init)?.trimmingCharacters(in: .whitespaces), warning, terminal.lastFrame)

        // A log file that could not be opened, told at launch: one row under the menu, and the menu still answers.
        let failure = try XCTUnwrap(FileLogHandler.openLog("/proc/none/tictactoe.log").failure)
        let unopened = "Warning: \(FileLogHandler.warning(failure))"  // as the full-screen game posts it
        let menu = FakeTerminal(size: TerminalSize(rows: 24, columns: 120), script: [.input(.notice(unopened)), .keys("p")])
        try runApp(menu)
        let shown = try XCTUnwrap(menu.frames.first { $0.text.contains("Warning: cannot open the log file /proc/none") },
                                  menu.lastFrame).text
        XCTAssertEqual(shown.split(separator: "\n").filter { $0.contains("Warning: cannot") }.count, 1, shown)
        XCTAssertTrue(shown.contains("Play against the computer"), "the menu is intact:\n\(shown)")
        XCTAssertTrue(menu.lastFrame.contains("Score: you 0"), menu.lastFrame)
    }
}
