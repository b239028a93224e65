import GameClient
import Synchronization
import TerminalUI
import TerminalWidgets
import XCTest

/// Settings survive a relaunch: the model asks to save a changed setting (`.saveSettings`), the app hands it to its
/// `SettingsClient`, and settings come back from what was stored (the file itself: AppCoreTests).
final class SettingsPersistenceTests: XCTestCase {
    private func model() -> AppModel {
        AppModel(settings: UISettings(name: "tester"), size: TerminalSize(rows: 30, columns: 100), seed: 1)
    }

    private func saved(_ effects: [AppEffect]) -> [UISettings] {
        effects.compactMap { if case .saveSettings(let settings) = $0 { return settings } else { return nil } }
    }

    func testChangingADifficultyOrWhoStartsEmitsTheSave() {
        var model = model()
        XCTAssertEqual(saved(model.handle(.key(.character("t")))), [], "opening Settings saves nothing")
        let harder = saved(model.handle(.key(.right)))
        XCTAssertEqual(harder.map(\.difficulty), [.easy])
        XCTAssertEqual(harder.first, model.settings)
        XCTAssertEqual(saved(model.handle(.key(.down))), [], "moving changes nothing")
        let starter = saved(model.handle(.key(.right)))
        XCTAssertEqual(starter.map(\.starter), [.you])
        XCTAssertEqual(starter.map(\.difficulty), [.easy])
        XCTAssertEqual(saved(model.handle(.key(.up))), [])
        XCTAssertEqual(saved(model.handle(.key(.escape))), [], "leaving without a change saves nothing")
    }

    func testTheNameIsSavedWhenThePersonLeavesTheField() {
        var model = model()
        _ = model.handle(.key(.character("t")))
        _ = model.handle(.key(.down))
        _ = model.handle(.key(.down))
        XCTAssertEqual(saved(model.handle(.key(.character("x")))), [], "not at every key")
        XCTAssertEqual(saved(model.handle(.key(.backspace))), [])
        XCTAssertEqual(saved(model.handle(.key(.character("s")))), [])
        XCTAssertEqual(saved(model.handle(.key(.down))).map(\.name), ["testers"])
        _ = model.handle(.key(.up))
        _ = model.handle(.key(.character("!")))
        XCTAssertEqual(saved(model.handle(.key(.escape))).map(\.name), ["testers!"], "Esc leaves the field too")
    }

    func testANameOrAddressTypedInAFormIsSavedWhenItIsUsed() {
        var model = model()
        _ = model.handle(.key(.character("a")))  // Join by address: the address field first
        for character in "10.0.0.2:7878" { _ = model.handle(.key(.character(character))) }
        let effects = model.handle(.key(.enter))
        XCTAssertEqual(saved(effects).map(\.addressHistory), [["10.0.0.2:7878"]])
        XCTAssertEqual(effects.last, .checkNetwork(.join(name: "tester", address: "10.0.0.2:7878")))
    }

    func testStoredSettingsComeBackAndWhatIsNotUnderstoodKeepsItsDefault() {
        let settings = UISettings(
            stored: StoredSettings(name: "Zoe\u{0308}", difficulty: "easy", starter: "computer", port: 7990,
                                   lastAddress: "10.0.0.2:7878"),
            defaultName: "fallback")
        XCTAssertEqual(settings.name, "Zo\u{EB}", "NFC")
        XCTAssertEqual(settings.difficulty, .easy)
        XCTAssertEqual(settings.starter, .computer)
        XCTAssertEqual(settings.port, 7990)
        XCTAssertEqual(settings.addressHistory, ["10.0.0.2:7878"], "an older file's last address starts the history")
        XCTAssertEqual(UISettings(stored: settings.stored, defaultName: "fallback"), settings, "round trip")

        let odd = UISettings(
            stored: StoredSettings(name: "  ", difficulty: "impossible", starter: "nobody", port: 70000),
            defaultName: "fallback")
        XCTAssertEqual(odd, UISettings(name: "fallback"))
        XCTAssertEqual(
            UISettings(stored: StoredSettings(name: String(repeating: "日本語", count: 10)), defaultName: "x").name,
            String(repeating: "日本語", count: 7), "cut to 63 bytes as PlayerName.fitted does")
    }

    func testTheAppHandsAChangedSettingToItsStoreAndShowsAFailedSave() throws {
        let store = RecordingSettingsStore(failure: "Cannot save the settings (/nowhere: Permission denied).")
        let terminal = FakeTerminal(script: [.keys("t"), .key(.right)])
        let app = UIApp(terminal: terminal, settings: UISettings(name: "tester"),
                        client: fakeClient(FakeNetwork(), FakePrivacy(state: .allowed)),
                        settingsStore: store.client, seed: 7, clock: { [unowned terminal] in terminal.now })
        terminal.queue = app.queue
        _ = try app.run()
        XCTAssertEqual(store.saved.withLock { $0 }.map(\.difficulty), ["easy"])
        XCTAssertEqual(app.model.flash, "Warning: Cannot save the settings (/nowhere: Permission denied).")
    }
}

/// A `SettingsClient` that records what it is asked to save.
final class RecordingSettingsStore: Sendable {
    let saved = Mutex<[StoredSettings]>([])
    let failure: String?

    init(failure: String? = nil) { self.failure = failure }

    var client: SettingsClient {
        SettingsClient(load: { (StoredSettings(), nil) }, save: { [self] settings in
            saved.withLock { $0.append(settings) }
            return failure
        })
    }
}
