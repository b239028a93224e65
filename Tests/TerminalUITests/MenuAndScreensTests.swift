import GameClient
import TerminalUI
import TerminalWidgets
import XCTest

final class MenuAndScreensTests: XCTestCase {
    func testMenuShowsEveryEntryAndLaunchTouchesNoNetwork() throws {
        let terminal = FakeTerminal(script: [])
        let network = FakeNetwork()
        try runApp(terminal, network: network)
        let frame = terminal.lastFrame
        let entries = [
            "Play against the computer", "Host a game", "Host a private game", "Search for games", "Join by address",
            "Play against an engine", "Settings", "Quit",
        ]
        for entry in entries {
            XCTAssertTrue(frame.contains(entry), "menu lacks \(entry):\n\(frame)")
        }
        XCTAssertTrue(terminal.started && terminal.stopped)
        XCTAssertTrue(network.hosted.isEmpty && network.joined.isEmpty && network.browses == 0)
    }

    func testArrowsAndJKMoveTheSelectionAndEnterOpens() throws {
        let terminal = FakeTerminal(script: [
            .key(.down), .keys("j"), .keys("k"), .key(.down), .key(.down), .key(.down), .key(.enter),
        ])
        let (app, _) = try runApp(terminal)
        // down, j, k, down, down, down: entry 4 (Join by address).
        guard case .form(let form) = app.model.screen else { return XCTFail("expected the join form: \(app.model.screen)") }
        XCTAssertEqual(form.kind, .join)
        XCTAssertTrue(terminal.lastFrame.contains("Join by address"))
        XCTAssertTrue(terminal.lastFrame.contains("Address (host:port)"))
    }

    func testSelectionIsHighlighted() throws {
        let terminal = FakeTerminal(script: [.key(.down)])
        try runApp(terminal)
        let canvas = try XCTUnwrap(terminal.frames.last)
        let row = try XCTUnwrap(canvas.text.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("Host a game") })
        XCTAssertTrue(canvas.cells[row].contains { $0.style == .selected })
        let playRow = row - 1
        XCTAssertFalse(canvas.cells[playRow].contains { $0.style == .selected })
    }

    func testShortcutsOpenScreensAndEscapeGoesBack() throws {
        let terminal = FakeTerminal(script: [.keys("t"), .key(.escape), .keys("s"), .key(.escape), .keys("h")])
        let (app, _) = try runApp(terminal)
        let texts = terminal.frames.map(\.text)
        XCTAssertTrue(texts.contains { $0.contains("Difficulty") && $0.contains("Who starts") })
        XCTAssertTrue(texts.contains { $0.contains("Looking for games on the local network") })
        guard case .form(let form) = app.model.screen else { return XCTFail("expected the host form") }
        XCTAssertEqual(form.kind, .host)
        XCTAssertTrue(terminal.lastFrame.contains("Port"))
    }

    func testEscapeGoesBackToTheMenuWithTheEntryThatLedThereChosen() {
        for item in MenuItem.allCases where item != .quit {
            var model = AppModel(settings: UISettings(name: "ann"), size: TerminalSize(rows: 24, columns: 80), seed: 1)
            _ = model.handle(.key(.character(item.shortcut)))
            if case .menu = model.screen { XCTFail("\(item.shortcut) opened nothing") }
            _ = model.handle(.key(.escape))
            guard case .menu(let menu) = model.screen else { XCTFail("Esc did not go back from \(item)"); continue }
            XCTAssertEqual(menu.selected, item)
        }
    }

    func testQuitFromTheMenu() throws {
        let terminal = FakeTerminal(script: [.keys("q"), .keys("p")])
        let (app, status) = try runApp(terminal)
        XCTAssertEqual(status, .success)
        // The "p" after quitting was never read: the app had ended.
        guard case .menu = app.model.screen else { return XCTFail("the app went on after q") }
    }

    func testHelpOverlayOpensAndCloses() throws {
        let terminal = FakeTerminal(script: [.keys("?")])
        try runApp(terminal)
        XCTAssertTrue(terminal.lastFrame.contains("Press any key to close"))
        XCTAssertTrue(terminal.lastFrame.contains("1-9 place directly"))
        XCTAssertTrue(terminal.lastFrame.contains("Replay    ←/→ step, Home/End first/last move"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Watching  q stops watching (the host is told)"), terminal.lastFrame)
        let closed = FakeTerminal(script: [.keys("?"), .keys("x")])
        try runApp(closed)
        XCTAssertFalse(closed.lastFrame.contains("Press any key to close"))
    }

    func testResizeToTooSmallAndBack() throws {
        let terminal = FakeTerminal(script: [
            .keys("p"), .resize(TerminalSize(rows: 10, columns: 30)), .keys("5"),
            .resize(TerminalSize(rows: 30, columns: 100)),
        ])
        let (app, _) = try runApp(terminal)
        let small = terminal.frames.map(\.text).first { $0.contains("make the window at least 44x20") }
        XCTAssertNotNil(small, "no too-small message")
        XCTAssertTrue(small?.contains("now 30x10") ?? false)
        // The 5 typed while too small did nothing; after growing, the board is back.
        guard case .computer(let game) = app.model.screen else { return XCTFail("left the game") }
        XCTAssertEqual(game.game.moves, [])
        XCTAssertTrue(terminal.lastFrame.contains("Your turn"))
        XCTAssertEqual(terminal.frames.last?.size, TerminalSize(rows: 30, columns: 100))
    }

    func testSettingsChangeDifficultyStarterAndName() throws {
        let terminal = FakeTerminal(script: [
            .keys("t"), .key(.right), .key(.down), .key(.right), .key(.down),
            .key(.backspace), .key(.backspace), .keys("X!"), .key(.escape),
        ])
        let (app, _) = try runApp(terminal, settings: UISettings(name: "bob"))
        XCTAssertEqual(app.model.settings.difficulty, .easy)
        XCTAssertEqual(app.model.settings.starter, .you)  // alternate → you (wraps)
        XCTAssertEqual(app.model.settings.name, "bX!")
    }

    func testASCIIWhenNotUTF8() throws {
        let terminal = FakeTerminal(unicode: false, script: [.keys("p")])
        try runApp(terminal)
        XCTAssertTrue(terminal.lastFrame.contains("-------+-------+-------"), terminal.lastFrame)
        XCTAssertFalse(terminal.lastFrame.contains("┼"))
        let unicode = FakeTerminal(unicode: true, script: [.keys("p")])
        try runApp(unicode)
        XCTAssertTrue(unicode.lastFrame.contains("───────┼───────┼───────"), unicode.lastFrame)
    }

    func testColoursFollowTheFlag() throws {
        let terminal = FakeTerminal(script: [])
        try runApp(terminal, colors: false)
        XCTAssertFalse(terminal.colors)
        let coloured = FakeTerminal(script: [])
        try runApp(coloured, colors: true)
        XCTAssertTrue(coloured.colors)
    }
}
