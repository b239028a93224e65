import GameClient
import GameProtocol
@testable import TerminalUI
import TerminalWidgets
import XCTest
import TextSupport
import NetworkScreenState

/// Details of joining: the countdown after a visit to Settings, names escaped once, a stored history made safe, and
/// the character under the cursor kept in view at the field's right edge.
final class JoinScreenDetailsTests: XCTestCase {
    func testTheCountdownGoesOnAfterSettings() {
        var model = AppModel(settings: UISettings(name: "tester"), size: TerminalSize(rows: 30, columns: 100), seed: 1)
        _ = model.handle(.key(.character("a")))
        for character in "127.0.0.1:9" { _ = model.handle(.key(.character(character))) }
        _ = model.handle(.key(.enter))
        XCTAssertEqual(model.handle(.gate(.allowed, .join(name: "tester", address: "127.0.0.1:9"), prompt: nil)),
                       [.join(name: "tester", address: "127.0.0.1:9", code: nil), .schedule(.connectCountdown, after: .seconds(1))])
        XCTAssertEqual(model.handle(.key(.character("t"))), [.loadPrivacyInfo])
        // The countdown's tick while Settings shows finds no network screen and stops…
        XCTAssertEqual(model.handle(.timer(.connectCountdown)), [])
        // …and coming back starts it again.
        XCTAssertEqual(model.handle(.key(.escape)), [.schedule(.connectCountdown, after: .seconds(1))])
        guard case .network(let game) = model.screen else { return XCTFail("not back on the join: \(model.screen)") }
        XCTAssertNotNil(game.connectSecondsLeft)
    }

    func testAListedNameIsEscapedOnce() {
        let shown = DisplayText.escaped("back\\slash")  // as the list passes it
        var game = NetworkGame(role: .joiner, localName: "me", target: shown)
        game.joining(listedAt: "host.local 192.0.2.7")
        XCTAssertEqual(game.connection, "Connecting to back\\\\slash at host.local 192.0.2.7…")
    }

    func testAStoredHistoryDropsWhatCouldActOnATerminal() {
        XCTAssertEqual(AddressHistory.cleaned(["192.0.2.7:7878", "evil\u{1B}[2J:1", "x\u{202E}y:2", "192.0.2.7:7878"]),
                       ["192.0.2.7:7878"])
        // A last address newer than the history (written by an older version) goes first.
        let settings = UISettings(stored: StoredSettings(lastAddress: "192.0.2.9:1", addressHistory: ["192.0.2.8:1"]),
                                  defaultName: "me")
        XCTAssertEqual(settings.addressHistory, ["192.0.2.9:1", "192.0.2.8:1"])
    }

    func testTheCharacterUnderTheCursorStaysInViewAtTheRightEdge() {
        var editor = LineEditor(String(repeating: "a", count: 38) + "XYZ")
        for _ in 0..<3 { _ = editor.handle(.left) }  // on X, with YZ after it: more than fits
        let view = editor.view(width: 36, editing: true)
        XCTAssertTrue(view.text.hasSuffix("X…"), view.text)
        XCTAssertEqual(view.cursor.map { Array(view.text)[$0] }, "X")
    }
}
