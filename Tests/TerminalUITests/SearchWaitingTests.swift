import GameClient
@testable import TerminalUI
import TerminalWidgets
import XCTest

/// Search while local network access is denied: the screen says so once, in sentences, with what to do; t opens
/// Settings and Esc comes back to searching.
final class SearchWaitingTests: XCTestCase {
    private static let reason =
        "local network permission denied: turn on Local Network in Settings › Privacy, or run `tictactoe privacy grant`"

    private func waitingSearch() -> AppModel {
        var model = AppModel(settings: UISettings(name: "tester"), size: TerminalSize(rows: 30, columns: 100), seed: 1)
        XCTAssertEqual(model.handle(.key(.character("s"))), [.checkNetwork(.search)])
        _ = model.handle(.discovery(.waiting(Self.reason)))
        return model
    }

    func testTheDeniedSearchSaysWhyOnceInSentences() {
        let frame = waitingSearch().render(unicode: true).text
        XCTAssertTrue(frame.contains("Not searching: local network access is not allowed yet."), frame)
        XCTAssertTrue(frame.contains("Local network permission denied: turn on Local Network in"), frame)
        XCTAssertTrue(frame.contains("`tictactoe privacy grant`."), frame)
        XCTAssertTrue(frame.contains("Press t for Settings"), frame)
        // The reason is not repeated (cut) in the status line: it says only what the screen is waiting for.
        XCTAssertEqual(frame.components(separatedBy: "permission denied").count, 2, frame)
        XCTAssertEqual(frame.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) },
                       "Waiting for local network access", frame)
        XCTAssertTrue(frame.contains("t settings"), frame)
        // Wrapped at words: no line of the reason starts or ends inside a word.
        for line in frame.split(separator: "\n") where line.contains("Privacy") || line.contains("grant") {
            XCTAssertFalse(line.trimmingCharacters(in: .whitespaces).hasPrefix("acy"), frame)
        }
    }

    func testTOpensSettingsAndEscSearchesAgain() {
        var model = waitingSearch()
        XCTAssertEqual(model.handle(.key(.character("t"))), [.stopBrowsing, .loadPrivacyInfo])
        guard case .settings(let settings) = model.screen else { return XCTFail("not in Settings: \(model.screen)") }
        XCTAssertEqual(settings.row, .localNetwork, "on the Local Network row")
        XCTAssertTrue(model.render(unicode: true).text.contains("Esc back to the search"))
        XCTAssertEqual(model.handle(.key(.escape)), [.checkNetwork(.search)])
        guard case .search = model.screen else { return XCTFail("not back on Search: \(model.screen)") }
        // Settings from the menu still go back to the menu.
        XCTAssertEqual(model.handle(.key(.character("q"))), [.stopBrowsing])
        _ = model.handle(.key(.character("t")))
        _ = model.handle(.key(.escape))
        guard case .menu = model.screen else { return XCTFail("not back at the menu: \(model.screen)") }
    }

    /// A join that waits for permission, or for an unreachable host, says what it waits for once: in full on the
    /// screen (with the countdown), and only the state in the status line.
    func testAWaitingJoinSaysWhyOnce() {
        var model = AppModel(settings: UISettings(name: "tester"), size: TerminalSize(rows: 30, columns: 100), seed: 1)
        _ = model.handle(.key(.character("a")))
        for character in "127.0.0.1:9" { _ = model.handle(.key(.character(character))) }
        _ = model.handle(.key(.enter))
        _ = model.handle(.gate(.allowed, .join(name: "tester", address: "127.0.0.1:9"), prompt: nil))
        _ = model.handle(.network(.report(.connectionState(.waiting(.notAllowed(Self.reason))))))
        var frame = model.render(unicode: true).text
        XCTAssertEqual(frame.components(separatedBy: "permission denied").count, 2, frame)
        XCTAssertEqual(frame.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) },
                       "Waiting for local network access", frame)
        _ = model.handle(.network(.report(.connectionState(.waiting(.peerUnreachable("connection refused", retryIn: .seconds(1)))))))
        frame = model.render(unicode: true).text
        XCTAssertEqual(frame.components(separatedBy: "connection refused").count, 2, frame)
        XCTAssertEqual(frame.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) },
                       "Waiting to connect", frame)
    }
}
