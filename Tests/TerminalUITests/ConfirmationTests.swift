import GameClient
import GameProtocol
import GameRules
import TerminalUI
import TerminalWidgets
import XCTest

/// Leaving a match, resigning and quitting ask first: `y` confirms, any other key cancels and does nothing else;
/// Ctrl-C never asks.
final class ConfirmationTests: XCTestCase {
    /// Hosts, a peer joins and game 1 starts with us (X) to move.
    private func inAMatch(_ tail: [FakeTerminal.Step]) -> [FakeTerminal.Step] {
        [
            .keys("h"), .key(.enter),
            .network(.report(.connected(peerName: "bob", address: "127.0.0.1:5000", role: .host))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .x, firstMover: .x)))),
        ] + tail
    }

    private func menuTitle(_ app: UIApp) -> String? {
        guard case .menu(let menu) = app.model.screen else { return nil }
        return menu.selected.title
    }

    func testQInAMatchAsksAndYLeaves() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: inAMatch([.keys("q")]))
        try runApp(terminal, network: network)
        XCTAssertEqual(network.handles.first?.sent, [], "q left without asking")
        let words = terminal.lastFrameWords
        XCTAssertTrue(words.contains("Leave the match?"), terminal.lastFrame)
        XCTAssertTrue(words.contains("You forfeit the game in progress and the match ends."), terminal.lastFrame)
        XCTAssertTrue(words.contains("Press y to leave, any other key to stay."), terminal.lastFrame)

        let confirmed = FakeNetwork()
        let leaving = FakeTerminal(script: inAMatch([.keys("q"), .keys("y")]))
        let (app, _) = try runApp(leaving, network: confirmed)
        XCTAssertEqual(confirmed.handles.first?.sent, [LocalCommandRecord(.leave(.quit))])
        XCTAssertTrue(confirmed.handles.first?.cancelled ?? false)
        XCTAssertEqual(menuTitle(app), "Host a game")
        XCTAssertNil(app.model.confirmation)
        XCTAssertFalse(leaving.lastFrameWords.contains("Leave the match?"), leaving.lastFrame)
    }

    func testAnyOtherKeyCancelsTheLeaveAndIsNotActedOn() throws {
        let network = FakeNetwork()
        // "5" would place a mark; as the answer to the question it only cancels. Then the game goes on.
        let terminal = FakeTerminal(script: inAMatch([.keys("q"), .keys("5"), .keys("1")]))
        let (app, _) = try runApp(terminal, network: network)
        XCTAssertEqual(network.handles.first?.sent, [LocalCommandRecord(.move(0))])
        XCTAssertFalse(network.handles.first?.cancelled ?? true)
        guard case .network(let game) = app.model.screen else { return XCTFail("left the game: \(app.model.screen)") }
        XCTAssertEqual(game.phase, .playing)
        XCTAssertNil(app.model.confirmation)
        XCTAssertFalse(terminal.lastFrameWords.contains("Leave the match?"), terminal.lastFrame)
    }

    func testEscapeInAMatchAsksTheSameAndEscapeCancels() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: inAMatch([.key(.escape)]))
        try runApp(terminal, network: network)
        XCTAssertTrue(terminal.lastFrameWords.contains("Leave the match?"), terminal.lastFrame)

        // Esc Esc no longer leaves and quits: the second Esc only cancels the question.
        let twice = FakeTerminal(script: inAMatch([.key(.escape), .key(.escape)]))
        let (app, status) = try runApp(twice, network: network)
        XCTAssertEqual(status, .success)
        guard case .network = app.model.screen else { return XCTFail("Esc Esc left: \(app.model.screen)") }
        XCTAssertNil(app.model.quitting)
    }

    func testEscapeChainsBackOneScreenAtATimeAndAsksBeforeQuitting() throws {
        let network = FakeNetwork()
        // Esc (leave?) y → the menu; Esc → "Quit TicTacToe?"; n stays; Esc y quits.
        let terminal = FakeTerminal(script: inAMatch([
            .key(.escape), .keys("y"), .key(.escape), .keys("n"), .key(.escape), .keys("y"), .keys("p"),
        ]))
        let (app, status) = try runApp(terminal, network: network)
        XCTAssertEqual(status, .success)
        XCTAssertEqual(network.handles.first?.sent, [LocalCommandRecord(.leave(.quit))])
        XCTAssertNotNil(app.model.quitting, "Esc y at the menu did not quit")
        XCTAssertEqual(menuTitle(app), "Host a game", "the p after quitting was read")
        let texts = terminal.frames.map { flattened($0.text) }
        XCTAssertTrue(texts.contains { $0.contains("Quit TicTacToe?") && $0.contains("Press y to quit, any other key to stay.") })
    }

    func testEscapeAtTheMenuAsksAndAnyOtherKeyStays() throws {
        let terminal = FakeTerminal(script: [.key(.escape), .keys("p")])
        let (app, _) = try runApp(terminal)
        XCTAssertNil(app.model.quitting, "Esc quit without asking")
        // The p only cancelled the question: the menu is still there, no game started.
        XCTAssertEqual(menuTitle(app), "Play against the computer")
        XCTAssertTrue(terminal.frames.map { flattened($0.text) }.contains { $0.contains("Quit TicTacToe?") })
        XCTAssertFalse(terminal.lastFrameWords.contains("Quit TicTacToe?"), terminal.lastFrame)
    }

    func testResignAsksAndYResigns() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: inAMatch([.keys("R")]))
        try runApp(terminal, network: network)
        XCTAssertEqual(network.handles.first?.sent, [], "R resigned without asking")
        XCTAssertTrue(terminal.lastFrameWords.contains("Resign this game?"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrameWords.contains("Press y to resign, any other key to play on."), terminal.lastFrame)

        let confirmed = FakeNetwork()
        let resigning = FakeTerminal(script: inAMatch([.keys("R"), .keys("Y")]))
        try runApp(resigning, network: confirmed)
        XCTAssertEqual(confirmed.handles.first?.sent, [LocalCommandRecord(.resign)])
    }

    func testCancelledResignSendsNothingAndTheGameGoesOn() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: inAMatch([.keys("R"), .key(.enter), .keys("9")]))
        let (app, _) = try runApp(terminal, network: network)
        // Enter cancelled (it would have placed at the cursor); 9 then placed.
        XCTAssertEqual(network.handles.first?.sent, [LocalCommandRecord(.move(8))])
        guard case .network(let game) = app.model.screen else { return XCTFail("left the game") }
        XCTAssertEqual(game.phase, .playing)
    }

    func testAQuestionAboutAGameThatEndedMeanwhileIsDropped() throws {
        let network = FakeNetwork()
        let board = Board("XXXOO....")!
        let terminal = FakeTerminal(script: inAMatch([
            .keys("R"),
            .network(.report(.session(.gameOver(number: 1, result: GameResult(winner: .x, reason: .line([0, 1, 2])),
                                                  board: board, score: .init(localWins: 1))))),
            .keys("y"),
        ]))
        let (app, _) = try runApp(terminal, network: network)
        XCTAssertEqual(network.handles.first?.sent, [], "a resign was sent after the game ended")
        XCTAssertNil(app.model.confirmation)
        XCTAssertFalse(terminal.lastFrameWords.contains("Resign this game?"), terminal.lastFrame)

        let peerLeft = FakeTerminal(script: inAMatch([
            .keys("q"),
            .network(.report(.session(.matchOver(.peerLeft(nil), score: .init(localWins: 1))))),
        ]))
        let (leftApp, _) = try runApp(peerLeft)
        XCTAssertNil(leftApp.model.confirmation, "the leave question outlived the match")
        XCTAssertTrue(peerLeft.lastFrame.contains("left before the match was over."), peerLeft.lastFrame)
    }

    func testBetweenGamesLeavingAsksWithoutAForfeit() throws {
        let network = FakeNetwork()
        let board = Board("XXXOO....")!
        let terminal = FakeTerminal(script: inAMatch([
            .network(.report(.session(.gameOver(number: 1, result: GameResult(winner: .x, reason: .line([0, 1, 2])),
                                                  board: board, score: .init(localWins: 1))))),
            .keys("q"),
        ]))
        try runApp(terminal, network: network)
        let words = terminal.lastFrameWords
        XCTAssertTrue(words.contains("Leave the match? The match ends."), terminal.lastFrame)
        XCTAssertFalse(words.contains("forfeit"), terminal.lastFrame)
        XCTAssertEqual(network.handles.first?.sent, [])
    }

    func testBeforeAPeerJoinsQLeavesAtOnce() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("h"), .key(.enter),
            .network(.report(.listening(host: "0.0.0.0", port: 7878, name: "tester"))),
            .keys("q"),
        ])
        let (app, _) = try runApp(terminal, network: network)
        XCTAssertEqual(menuTitle(app), "Host a game")
        XCTAssertTrue(network.handles.first?.cancelled ?? false)
        XCTAssertEqual(network.handles.first?.sent, [])
    }

    /// A stop's exit status is the one mapping's (`ExitStatus(stoppedBy:)`): 143 for SIGTERM or SIGHUP, 130 for Ctrl-C.
    func testAStopAtTheMenuQuitsWithItsStatus() {
        for (reason, status) in [(ByeReason.shutdown, ExitStatus.terminated), (.quit, .interrupted)] {
            var model = AppModel(settings: UISettings(name: "tester"), size: TerminalSize(rows: 30, columns: 100), seed: 1)
            XCTAssertEqual(model.handle(.signal(reason)), [.quit(status: status)], "\(reason)")
            XCTAssertEqual(model.quitting?.rawValue, status.rawValue)
        }
    }

    func testCtrlCDuringAQuestionQuitsAtOnceAndTellsThePeer() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: inAMatch([.keys("q"), .input(.signal(.quit))]))
        let (_, status) = try runApp(terminal, network: network)
        XCTAssertEqual(status, .interrupted)
        XCTAssertEqual(network.handles.first?.sent, [LocalCommandRecord(.leave(.quit))])
        XCTAssertTrue(terminal.stopped)
    }

    func testAComputerGameLeavesWithoutAsking() throws {
        let terminal = FakeTerminal(script: [.keys("p"), .keys("q")])
        let (app, _) = try runApp(terminal)
        XCTAssertEqual(menuTitle(app), "Play against the computer")
        XCTAssertNil(app.model.confirmation)
    }

    func testATooSmallWindowAsksBeforeQuittingAMatch() throws {
        let network = FakeNetwork()
        let small = TerminalSize(rows: 12, columns: 40)
        let terminal = FakeTerminal(script: inAMatch([.resize(small), .keys("q")]))
        let (app, _) = try runApp(terminal, network: network)
        XCTAssertNil(app.model.quitting)
        XCTAssertTrue(terminal.lastFrame.contains("Quit TicTacToe?"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Press y to quit"), terminal.lastFrame)

        let quitting = FakeTerminal(script: inAMatch([.resize(small), .keys("q"), .keys("y")]))
        let quitNetwork = FakeNetwork()
        let (_, status) = try runApp(quitting, network: quitNetwork)
        XCTAssertEqual(status, .success)
        XCTAssertEqual(quitNetwork.handles.first?.sent, [LocalCommandRecord(.leave(.quit))])
    }

    func testTheQuestionIsDrawnInPlainASCIIToo() throws {
        let terminal = FakeTerminal(unicode: false, script: inAMatch([.keys("R")]))
        try runApp(terminal)
        XCTAssertTrue(terminal.lastFrame.contains("+---"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrameWords.contains("Resign this game?"), terminal.lastFrame)
    }
}
