import GameClient
import TerminalUI
import TerminalWidgets
import XCTest

/// The name fields (Settings, the Host and Join forms) keep `--name`'s limit: 63 bytes of UTF-8 in NFC.
final class NameFieldTests: XCTestCase {
    func testTheSettingsNameFieldStopsAt63Bytes() throws {
        let terminal = FakeTerminal(script: [
            .keys("t"), .key(.down), .key(.down), .keys("日"), .keys("b"), .keys("c"), .key(.escape),
        ])
        let (app, _) = try runApp(terminal, settings: UISettings(name: String(repeating: "a", count: 61)))
        // "日" (3 bytes) would make 64; "b" makes 62 and "c" 63.
        XCTAssertEqual(app.model.settings.name, String(repeating: "a", count: 61) + "bc")
        XCTAssertEqual(app.model.settings.name.utf8.count, 63)
    }

    func testTheHostFormsNameFieldStopsAt63Bytes() throws {
        let terminal = FakeTerminal(script: [.keys("h"), .key(.backTab), .keys("\u{E9}"), .keys("\u{E9}"), .keys("x")])
        let (app, _) = try runApp(terminal, settings: UISettings(name: String(repeating: "a", count: 60)))
        guard case .form(let form) = app.model.screen else { return XCTFail("expected the host form") }
        // The first "é" makes 62 bytes, the second would make 64, "x" makes 63.
        XCTAssertEqual(Array(form.name.utf8), Array((String(repeating: "a", count: 60) + "\u{E9}x").utf8))
    }

    /// In a text field `?` is a character like any other (help is `?` elsewhere), and Enter in the Host form's name
    /// field starts hosting, as the key line says.
    func testAQuestionMarkIsTypedAndEnterInTheNameFieldHosts() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [.keys("h"), .key(.backTab), .key(.control("u")), .keys("Who?Me")])
        let (typed, _) = try runApp(terminal, network: network)
        guard case .form(let form) = typed.model.screen else { return XCTFail("expected the host form") }
        XCTAssertEqual(form.name, "Who?Me", terminal.lastFrame)
        XCTAssertFalse(typed.model.showHelp)
        let hosting = FakeTerminal(script: [.keys("h"), .key(.backTab), .key(.control("u")), .keys("Who?Me"), .key(.enter)])
        try runApp(hosting, network: network)
        XCTAssertEqual(network.hosted.map(\.name), ["Who?Me"], hosting.lastFrame)
        // Where no text is typed, `?` still opens the help.
        let help = FakeTerminal(script: [.keys("h"), .key(.tab), .keys("?")])
        let (helped, _) = try runApp(help)
        XCTAssertTrue(helped.model.showHelp, help.lastFrame)
    }

    func testANameFromElsewhereIsKeptInNFCAndCutAtACharacterBoundary() {
        let decomposed = String(repeating: "e\u{301}", count: 40)  // 120 bytes in NFD, 80 in NFC
        let settings = UISettings(name: decomposed)
        XCTAssertEqual(Array(settings.name.utf8), Array(String(repeating: "\u{E9}", count: 31).utf8))
        let cjk = UISettings(name: String(repeating: "日本語", count: 10)).name
        XCTAssertEqual(cjk, String(repeating: "日本語", count: 7))
    }
}
