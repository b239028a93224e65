import GameClient
@testable import TerminalUI
import TerminalWidgets
import XCTest

/// Settings › Difficulty: easy, medium, perfect (one name each, as `--player`), kept in settings.json by that name.
final class DifficultySettingTests: XCTestCase {
    private func model() -> AppModel {
        AppModel(settings: UISettings(name: "tester"), size: TerminalSize(rows: 30, columns: 100), seed: 1)
    }

    private func screen(_ model: AppModel) -> String {
        model.render(unicode: true).text
    }

    func testTheRowCyclesThroughTheThreeLevels() {
        var model = model()
        _ = model.handle(.key(.character("t")))
        XCTAssertTrue(screen(model).contains("Difficulty     < perfect >"), screen(model))
        var seen: [String] = []
        for _ in 0..<3 {
            _ = model.handle(.key(.right))
            seen.append(model.settings.difficulty.rawValue)
            XCTAssertTrue(screen(model).contains("Difficulty     < \(model.settings.difficulty.rawValue) >"),
                          screen(model))
        }
        XCTAssertEqual(seen, ["easy", "medium", "perfect"])
        _ = model.handle(.key(.left))
        XCTAssertEqual(model.settings.difficulty, .medium)
        XCTAssertFalse(screen(model).contains("random"), "one name for each level")
    }

    func testStoredLevelsLoadByName() {
        for name in ["easy", "medium", "perfect"] {
            let settings = UISettings(stored: StoredSettings(difficulty: name), defaultName: "x")
            XCTAssertEqual(settings.difficulty.rawValue, name)
            XCTAssertEqual(settings.stored.difficulty, name)
        }
        XCTAssertEqual(UISettings(stored: StoredSettings(difficulty: "hard"), defaultName: "x").difficulty, .perfect)
    }

    func testAMediumGameSaysSoAndReplaysWithTheSeed() {
        var settings = UISettings(name: "tester")
        settings.difficulty = .medium
        settings.starter = .computer
        func opening(seed: UInt64) -> [Int] {
            var model = AppModel(settings: settings, size: TerminalSize(rows: 30, columns: 100), seed: seed)
            var moves: [Int] = []
            for _ in 0..<12 {  // a dozen games: the computer's first move each time
                _ = model.handle(.key(.character("p")))
                _ = model.handle(.timer(.computerMove))
                guard case .computer(let game) = model.screen else { XCTFail("not in a game"); return [] }
                XCTAssertEqual(game.difficulty, .medium)
                XCTAssertTrue(screen(model).contains("Computer (medium)"), screen(model))
                moves += game.game.moves
                _ = model.handle(.key(.character("q")))  // back to the menu
            }
            return moves
        }
        XCTAssertEqual(opening(seed: 5), opening(seed: 5))
    }
}
