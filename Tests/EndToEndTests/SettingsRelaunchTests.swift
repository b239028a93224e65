import Foundation
import TicTacToeTestSupport
import XCTest

/// Settings survive a relaunch (settings.json in TICTACTOE_CONFIG_DIR), and `privacy reset` leaves them alone.
final class SettingsRelaunchTests: XCTestCase {
    private func settingsScreen(_ tmux: Tmux, _ pane: String) throws -> String {
        XCTAssertNotNil(tmux.waitFor(pane, text: "Play against the computer"), tmux.screen(pane))
        try tmux.keys(pane, "t")
        return try XCTUnwrap(tmux.waitFor(pane, text: "Difficulty"), tmux.screen(pane))
    }

    func testTheNameAndDifficultyChangedInSettingsSurviveARelaunch() throws {
        let config = freshConfigDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: config) }
        let tmux = try Tmux()
        try tmux.start("first", tuiCommand("--name solo", configDirectory: config))
        let before = try settingsScreen(tmux, "first")
        XCTAssertTrue(before.contains("< perfect >"), before)
        try tmux.keys("first", "Right")  // difficulty: perfect → easy (the levels wrap: easy, medium, perfect)
        XCTAssertNotNil(tmux.waitFor("first", text: "< easy >"), tmux.screen("first"))
        try tmux.keys("first", "Down", "Down", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.literal("first", "Zoë 日本")
        try tmux.keys("first", "Down")  // leaving the field saves the name
        XCTAssertNotNil(tmux.waitFor("first", text: "Your name      Zoë 日本"), tmux.screen("first"))
        let path = config + "/settings.json"
        XCTAssertTrue(eventually { (try? String(contentsOfFile: path, encoding: .utf8))?.contains("Zoë 日本") == true },
                      "settings.json was not written")
        // Ctrl-C: the immediate way out; the settings were saved when they changed.
        try tmux.keys("first", "C-c")
        XCTAssertTrue(eventually { !((try? tmux.run(["list-sessions"])) ?? "").contains("first:") }, tmux.screen("first"))

        try tmux.start("second", tuiCommand("", configDirectory: config))
        let menu = try XCTUnwrap(tmux.waitFor("second", text: "Playing as"), tmux.screen("second"))
        XCTAssertTrue(menu.contains("Playing as Zoë 日本"), menu)
        let after = try settingsScreen(tmux, "second")
        XCTAssertTrue(after.contains("Difficulty     < easy >"), after)
        XCTAssertTrue(after.contains("Your name      Zoë 日本"), after)
        XCTAssertTrue(after.contains("Who starts     < alternate >"), after)
        print("Settings after a relaunch:\n\(after)")

        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: saved) as? [String: Any])
        XCTAssertEqual(object["version"] as? Int, 1)
        XCTAssertEqual(object["difficulty"] as? String, "easy")
        XCTAssertEqual(object["name"] as? String, "Zoë 日本")
        for command in ["grant", "reset"] {
            let run = try TicTacToeProcess(["privacy", command], environment: ["TICTACTOE_CONFIG_DIR": config])
            XCTAssertEqual(run.waitForExit(), 0, "privacy \(command)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), saved, "privacy \(command) touched it")
        }
        try tmux.keys("second", "C-c")
    }

    /// The colour parameters (30-49, 90-107, but not 39 and 49: the terminal's default colours) of the SGR
    /// sequences in a `capture-pane -e` screen.
    private func colourParameters(_ screen: String) -> [Int] {
        var found: [Int] = []
        var rest = Substring(screen)
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(where: { !($0.isNumber || $0 == ";") }) else { break }
            if rest[end] == "m" {
                found += rest[..<end].split(separator: ";").compactMap { Int($0) }
                    .filter { ((30...49).contains($0) || (90...107).contains($0)) && $0 != 39 && $0 != 49 }
            }
            rest = rest[end...]
        }
        return found
    }

    private func styledScreen(_ tmux: Tmux, _ pane: String) throws -> String {
        try tmux.run(["capture-pane", "-p", "-e", "-t", pane])
    }

    /// Join by address: the line editor (Ctrl-U), the inline check, and the history (↑) after a relaunch; Settings ›
    /// Colours and Key hints, applied and kept.
    func testTheJoinFieldsHistoryColoursAndKeyHintsSurviveARelaunch() throws {
        let config = freshConfigDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: config) }
        let tmux = try Tmux()
        // Without NO_COLOR (swift test sets it): the Colours setting alone turns them off.
        try tmux.start("first", "env -u NO_COLOR " + tuiCommand("--name solo", configDirectory: config))
        XCTAssertNotNil(tmux.waitFor("first", text: "Play against the computer"), tmux.screen("first"))
        let coloured = try styledScreen(tmux, "first")
        XCTAssertFalse(colourParameters(coloured).isEmpty, "colours are on at first: \(coloured.debugDescription)")
        try tmux.keys("first", "a")
        XCTAssertNotNil(tmux.waitFor("first", text: "Address (host:port)"), tmux.screen("first"))
        try tmux.literal("first", "alice")
        XCTAssertNotNil(tmux.waitFor("first", text: "'alice' looks like a game name, not an address."),
                        tmux.screen("first"))
        try tmux.literal("first", " game")
        try tmux.keys("first", "C-w")  // deletes the word before the cursor
        XCTAssertNotNil(tmux.waitFor("first", text: " alice _"), tmux.screen("first"))
        try tmux.keys("first", "C-u")  // clears the field
        XCTAssertNotNil(tmux.waitFor("first") { !$0.contains("alice") }, tmux.screen("first"))
        try tmux.literal("first", "27.0.0.1:99999")
        let malformed = try XCTUnwrap(tmux.waitFor("first", text: "'99999' is not a port number"), tmux.screen("first"))
        print("The join field with a malformed port:\n\(malformed)")
        try tmux.keys("first", "BSpace", "BSpace", "BSpace", "BSpace", "Home")
        try tmux.literal("first", "1")  // at the start
        try tmux.keys("first", "End")
        let typed = try XCTUnwrap(tmux.waitFor("first", text: "Joins 127.0.0.1:9"), tmux.screen("first"))
        print("The join field:\n\(typed)")
        try tmux.keys("first", "Enter")  // nobody listens on port 9: the join fails, the address is kept
        XCTAssertNotNil(tmux.waitFor("first", text: "Joining 127.0.0.1:9"), tmux.screen("first"))
        try tmux.keys("first", "q")
        XCTAssertNotNil(tmux.waitFor("first", text: "Play against the computer"), tmux.screen("first"))
        _ = try settingsScreen(tmux, "first")
        try tmux.keys("first", "Down", "Down", "Down", "Right")  // Colours: on → off
        XCTAssertNotNil(tmux.waitFor("first", text: "Colours        < off >"), tmux.screen("first"))
        try tmux.keys("first", "Down", "Right")  // Key hints: shown → hidden
        XCTAssertNotNil(tmux.waitFor("first", text: "Key hints      < hidden >"), tmux.screen("first"))
        let path = config + "/settings.json"
        XCTAssertTrue(eventually { (try? String(contentsOfFile: path, encoding: .utf8))?.contains("\"key_hints\":false") == true },
                      "settings.json was not written")
        try tmux.keys("first", "C-c")
        XCTAssertTrue(eventually { !((try? tmux.run(["list-sessions"])) ?? "").contains("first:") }, tmux.screen("first"))

        try tmux.start("second", "env -u NO_COLOR " + tuiCommand("", configDirectory: config))
        let menu = try XCTUnwrap(tmux.waitFor("second", text: "Playing as solo"), tmux.screen("second"))
        XCTAssertFalse(menu.contains("Enter or a letter picks"), "key hints hidden:\n\(menu)")
        XCTAssertEqual(colourParameters(try styledScreen(tmux, "second")), [], "colours off: no colour pairs")
        try tmux.keys("second", "a")
        let empty = try XCTUnwrap(tmux.waitFor("second", text: "Address (host:port)"), tmux.screen("second"))
        XCTAssertFalse(empty.contains("127.0.0.1"), "the field starts empty:\n\(empty)")
        try tmux.keys("second", "Up")
        let recalled = try XCTUnwrap(tmux.waitFor("second", text: " 127.0.0.1:9_"), tmux.screen("second"))
        print("The join field after a relaunch, ↑ pressed:\n\(recalled)")
        try tmux.keys("second", "Escape")
        let after = try settingsScreen(tmux, "second")
        XCTAssertTrue(after.contains("Colours        < off >"), after)
        XCTAssertTrue(after.contains("Key hints      < hidden >"), after)
        XCTAssertFalse(after.contains("Esc back"), after)
        XCTAssertEqual(colourParameters(try styledScreen(tmux, "second")), [], "colours off: no colour pairs")
        print("Settings after a relaunch:\n\(after)")
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        XCTAssertEqual(object["address_history"] as? [String], ["127.0.0.1:9"])
        XCTAssertEqual(object["colors"] as? Bool, false)
        XCTAssertEqual(object["key_hints"] as? Bool, false)
        try tmux.keys("second", "C-c")
    }
}
