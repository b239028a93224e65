import AppCore
import AppFiles
import Foundation
import GameClient
import TerminalUI
import TerminalWidgets
import TicTacToeTestSupport
import XCTest

/// Settings survive a relaunch: an app changes them through the real `settings.json` in a scratch directory, and the
/// next app, given what that file holds as `tictactoe` gives it at launch, shows them (the name, the difficulty, the
/// address history, Colours and Key hints). `privacy grant` and `reset` leave the file alone: SettingsFileTests.
final class SettingsRelaunchTests: XCTestCase {
    /// Runs an app over `script` with the settings stored in `config` (`--name` overriding the name when given), as
    /// `tictactoe` launches one: the store is the file, and a changed setting is written to it at once.
    @discardableResult
    private func launch(_ config: String, name: String? = nil, _ script: [FakeTerminal.Step]) throws -> FakeTerminal {
        let store = SettingsFile(directory: config).client()
        let loaded = store.load()
        XCTAssertNil(loaded.warning)
        var settings = UISettings(stored: loaded.settings, defaultName: "fallback")
        if let name { settings.name = name }
        let terminal = FakeTerminal(script: script)
        let network = FakeNetwork()
        let app = UIApp(terminal: terminal, settings: settings, client: fakeClient(network, FakePrivacy(state: .allowed)),
                        settingsStore: store, seed: 7, clock: { [unowned terminal] in terminal.now })
        terminal.queue = app.queue
        terminal.network = network
        _ = try app.run()
        return terminal
    }

    /// The index of the first frame showing each text, each after the one before.
    private func assertShownInOrder(_ terminal: FakeTerminal, _ texts: [String], file: StaticString = #filePath,
                                    line: UInt = #line) {
        var next = 0
        for text in texts {
            guard let index = terminal.frames.indices.first(where: { $0 >= next && terminal.frames[$0].text.contains(text) })
            else {
                return XCTFail("no frame shows \"\(text)\" after frame \(next):\n\(terminal.lastFrame)", file: file, line: line)
            }
            next = index
        }
    }

    private func storedObject(_ config: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: config + "/settings.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func testTheNameAndDifficultyChangedInSettingsSurviveARelaunch() throws {
        let config = try makeTemporaryDirectory(self)
        let first = try launch(config, name: "solo", [
            .keys("t"),
            .key(.right),  // difficulty: perfect → easy (the levels wrap: easy, medium, perfect)
            .key(.down), .key(.down), .key(.backspace), .key(.backspace), .key(.backspace), .key(.backspace),
            .keys("Zoë 日本"),
            .key(.down),  // leaving the field saves the name
        ])
        assertShownInOrder(first, ["Difficulty     < perfect >", "Difficulty     < easy >", "Your name      Zoë 日本"])
        let object = try storedObject(config)
        XCTAssertEqual(object["version"] as? Int, 1)
        XCTAssertEqual(object["difficulty"] as? String, "easy")
        XCTAssertEqual(object["name"] as? String, "Zoë 日本")

        let second = try launch(config, [.keys("t")])
        XCTAssertTrue(try XCTUnwrap(second.frames.first).text.contains("Playing as Zoë 日本"), second.lastFrame)
        let after = second.lastFrame
        XCTAssertTrue(after.contains("Difficulty     < easy >"), after)
        XCTAssertTrue(after.contains("Your name      Zoë 日本"), after)
        XCTAssertTrue(after.contains("Who starts     < alternate >"), after)
    }

    /// Join by address: the line editor (Ctrl-W, Ctrl-U, Home, End), the inline check, and the history (↑) after a
    /// relaunch; Settings › Colours and Key hints, applied and kept.
    func testTheJoinFieldsHistoryColoursAndKeyHintsSurviveARelaunch() throws {
        let config = try makeTemporaryDirectory(self)
        let first = try launch(config, name: "solo", [
            .keys("a"), .keys("alice"), .keys(" game"),
            .key(.control("w")),  // deletes the word before the cursor
            .key(.control("u")),  // clears the field
            .keys("27.0.0.1:99999"),
            .key(.backspace), .key(.backspace), .key(.backspace), .key(.backspace), .key(.home), .keys("1"), .key(.end),
            .key(.enter),  // loopback: joined at once (nobody answers here), and the address is kept
            .keys("q"),
            .keys("t"), .key(.down), .key(.down), .key(.down),
            .key(.right),  // Colours: on → off
            .key(.down),
            .key(.right),  // Key hints: shown → hidden
        ])
        assertShownInOrder(first, [
            "Address (host:port)", "'alice' looks like a game name, not an address.", " alice _",
            "'99999' is not a port number", "Joins 127.0.0.1:9", "Joining 127.0.0.1:9", "Play against the computer",
            "Colours        < off >", "Key hints      < hidden >",
        ])
        let object = try storedObject(config)
        XCTAssertEqual(object["address_history"] as? [String], ["127.0.0.1:9"])
        XCTAssertEqual(object["colors"] as? Bool, false)
        XCTAssertEqual(object["key_hints"] as? Bool, false)

        let second = try launch(config, [.keys("a"), .key(.up), .key(.escape), .keys("t")])
        let menu = try XCTUnwrap(second.frames.first).text
        XCTAssertTrue(menu.contains("Playing as solo"), menu)
        XCTAssertFalse(menu.contains("Enter or a letter picks"), "key hints hidden:\n\(menu)")
        XCTAssertFalse(second.colors, "colours off: no colour pairs")
        let empty = try XCTUnwrap(second.frames.first { $0.text.contains("Address (host:port)") }).text
        XCTAssertFalse(empty.contains("127.0.0.1"), "the field starts empty:\n\(empty)")
        assertShownInOrder(second, ["Address (host:port)", " 127.0.0.1:9_"])
        let after = second.lastFrame
        XCTAssertTrue(after.contains("Colours        < off >"), after)
        XCTAssertTrue(after.contains("Key hints      < hidden >"), after)
        XCTAssertFalse(after.contains("Esc back"), after)
    }
}
