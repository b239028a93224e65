import GameClient
import GameProtocol
import GameRules
import TerminalUI
import TerminalWidgets
import Synchronization
import XCTest

/// The replay viewer (`tictactoe replay` on a terminal) and the saving of finished games, at the model level.
final class ReplayViewerTests: XCTestCase {
    private let record = GameRecord(
        number: 2, line: 3, xName: "Ada", oName: "Bo", localMark: .x, cells: [4, 0, 8, 2, 1, 7, 6],
        marks: [.x, .o, .x, .o, .x, .o, .x], result: GameResult(winner: .o, reason: .resignation(.x)))
    private let size = TerminalSize(rows: 24, columns: 80)

    private func model() -> AppModel {
        AppModel(settings: UISettings(name: "tester"), size: size, replay: ReplayViewer(record: record, title: "g.jsonl"))
    }

    private func viewer(_ model: AppModel) throws -> ReplayViewer {
        guard case .replay(let viewer) = model.screen else { throw NotReplaying() }
        return viewer
    }

    func testArrowsStepHomeAndEndJump() throws {
        var model = model()
        XCTAssertEqual(try viewer(model).step, 0)
        XCTAssertEqual(try viewer(model).board, Board())
        _ = model.handle(.key(.right))
        _ = model.handle(.key(.right))
        XCTAssertEqual(try viewer(model).step, 2)
        XCTAssertEqual(try viewer(model).board, Board("O...X...."))
        XCTAssertEqual(try viewer(model).lastCell, 0)
        _ = model.handle(.key(.left))
        XCTAssertEqual(try viewer(model).board, Board("....X...."))
        _ = model.handle(.key(.end))
        XCTAssertEqual(try viewer(model).step, 7)
        XCTAssertTrue(try viewer(model).isAtEnd)
        _ = model.handle(.key(.right))
        XCTAssertEqual(try viewer(model).step, 7, "no further than the last move")
        _ = model.handle(.key(.home))
        XCTAssertEqual(try viewer(model).step, 0)
        _ = model.handle(.key(.left))
        XCTAssertEqual(try viewer(model).step, 0, "no further back than the empty board")
    }

    func testTheScreenShowsTheMoveAndAtTheEndTheResult() throws {
        var model = model()
        var frame = model.render(unicode: true).text
        XCTAssertTrue(frame.contains("X: Ada   O: Bo"), frame)
        XCTAssertTrue(frame.contains("Replay: game 2 · move 0 of 7"), frame)
        XCTAssertTrue(frame.contains("The empty board: → shows move 1 of 7"), frame)
        XCTAssertTrue(frame.contains("Replay of g.jsonl"), frame)
        XCTAssertTrue(frame.contains("q quits"), frame)
        _ = model.handle(.key(.right))
        frame = model.render(unicode: true).text
        XCTAssertTrue(frame.contains("Move 1 of 7: Ada (X) in cell 5"), frame)
        XCTAssertFalse(frame.contains("resigned"), frame)
        _ = model.handle(.key(.end))
        frame = model.render(unicode: true).text
        XCTAssertTrue(frame.contains("Move 7 of 7: Ada (X) in cell 7"), frame)
        XCTAssertTrue(frame.contains("Ada (X) resigned; Bo (O) wins"), frame)
    }

    func testQQuitsAReplayOpenedByTheCommand() throws {
        var model = model()
        XCTAssertEqual(model.handle(.key(.character("q"))), [.quit(status: .success)])
    }

    /// Each game against the computer is handed over to be saved once, when it ends, with its moves and result.
    func testEachFinishedComputerGameIsSavedOnce() throws {
        var settings = UISettings(name: "tester")
        settings.starter = .you
        var model = AppModel(settings: settings, size: size, seed: 3)
        var saved: [GameRecord] = []
        func feed(_ input: AppInput) {
            for effect in model.handle(input) {
                if case .saveGame(let record) = effect { saved.append(record) }
            }
        }
        feed(.key(.character("p")))
        for round in 0..<2 {
            if round == 1 { feed(.key(.character("r"))) }
            for _ in 0..<20 {
                guard case .computer(let game) = model.screen, !game.game.isOver else { break }
                if game.isHumanTurn {
                    let cell = try XCTUnwrap(game.game.board.emptyCells.first)
                    feed(.key(.character(Character(String(cell + 1)))))
                } else {
                    feed(.timer(.computerMove))
                }
            }
            guard case .computer(let game) = model.screen else { return XCTFail("not in a game") }
            XCTAssertTrue(game.game.isOver)
            feed(.key(.character("x")))  // keys after the end save nothing more
            XCTAssertEqual(saved.count, round + 1)
            let record = try XCTUnwrap(saved.last)
            XCTAssertEqual(record.number, round + 1)
            XCTAssertEqual(record.cells, game.game.moves)
            XCTAssertEqual(record.result, game.game.result)
            XCTAssertEqual(record.localMark, game.humanMark)
            XCTAssertEqual(record.name(of: game.humanMark), "tester")
            XCTAssertEqual(record.name(of: game.humanMark.opponent), "perfect computer")
            XCTAssertEqual(record.positions.last, game.game.board)
        }
    }

    func testPastGamesListsTheSavedGamesAndReplaysTheChosenOne() throws {
        var model = AppModel(settings: UISettings(name: "tester"), size: size, seed: 1)
        XCTAssertEqual(model.handle(.key(.character("g"))), [.loadPastGames])
        XCTAssertTrue(model.render(unicode: true).text.contains("Past games"))
        let games = [
            SavedGame(title: "game-20261125-204712-0000042-0002.jsonl", record: record),
            SavedGame(title: "game-20261125-204500-0000042-0001.jsonl", record: nil, problem: "g1: line 3: bad"),
        ]
        _ = model.handle(.pastGames(games))
        var frame = model.render(unicode: true).text
        XCTAssertTrue(frame.contains("game-20261125-204712-0000042-0002  Ada – Bo  O wins"), frame)
        XCTAssertTrue(frame.contains("game-20261125-204500-0000042-0001  (cannot be read)"), frame)
        XCTAssertTrue(frame.contains("Saved games: 2"), frame)
        _ = model.handle(.key(.down))
        _ = model.handle(.key(.enter))
        XCTAssertTrue(model.render(unicode: true).text.contains("g1: line 3: bad"), "the problem is shown")
        _ = model.handle(.key(.up))
        _ = model.handle(.key(.enter))
        XCTAssertEqual(try viewer(model).record, record)
        _ = model.handle(.key(.end))
        frame = model.render(unicode: true).text
        XCTAssertTrue(frame.contains("Ada (X) resigned; Bo (O) wins"), frame)
        XCTAssertTrue(frame.contains("q back"), frame)
        // q goes back to the list (read again), and q again to the menu.
        XCTAssertEqual(model.handle(.key(.character("q"))), [.loadPastGames])
        guard case .pastGames = model.screen else { return XCTFail("not back in Past games") }
        XCTAssertEqual(model.handle(.key(.character("q"))), [])
        guard case .menu(let menu) = model.screen else { return XCTFail("not back in the menu") }
        XCTAssertEqual(menu.selected.title, "Past games")
    }

    func testPastGamesWithNoneSaysSo() {
        var model = AppModel(settings: UISettings(name: "tester"), size: size, seed: 1)
        _ = model.handle(.key(.character("g")))
        _ = model.handle(.pastGames([]))
        XCTAssertTrue(model.render(unicode: true).text.contains("No saved games yet"))
        XCTAssertEqual(model.handle(.key(.enter)), [])
    }

    /// A network game is saved when its game-over arrives, with both names; a save that fails is a warning in the
    /// status line and the game goes on.
    func testANetworkGameIsSavedAndAFailedSaveIsAWarning() throws {
        let saved = Mutex<[GameRecord]>([])
        let board = Board("XXXOO....")!
        let script: [FakeTerminal.Step] = [
            .keys("h"), .key(.enter),
            .network(.report(.connected(peerName: "bob", address: "127.0.0.1:5000", role: .host))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .x, firstMover: .x)))),
            .network(.report(.session(.moved(mark: .x, cell: 0, by: .local)))),
            .network(.report(.session(.moved(mark: .o, cell: 3, by: .peer)))),
            .network(.report(.session(.moved(mark: .x, cell: 1, by: .local)))),
            .network(.report(.session(.moved(mark: .o, cell: 4, by: .peer)))),
            .network(.report(.session(.moved(mark: .x, cell: 2, by: .local)))),
            .network(.report(.session(.gameOver(
                number: 1, result: GameResult(winner: .x, reason: .line([0, 1, 2])), board: board,
                score: MatchSession.Score(localWins: 1))))),
        ]
        let terminal = FakeTerminal(script: script)
        try runApp(terminal, archive: GameArchiveClient(save: { record in
            saved.withLock { $0.append(record) }
            return nil
        }))
        let records = saved.withLock { $0 }
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records.first?.cells, [0, 3, 1, 4, 2])
        XCTAssertEqual(records.first?.result, GameResult(winner: .x, reason: .line([0, 1, 2])))
        XCTAssertEqual(records.first?.xName, "tester")
        XCTAssertEqual(records.first?.oName, "bob")
        XCTAssertEqual(records.first?.score, MatchSession.Score(localWins: 1))

        let failing = FakeTerminal(script: script)
        try runApp(failing, archive: GameArchiveClient(save: { _ in "the disk is full" }))
        XCTAssertTrue(failing.lastFrame.contains("Warning: the disk is full"), failing.lastFrame)
        XCTAssertTrue(failing.lastFrame.contains("bob"), "the game screen stays:\n\(failing.lastFrame)")
    }
}
private struct NotReplaying: Error {}
