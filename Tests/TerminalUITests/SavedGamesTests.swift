import AppCore
import AppFiles
import AppManifest
import Foundation
import GameClient
import TerminalUI
import TerminalWidgets
import TicTacToeTestSupport
import XCTest

/// A game against the computer is saved by the real archive (`$XDG_DATA_HOME/tictactoe/games`, here in a scratch
/// directory) when it ends; `tictactoe replay FILE` opens it in the viewer, and after a relaunch Past games lists it
/// and replays it.
final class SavedGamesTests: XCTestCase {
    /// Types 1..9, letting the computer answer after each: every cell gets tried, so the game always ends.
    private let playThrough = (1...9).flatMap { [FakeTerminal.Step.keys(String($0)), .wait(.milliseconds(500))] }

    /// The first frame at or after `start` showing `text`.
    private func frame(_ terminal: FakeTerminal, showing text: String, after start: Int = 0) -> Int? {
        terminal.frames.indices.first { $0 >= start && terminal.frames[$0].text.contains(text) }
    }

    func testAComputerGameIsSavedAndTheViewerStepsThroughIt() throws {
        let data = try makeTemporaryDirectory(self)
        let games = AppDirectories.games(environment: ["HOME": "/nonexistent", "XDG_DATA_HOME": data])
        XCTAssertEqual(games, data + "/tictactoe/games")
        let played = FakeTerminal(script: [.keys("p")] + playThrough)
        let (app, _) = try runApp(played, settings: UISettings(name: "solo"),
                                  archive: .live(GameArchive(directory: games)))
        guard case .computer(let game) = app.model.screen, game.game.isOver else {
            return XCTFail("the game did not end:\n\(played.lastFrame)")
        }
        XCTAssertTrue(played.lastFrame.contains("Press r for a rematch"), played.lastFrame)
        let saved = try FileManager.default.contentsOfDirectory(atPath: games)
        XCTAssertEqual(saved.count, 1, "\(saved)")
        let name = try XCTUnwrap(saved.first)
        XCTAssertTrue(name.hasPrefix("game-") && name.hasSuffix(".jsonl"), name)
        let record = try ReplayReport.load(path: games + "/" + name, game: nil)
        XCTAssertEqual(record.cells, game.game.moves)
        XCTAssertEqual(record.result, game.game.result)
        XCTAssertEqual(record.name(of: game.humanMark), "solo")
        let moves = record.cells.count

        // `tictactoe replay FILE` on a terminal: the viewer; →/←/Home/End change the board shown, q quits with 0.
        let viewer = FakeTerminal(script: [.key(.right), .key(.end), .key(.left), .key(.home), .keys("q")])
        let replay = UIApp(terminal: viewer, settings: UISettings(name: "solo"),
                           client: fakeClient(FakeNetwork(), FakePrivacy()),
                           replay: ReplayViewer(record: record, title: name), seed: 7,
                           clock: { [unowned viewer] in viewer.now })
        viewer.queue = replay.queue
        XCTAssertEqual(try replay.run(), .success)
        let start = try XCTUnwrap(frame(viewer, showing: "· move 0 of \(moves)"), viewer.lastFrame)
        XCTAssertTrue(viewer.frames[start].text.contains("The empty board"), viewer.frames[start].text)
        XCTAssertFalse(viewer.frames[start].text.contains(" X ") || viewer.frames[start].text.contains(" O "))
        let first = try XCTUnwrap(frame(viewer, showing: "· move 1 of \(moves)", after: start), viewer.lastFrame)
        XCTAssertTrue(viewer.frames[first].text.contains("Move 1 of \(moves): "), viewer.frames[first].text)
        XCTAssertTrue(viewer.frames[first].text.contains("in cell \(record.cells[0] + 1)"), viewer.frames[first].text)
        let end = try XCTUnwrap(frame(viewer, showing: "· move \(moves) of \(moves)", after: first), viewer.lastFrame)
        let result = ["wins: a line", "Draw: the board is full"]
        XCTAssertTrue(result.contains { viewer.frames[end].text.contains($0) }, viewer.frames[end].text)
        let back = try XCTUnwrap(frame(viewer, showing: "· move \(moves - 1) of \(moves)", after: end), viewer.lastFrame)
        XCTAssertFalse(result.contains { viewer.frames[back].text.contains($0) }, viewer.frames[back].text)
        XCTAssertNotNil(frame(viewer, showing: "· move 0 of \(moves)", after: back), viewer.lastFrame)

        // After a relaunch, from the menu: Past games lists it; Enter replays it; q goes back to the list.
        let past = FakeTerminal(script: [.keys("g"), .key(.enter), .key(.end), .keys("q")])
        try runApp(past, settings: UISettings(name: "solo"), archive: .live(GameArchive(directory: games)))
        let list = try XCTUnwrap(frame(past, showing: "Saved games: 1"), past.lastFrame)
        XCTAssertTrue(past.frames[list].text.contains(name.replacingOccurrences(of: ".jsonl", with: "")),
                      past.frames[list].text)
        let opened = try XCTUnwrap(frame(past, showing: "· move 0 of \(moves)", after: list), past.lastFrame)
        XCTAssertNotNil(frame(past, showing: "· move \(moves) of \(moves)", after: opened), past.lastFrame)
        XCTAssertTrue(past.lastFrame.contains("Saved games: 1"), past.lastFrame)
    }
}
