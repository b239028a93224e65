import GameRules
import GameClient
import TerminalUI
import TerminalWidgets
import XCTest

final class ComputerGameTests: XCTestCase {
    /// Types 1..9, letting the computer answer after each: every cell gets tried, so the game always ends.
    private func playThrough() -> [FakeTerminal.Step] {
        (1...9).flatMap { [FakeTerminal.Step.keys(String($0)), .wait(.milliseconds(500))] }
    }

    func testAFullGameAgainstThePerfectComputerEndsWithoutAWinForUs() throws {
        var settings = UISettings(name: "tester")
        settings.starter = .you
        let terminal = FakeTerminal(script: [.keys("p")] + playThrough())
        let (app, _) = try runApp(terminal, settings: settings)
        guard case .computer(let game) = app.model.screen else { return XCTFail("not in a game") }
        XCTAssertTrue(game.game.isOver)
        XCTAssertEqual(game.wins, 0, "the perfect computer lost")
        XCTAssertEqual(game.losses + game.draws, 1)
        let frame = terminal.lastFrame
        XCTAssertTrue(frame.contains("The computer wins") || frame.contains("Draw"), frame)
        XCTAssertTrue(frame.contains("Score: you 0"), frame)
        XCTAssertTrue(frame.contains("Press r for a rematch"), frame)
    }

    func testRematchKeepsTheScoreAndAlternatesWhoStarts() throws {
        let terminal = FakeTerminal(script: [.keys("p")] + playThrough() + [.keys("r"), .wait(.seconds(1))])
        let (app, _) = try runApp(terminal)  // starter: alternate
        guard case .computer(let game) = app.model.screen else { return XCTFail("not in a game") }
        XCTAssertEqual(game.number, 2)
        XCTAssertEqual(game.humanMark, .o, "the computer starts game 2")
        XCTAssertEqual(game.game.moves.count, 1, "the computer has made its first move")
        XCTAssertEqual(game.wins + game.losses + game.draws, 1)
        XCTAssertTrue(terminal.lastFrame.contains("Game 2"))
    }

    func testCursorKeysAndEnterPlace() throws {
        var settings = UISettings(name: "tester")
        settings.starter = .you
        // Cursor starts in the centre (5): left, up → cell 1; Enter places there.
        let terminal = FakeTerminal(script: [.keys("p"), .key(.left), .key(.up), .key(.enter)])
        let (app, _) = try runApp(terminal, settings: settings)
        guard case .computer(let game) = app.model.screen else { return XCTFail("not in a game") }
        XCTAssertEqual(game.game.moves.first, 0)
        // WASD and hjkl move too: d, s → cell 5 from 1.
        let second = FakeTerminal(script: [.keys("p"), .keys("ad"), .keys("ws"), .keys("hl"), .keys("kj"), .keys(" ")])
        let (app2, _) = try runApp(second, settings: settings)
        guard case .computer(let game2) = app2.model.screen else { return XCTFail("not in a game") }
        XCTAssertEqual(game2.game.moves.first, 4)
    }

    func testMouseClickPlacesOnTheCellUnderIt() throws {
        var settings = UISettings(name: "tester")
        settings.starter = .you
        let layout = BoardLayout(size: TerminalSize(rows: 30, columns: 100), top: 5)
        let target = layout.centre(of: 8)
        let terminal = FakeTerminal(script: [.keys("p"), .key(.click(row: target.row, column: target.column))])
        let (app, _) = try runApp(terminal, settings: settings)
        guard case .computer(let game) = app.model.screen else { return XCTFail("not in a game") }
        XCTAssertEqual(game.game.moves.first, 8)
        XCTAssertNil(layout.cell(atRow: layout.top + 3, column: layout.left), "a separator is no cell")
    }

    func testOccupiedCellsAndComputersTurnIgnoreKeys() throws {
        var settings = UISettings(name: "tester")
        settings.starter = .you
        let terminal = FakeTerminal(script: [.keys("p"), .keys("5"), .keys("6")])  // 6 arrives while the computer thinks
        let (app, _) = try runApp(terminal, settings: settings)
        guard case .computer(let game) = app.model.screen else { return XCTFail("not in a game") }
        XCTAssertEqual(game.game.moves.first, 4)
        XCTAssertFalse(game.game.moves.contains(5), "a move while the computer thinks was taken")
    }

    func testWinningLineIsHighlighted() throws {
        var settings = UISettings(name: "tester")
        settings.starter = .you
        settings.difficulty = .easy
        // Against the random computer, keep trying the top row and the rest until the game ends.
        var script: [FakeTerminal.Step] = [.keys("p")]
        for _ in 0..<30 {
            script += "1235479".map { FakeTerminal.Step.keys(String($0)) } + [.wait(.milliseconds(500))]
            script += [.keys("r"), .wait(.milliseconds(500))]
        }
        let terminal = FakeTerminal(script: script)
        _ = try runApp(terminal, settings: settings)
        let highlighted = terminal.frames.contains { canvas in
            canvas.cells.contains { row in row.contains { $0.style == .winning && ($0.character == "X" || $0.character == "O") } }
        }
        XCTAssertTrue(highlighted, "no frame highlighted a winning line")
    }
}
