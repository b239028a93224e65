import TerminalWidgets
import XCTest

/// The canvas lays text out by display width: segments for a driver that measures scalar by scalar, and no half of a
/// wide character left on the screen.
final class CanvasTests: XCTestCase {
    /// A driver draws segment by segment: an emoji sequence (which curses would measure scalar by scalar) ends a
    /// segment, and the next one starts at the canvas's column.
    func testSegmentsStartWhereTheCanvasPutsThem() {
        var canvas = Canvas(size: TerminalSize(rows: 1, columns: 44))
        canvas.put("a👩‍💻b❤️c🇰🇷d井e", row: 0, column: 1)
        let segments = canvas.segments(row: 0).map { segment in
            var text = segment.text
            while text.last == " " { text.removeLast() }
            return "\(segment.column):\(text)"
        }
        XCTAssertEqual(segments, ["0: a👩‍💻", "4:b❤️", "7:c🇰🇷d井e"])
    }

    /// A run of ASCII text (the fast path) is one segment, its run as it is, beside runs of other styles;
    /// a control character in it (never drawn: `put` skips it) changes nothing.
    func testAnASCIIRunIsOneSegment() {
        var canvas = Canvas(size: TerminalSize(rows: 1, columns: 30))
        canvas.put("[p] Play", row: 0, column: 2, style: .accent)
        canvas.put("a\r\nb", row: 0, column: 12)
        let runs = canvas.runs(row: 0).map { "\($0.column):\($0.text):\($0.style)" }
        let segments = canvas.segments(row: 0).map { "\($0.column):\($0.text):\($0.style)" }
        XCTAssertEqual(segments, runs)
        XCTAssertEqual(segments.count, 3, "\(segments)")
        XCTAssertEqual(canvas.segments(row: 0)[1].text, "[p] Play")
    }

    /// Writing over half of a wide character blanks the other half: no half character is left on the screen, and
    /// the cells after it keep their columns.
    func testOverwritingHalfAWideCharacterBlanksIt() {
        var canvas = Canvas(size: TerminalSize(rows: 1, columns: 10))
        canvas.put("井字棋", row: 0, column: 0)
        canvas.put("|", row: 0, column: 3)  // the second half of 字
        XCTAssertEqual(canvas.text, "井 |棋")
        canvas.put("x", row: 0, column: 4)  // the first half of 棋
        XCTAssertEqual(canvas.text, "井 |x")
        XCTAssertFalse(canvas.cells[0].contains { $0.continuation && $0.character != " " })
        XCTAssertEqual(canvas.cells[0].filter(\.continuation).count, 1)
        // A wide character never straddles the right edge.
        var edge = Canvas(size: TerminalSize(rows: 1, columns: 5))
        XCTAssertEqual(edge.put("ab井字", row: 0, column: 0), 4)
        XCTAssertEqual(edge.text, "ab井")
    }
}
