import GameClient
import GameRules
import Synchronization
import TerminalUI
import TerminalWidgets
import XCTest

/// Play against an engine, at the model: the form, the effects that start and ask the engine, its answers and its
/// failures as inputs; and through the app, with an engine that answers at once in place of the process (the real
/// engine processes: EnginePlayerTests, in the end-to-end tests).
final class EngineGameTests: XCTestCase {
    private let command = "sh Assets/engines/first-free.sh"

    private func model(starter: UISettings.Starter = .computer, engine: String? = nil) -> AppModel {
        var settings = UISettings(name: "tester")
        settings.starter = starter
        settings.engineCommand = engine
        return AppModel(settings: settings, size: TerminalSize(rows: 30, columns: 100), seed: 3)
    }

    private func type(_ text: String, into model: inout AppModel) {
        for character in text { _ = model.handle(.key(.character(character))) }
    }

    private func text(_ model: AppModel) -> String { model.render(unicode: true).text }

    private func game(_ model: AppModel, file: StaticString = #filePath, line: UInt = #line) -> ComputerGame? {
        guard case .computer(let game) = model.screen else {
            XCTFail("not in a game: \(model.screen)", file: file, line: line)
            return nil
        }
        return game
    }

    /// The menu's e, the command typed, Enter.
    private func started(_ model: inout AppModel) -> [AppEffect] {
        _ = model.handle(.key(.character("e")))
        guard case .form(let form) = model.screen else {
            XCTFail("no form: \(model.screen)")
            return []
        }
        XCTAssertEqual(form.kind, .engine)
        XCTAssertTrue(text(model).contains("Engine command"), text(model))
        type(command, into: &model)
        return model.handle(.key(.enter))
    }

    func testTheFormStartsTheEngineRemembersTheCommandAndAsksForTheFirstMove() throws {
        var model = model()
        let effects = started(&model)
        var saved = UISettings(name: "tester")
        saved.starter = .computer
        saved.engineCommand = command
        XCTAssertEqual(
            effects, [.saveSettings(saved), .startEngine(command: command), .engineMove(game: 1, Game())],
            "the engine plays X and moves first")
        let game = try XCTUnwrap(game(model))
        XCTAssertEqual(game.engineCommand, command)
        XCTAssertTrue(game.engineThinking)
        XCTAssertTrue(text(model).contains("The computer is thinking"), text(model))
    }

    func testTheLastCommandIsOfferedAgain() {
        var model = model(engine: "python3 bot.py")
        _ = model.handle(.key(.character("e")))
        guard case .form(let form) = model.screen else { return XCTFail("no form") }
        XCTAssertEqual(form.second, "python3 bot.py")
    }

    func testACommandThatCannotBeRunIsRefusedOnTheForm() {
        var model = model()
        _ = model.handle(.key(.character("e")))
        type("sh bot.sh | tee log", into: &model)
        XCTAssertEqual(model.handle(.key(.enter)), [])
        guard case .form(let form) = model.screen else { return XCTFail("left the form: \(model.screen)") }
        XCTAssertTrue(form.error?.hasPrefix("The engine command cannot be run: ") ?? false, form.error ?? "")
    }

    func testTheEnginesMovesArePlayedAndTheUIStaysResponsiveWhileItThinks() throws {
        var model = model()
        _ = started(&model)
        _ = model.handle(.engine(.started(name: "first-free", log: "/tmp/first-free.log")))
        XCTAssertTrue(text(model).contains("first-free"), text(model))
        // Keys while it thinks: the cursor moves, nothing is placed, nothing waits.
        XCTAssertEqual(model.handle(.key(.right)), [])
        XCTAssertEqual(try XCTUnwrap(game(model)).cursor, 5)
        XCTAssertEqual(model.handle(.key(.character("9"))), [], "not our turn yet")
        XCTAssertEqual(try XCTUnwrap(game(model)).game.moves, [])

        XCTAssertEqual(model.handle(.engine(.moved(game: 1, cell: 0))), [])
        XCTAssertEqual(try XCTUnwrap(game(model)).game.moves, [0])
        // Our move asks the engine again, with the position.
        let effects = model.handle(.key(.character("5")))
        var position = Game()
        _ = try position.play(0, by: .x)
        _ = try position.play(4, by: .o)
        XCTAssertEqual(effects, [.engineMove(game: 1, position)])
        // A move for another game, or a second answer, changes nothing.
        _ = model.handle(.engine(.moved(game: 0, cell: 8)))
        XCTAssertEqual(try XCTUnwrap(game(model)).game.moves, [0, 4])
        _ = model.handle(.engine(.moved(game: 1, cell: 1)))
        _ = model.handle(.engine(.moved(game: 1, cell: 2)))
        XCTAssertEqual(try XCTUnwrap(game(model)).game.moves, [0, 4, 1], "one answer per request")
    }

    func testAFailingEngineLosesTheGameAndTheScreenSaysWhyAndWhereItsLogIs() throws {
        var model = model()
        _ = started(&model)
        _ = model.handle(.engine(.started(name: "sleepy", log: "/tmp/sleepy-1-1.log")))
        let effects = model.handle(.engine(.failed(
            game: 1, engine: "sleepy", reason: "did not answer genmove within 60.000 s", log: "/tmp/sleepy-1-1.log")))
        let game = try XCTUnwrap(game(model))
        XCTAssertTrue(game.game.isOver)
        XCTAssertEqual(game.wins, 1, "the engine forfeited: we win")
        // Saved as played: by the engine, by name, and lost by forfeit (not a resignation).
        let saved = effects.compactMap { effect -> GameRecord? in
            if case .saveGame(let record) = effect { return record } else { return nil }
        }
        XCTAssertEqual(saved.map(\.xName), ["sleepy"], "the engine played X")
        XCTAssertEqual(saved.map(\.oName), ["tester"])
        XCTAssertEqual(saved.first?.result, GameResult(winner: .o, reason: .forfeit(.x)))
        let screen = flattened(text(model))
        XCTAssertTrue(
            screen.contains("Engine 'sleepy' did not answer genmove within 60.000 s; it loses the game (stderr:"),
            screen)
        XCTAssertTrue(screen.contains("/tmp/sleepy-1-1.log"), screen)
        // A rematch asks again (the runtime starts a fresh process for it); the failure is no longer shown.
        XCTAssertEqual(model.handle(.key(.character("r"))), [.engineMove(game: 2, Game())])
        XCTAssertNil(try XCTUnwrap(self.game(model)).engineFailure)
    }

    func testLeavingStopsTheEngine() {
        var model = model()
        _ = started(&model)
        XCTAssertEqual(model.handle(.key(.character("q"))), [.stopEngine])
        guard case .menu(let menu) = model.screen else { return XCTFail("\(model.screen)") }
        XCTAssertEqual(menu.selected.shortcut, "e")
        XCTAssertEqual(model.handle(.engine(.moved(game: 1, cell: 0))), [], "a late answer on the menu: nothing")
    }

    /// An app whose engine is `answer`: each request for a move gets `answer`'s event for that game and position, at
    /// once (a `.wait` step after a key lets the app read it before the next key).
    private func runWithEngine(_ script: [FakeTerminal.Step], name: String,
                               answer: @escaping @Sendable (Int, Game) -> EngineEvent) throws -> (FakeTerminal, [String]) {
        let commands = Mutex<[String]>([])
        var client = fakeClient(FakeNetwork(), FakePrivacy(state: .allowed))
        client.engine = { command, events in
            commands.withLock { $0.append(command) }
            events(.started(name: name, log: "/tmp/\(name)-1-1.log"))
            return EngineHandle(move: { game, position in events(answer(game, position)) }, stop: {})
        }
        let terminal = FakeTerminal(script: [.keys("e"), .keys(command), .key(.enter)] + script)
        let app = UIApp(terminal: terminal, settings: UISettings(name: "solo"), client: client, seed: 7,
                        clock: { [unowned terminal] in terminal.now })
        terminal.queue = app.queue
        _ = try app.run()
        return (terminal, commands.withLock { $0 })
    }

    /// We are X and start; an engine that takes the first free cell answers 5 with 1 and 4 with 2, and 6 wins.
    func testAGameAgainstAnEngineThatTakesTheFirstFreeCell() throws {
        let (terminal, commands) = try runWithEngine([.keys("5"), .wait(.seconds(0)), .keys("4"), .wait(.seconds(0)), .keys("6"), .keys("r"), .keys("q")],
                                                     name: "first-free") { game, position in
            .moved(game: game, cell: position.board.emptyCells.first ?? 0)
        }
        XCTAssertEqual(commands, [command], "one engine, started with the command typed")
        let over = try XCTUnwrap(terminal.frames.first { $0.text.contains("You win!") }, terminal.lastFrame).text
        XCTAssertTrue(over.contains("first-free"), "the engine's name:\n\(over)")
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("Game 2") }, "r: a rematch")
        XCTAssertTrue(terminal.lastFrame.contains("Play against an engine"), "q: back to the menu\n\(terminal.lastFrame)")
    }

    func testAnEngineThatCrashesLosesTheGameAndTheScreenNamesItsLog() throws {
        let (terminal, _) = try runWithEngine([.keys("5"), .wait(.seconds(0)), .keys("q")], name: "crash") { game, _ in
            .failed(game: game, engine: "crash", reason: "ended unexpectedly (exited with status 3)",
                    log: "/tmp/crash-1-1.log")
        }
        let screen = try XCTUnwrap(terminal.frames.last { flattened($0.text).contains("it loses the game") },
                                   terminal.lastFrame).text
        let words = flattened(screen)
        XCTAssertTrue(words.contains("Engine 'crash' ended unexpectedly (exited with status 3)"), screen)
        XCTAssertTrue(words.contains("/tmp/crash-1-1.log"), screen)
        XCTAssertTrue(words.contains("You win!"), screen)
        // The UI is still there and answers.
        XCTAssertTrue(terminal.lastFrame.contains("Play against an engine"), terminal.lastFrame)
    }

    func testABuiltInComputerStillUsesItsPause() {
        var model = model()
        XCTAssertEqual(model.handle(.key(.character("p"))), [.schedule(.computerMove, after: .milliseconds(350))])
    }
}
