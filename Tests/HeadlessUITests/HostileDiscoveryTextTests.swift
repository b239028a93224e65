import AppCore
import GameClient
import GameProtocol
import HeadlessUI
import TextSupport
import XCTest

/// Names, hosts, addresses, reasons and messages from Bonjour reach `browse`'s text output and the lists only
/// escaped (`DisplayText.escaped`): no control or bidi character is ever written raw.
final class HostileDiscoveryTextTests: XCTestCase {
    static let hostile = "evil\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{85}\n\u{202E}\u{2066}"
    static let shown = #"evil\x1b]0;pwned\x07\x1b[2J\x9b31m\x85\x0a\u202e\u2066"#

    func assertNothingRaw(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        // Line breaks between lines are the output's own; the text's own are escaped (`\x0a`).
        let raw = text.unicodeScalars.filter { ($0 != "\n" && DisplayText.isControl($0)) || DisplayText.isBidiFormatting($0) }
        XCTAssertTrue(raw.isEmpty, "raw \(raw.map { String($0.value, radix: 16) }) in \(text.debugDescription)",
                      file: file, line: line)
    }

    var listings: [GameListing] {
        let h = Self.hostile
        return [
            GameListing(name: h, state: .joinable(.open), host: "host-\(h).local.", addresses: ["10.0.0.2%\(h)"]),
            GameListing(name: "井字棋" + h, state: .joinable(.private), host: h),
            GameListing(name: h, state: .notJoinable(reason: h), host: h),
            GameListing(name: h, state: .lookingUp),
            GameListing(name: h, state: .notAnswering(since: .seconds(1)), host: h, addresses: [h]),
        ]
    }

    func testBrowseTextLinesEscapeEverythingFromBonjour() throws {
        let h = Self.hostile
        let reports: [DiscoveryReport] = listings.map { .game($0) } + [
            .games(listings), .advertised(name: h), .advertisingUnavailable(message: h),
            .bonjourUnavailable(message: h), .resolved(name: h, addresses: [h, "10.0.0.2"]),
        ]
        for report in reports {
            let (line, _) = try XCTUnwrap(report.textLine)
            assertNothingRaw(line)
            XCTAssertTrue(line.contains(Self.shown), line)
        }
    }

    func testListRowsEscapeNamesPlacesAndReasonsAtEveryWidth() {
        for width in [20, 40, 44, 80, 100, 300] {
            let rows = GameList.rows(listings, width: width)
            for row in rows {
                assertNothingRaw(row)
                XCTAssertEqual(DisplayWidth.of(row), width, row)
            }
            if width == 300 { XCTAssertTrue(rows[2].contains("(not joinable: \(Self.shown))"), rows[2]) }
        }
    }
}
