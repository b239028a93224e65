import GameClient
import GameProtocol
import XCTest

@testable import TerminalUI
import TerminalWidgets
import NetworkScreenState

/// The addresses joined, kept for ↑/↓ in Join by address.
final class AddressHistoryTests: XCTestCase {
    func testTheHistoryKeepsTenAddressesNewestFirstWithoutRepeats() {
        var history: [String] = []
        for n in 1...12 { history = AddressHistory.adding("10.0.0.\(n):7878", to: history) }
        XCTAssertEqual(history.count, 10)
        XCTAssertEqual(history.first, "10.0.0.12:7878")
        XCTAssertEqual(history.last, "10.0.0.3:7878")
        history = AddressHistory.adding(" 10.0.0.5:7878 ", to: history)
        XCTAssertEqual(history.first, "10.0.0.5:7878", "joined again: moved to the front")
        XCTAssertEqual(history.filter { $0 == "10.0.0.5:7878" }.count, 1)
        XCTAssertEqual(history.count, 10)
        XCTAssertEqual(AddressHistory.adding("  ", to: ["a"]), ["a"])
        XCTAssertEqual(AddressHistory.cleaned(["a", " a ", "", "b"] + (1...20).map { "h\($0)" }).count, 10)
        XCTAssertEqual(Array(AddressHistory.cleaned(["a", " a ", "", "b"]).prefix(2)), ["a", "b"])
    }
}

/// What Join by address says about its text, by the same rule as `tictactoe join` (`JoinTarget`).
final class AddressCheckTests: XCTestCase {
    func testTheCheckOfEachKindOfText() {
        let table: [(String, JoinTarget.Check)] = [
            ("", .empty),
            ("   ", .empty),
            ("192.0.2.10", .address(Endpoint(host: "192.0.2.10", port: 7878))),
            ("192.0.2.10:7990", .address(Endpoint(host: "192.0.2.10", port: 7990))),
            (" 192.0.2.10:7990 ", .address(Endpoint(host: "192.0.2.10", port: 7990))),
            ("host-a.example:80", .address(Endpoint(host: "host-a.example", port: 80))),
            ("localhost", .address(Endpoint(host: "localhost", port: 7878))),
            ("[2001:db8::5]:7990", .address(Endpoint(host: "2001:db8::5", port: 7990))),
            ("[fe80::1%eth0]:7878", .address(Endpoint(host: "fe80::1%eth0", port: 7878))),
            ("2001:db8::5", .address(Endpoint(host: "2001:db8::5", port: 7878))),
            ("::1", .address(Endpoint(host: "::1", port: 7878))),
            ("192.0.2.10:99999", .invalid(AddressError("'99999' is not a port number (1-65535)"))),
            ("192.0.2.10:0", .invalid(AddressError("'0' is not a port number (1-65535)"))),
            ("[2001:db8::5", .invalid(AddressError("'[2001:db8::5' has no closing ']'"))),
            ("[2001:db8::5]x", .invalid(AddressError("unexpected 'x' after ']' in '[2001:db8::5]x'"))),
            (":7878", .invalid(AddressError("no host in ':7878'"))),
            ("alice", .gameName("alice")),
            ("Zoë's game", .gameName("Zoë's game")),
            ("日本語のゲーム", .gameName("日本語のゲーム")),
            ("host:", .gameName("host:")),
        ]
        for (text, expected) in table {
            XCTAssertEqual(JoinTarget.check(text), expected, "'\(text)'")
        }
    }
}

/// The Join by address form: starts empty, edits as a line, recalls the history, checks as it is typed, offers to
/// search for a game name.
final class JoinFormTests: XCTestCase {
    private func model(history: [String] = []) -> AppModel {
        var settings = UISettings(name: "tester")
        settings.addressHistory = history
        return AppModel(settings: settings, size: TerminalSize(rows: 30, columns: 100), seed: 1)
    }

    private func form(_ model: AppModel) throws -> Form {
        if case .form(let form) = model.screen { return form }
        return try XCTUnwrap(nil as Form?, "not on the form: \(model.screen)")
    }

    private func type(_ text: String, into model: inout AppModel) {
        for c in text { _ = model.handle(.key(.character(c))) }
    }

    func testTheFieldStartsEmptyAndHistoryIsRecalledWithUp() throws {
        var model = model(history: ["192.0.2.10:7990", "localhost"])
        _ = model.handle(.key(.character("a")))
        XCTAssertEqual(try form(model).second, "", "starts empty")
        XCTAssertEqual(try form(model).field, 1)
        _ = model.handle(.key(.up))
        XCTAssertEqual(try form(model).second, "192.0.2.10:7990")
        _ = model.handle(.key(.up))
        XCTAssertEqual(try form(model).second, "localhost")
        _ = model.handle(.key(.down))
        _ = model.handle(.key(.down))
        XCTAssertEqual(try form(model).second, "")
        XCTAssertEqual(try form(model).field, 1)
        _ = model.handle(.key(.up))
        let effects = model.handle(.key(.enter))
        XCTAssertEqual(effects.last, .checkNetwork(.join(name: "tester", address: "192.0.2.10:7990")))
        XCTAssertEqual(model.settings.addressHistory, ["192.0.2.10:7990", "localhost"], "no repeat")
    }

    func testCtrlUClearsTheFieldAndCtrlWAWord() throws {
        var model = model()
        _ = model.handle(.key(.character("a")))
        type("192.0.2.10:7878", into: &model)
        _ = model.handle(.key(.control("u")))
        XCTAssertEqual(try form(model).second, "")
        type("my game", into: &model)
        _ = model.handle(.key(.control("w")))
        XCTAssertEqual(try form(model).second, "my ")
    }

    func testTheAddressIsCheckedAsItIsTyped() throws {
        var model = model()
        _ = model.handle(.key(.character("a")))
        type("192.0.2.10:99999", into: &model)
        var frame = model.render(unicode: true).text
        XCTAssertTrue(frame.contains("'99999' is not a port number (1-65535). Type HOST:PORT"), frame)
        let refused = model.handle(.key(.enter))
        XCTAssertEqual(refused, [], "a malformed address is not joined")
        for _ in 0..<3 { _ = model.handle(.key(.backspace)) }
        frame = model.render(unicode: true).text
        XCTAssertTrue(frame.contains("Joins 192.0.2.10:99"), frame)
        _ = model.handle(.key(.control("u")))
        type("[2001:db8::5]:7990", into: &model)
        XCTAssertTrue(model.render(unicode: true).text.contains("Joins [2001:db8::5]:7990"))
    }

    func testAGameNameIsSaidAndSOrEnterSearchesForIt() throws {
        for confirm: Key in [.character("s"), .enter] {
            var model = model()
            _ = model.handle(.key(.character("a")))
            type("alice", into: &model)
            XCTAssertTrue(model.render(unicode: true).text.contains("'alice' looks like a game name, not an address."))
            XCTAssertEqual(model.handle(.key(.enter)), [], "Enter first says what it is")
            let frame = model.render(unicode: true).text
            XCTAssertTrue(
                flattened(frame).contains(
                    "'alice' looks like a game name, not an address: press s to search for it on the local network"),
                frame)
            XCTAssertTrue(frame.contains("s or Enter searches for it"), frame)
            let effects = model.handle(.key(confirm))
            XCTAssertEqual(effects.last, .checkNetwork(.join(name: "tester", address: "alice")))
            guard case .network(let game) = model.screen else { return XCTFail("not joining") }
            XCTAssertEqual(game.target, "alice")
            XCTAssertEqual(model.settings.addressHistory, [], "a name is not an address")
        }
    }

    func testAnyOtherKeyAfterTheOfferEditsTheText() throws {
        var model = model()
        _ = model.handle(.key(.character("a")))
        type("alice", into: &model)
        _ = model.handle(.key(.enter))
        type(":7878", into: &model)
        XCTAssertEqual(try form(model).second, "alice:7878")
        XCTAssertNil(try form(model).offeredName)
        XCTAssertEqual(model.handle(.key(.enter)).last, .checkNetwork(.join(name: "tester", address: "alice:7878")))
    }

    func testTheCursorIsShownInTheMiddleOfTheText() throws {
        var model = model()
        _ = model.handle(.key(.character("a")))
        type("10.0.0.2:7878", into: &model)
        XCTAssertTrue(model.render(unicode: true).text.contains(" 10.0.0.2:7878_"))
        _ = model.handle(.key(.home))
        let canvas = model.render(unicode: true)
        XCTAssertTrue(canvas.text.contains(" 10.0.0.2:7878"), canvas.text)
        XCTAssertFalse(canvas.text.contains("7878_"), "no _ when the cursor is on a character")
        let long = String(repeating: "x", count: 60)
        _ = model.handle(.key(.control("k")))
        type(long, into: &model)
        XCTAssertTrue(model.render(unicode: true).text.contains(String(repeating: "x", count: 35) + "_"),
                      "scrolled to the cursor")
    }
}

/// Settings › Colours and Key hints: toggled, applied, saved.
final class ColoursAndHintsTests: XCTestCase {
    func testKeyHintsHiddenRemovesTheHintLine() {
        var model = AppModel(settings: UISettings(name: "t"), size: TerminalSize(rows: 24, columns: 80), seed: 1)
        XCTAssertTrue(model.render(unicode: true).text.contains("Enter or a letter picks"))
        _ = model.handle(.key(.character("t")))
        for _ in 0..<SettingsScreen.Row.keyHints.rawValue { _ = model.handle(.key(.down)) }
        let effects = model.handle(.key(.right))
        XCTAssertEqual(model.settings.keyHints, false)
        XCTAssertEqual(effects, [.saveSettings(model.settings)])
        let frame = model.render(unicode: true).text
        XCTAssertTrue(frame.contains("Key hints      < hidden >"), frame)
        XCTAssertFalse(frame.contains("Esc back"), frame)
        _ = model.handle(.key(.escape))
        XCTAssertFalse(model.render(unicode: true).text.contains("Enter or a letter picks"))
    }

    func testColoursOffTellsTheTerminal() throws {
        let terminal = FakeTerminal(script: [.keys("t"), .key(.down), .key(.down), .key(.down), .key(.right)])
        let (app, _) = try runApp(terminal)
        XCTAssertEqual(app.model.settings.colors, false)
        XCTAssertFalse(terminal.colors, "colours off: no colour pairs")
        XCTAssertTrue(terminal.lastFrame.contains("Colours        < off >"), terminal.lastFrame)
        let on = FakeTerminal(script: [.keys("t")])
        _ = try runApp(on)
        XCTAssertTrue(on.colors)
    }
}

/// Settings › Your name is a line editor too.
final class SettingsNameEditorTests: XCTestCase {
    func testTheNameIsEditedAsALine() {
        var model = AppModel(settings: UISettings(name: "Zoë Bell"), size: TerminalSize(rows: 24, columns: 80), seed: 1)
        _ = model.handle(.key(.character("t")))
        _ = model.handle(.key(.down))
        _ = model.handle(.key(.down))
        XCTAssertTrue(model.render(unicode: true).text.contains("Your name      Zoë Bell_"))
        _ = model.handle(.key(.control("w")))
        XCTAssertEqual(model.settings.name, "Zoë ")
        _ = model.handle(.key(.home))
        _ = model.handle(.key(.character("q")))  // a letter, not Quit, on this row
        XCTAssertEqual(model.settings.name, "qZoë ")
        _ = model.handle(.key(.delete))  // at the cursor, after the q
        XCTAssertEqual(model.settings.name, "qoë ")
        _ = model.handle(.key(.right))
        _ = model.handle(.key(.left))
        _ = model.handle(.key(.control("u")))
        XCTAssertEqual(model.settings.name, "oë ")
        XCTAssertEqual(model.handle(.key(.down)), [.saveSettings(model.settings)], "saved when leaving the field")
        guard case .settings(let settings) = model.screen else { return XCTFail("left Settings") }
        XCTAssertEqual(settings.row, .colors)
    }
}

/// What was typed is shown escaped, once, in the join form's lines.
final class JoinFormEscapingTests: XCTestCase {
    func testAControlCharacterInANameIsShownEscapedOnce() {
        var model = AppModel(settings: UISettings(name: "t"), size: TerminalSize(rows: 30, columns: 100), seed: 1)
        _ = model.handle(.key(.character("a")))
        for c in #"a\x1bb"# { _ = model.handle(.key(.character(c))) }  // as `browse` prints an escape
        XCTAssertTrue(model.render(unicode: true).text.contains(#"'a\x1bb' looks like a game name"#),
                      model.render(unicode: true).text)
        _ = model.handle(.key(.enter))
        let frame = model.render(unicode: true).text
        XCTAssertTrue(frame.contains(#"'a\x1bb' looks like a game name, not an address:"#), frame)
        XCTAssertFalse(frame.contains("\u{1B}"), "no raw escape on the screen")
        let effects = model.handle(.key(.character("s")))
        XCTAssertEqual(effects.last, .checkNetwork(.join(name: "t", address: #"a\x1bb"#)),
                       "the text as typed: the join reads it as `tictactoe join` does")
    }
}
