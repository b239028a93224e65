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
        XCTAssertTrue(waitUntil { (try? String(contentsOfFile: path, encoding: .utf8))?.contains("Zoë 日本") == true },
                      "settings.json was not written")
        // Ctrl-C: the immediate way out; the settings were saved when they changed.
        try tmux.keys("first", "C-c")
        XCTAssertTrue(waitUntil { !((try? tmux.run(["list-sessions"])) ?? "").contains("first:") }, tmux.screen("first"))

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

    private func waitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(100_000)
        }
        return true
    }
}
