import GameProtocol
import GameRules
import XCTest
import TextSupport

/// `DisplayText.escaped`: the one function text from outside (peer names, reasons, error texts, Bonjour names and
/// TXT values) goes through before a terminal or a log shows it.
final class SanitizerTests: XCTestCase {
    /// What a hostile peer or Bonjour record may send, and what the terminal shows instead (README: "Text from
    /// outside"). Inputs are written with Swift's `\u{…}` escapes; outputs are raw strings (`#"…"#`), exactly as
    /// printed.
    static let hostileInputTable: [(what: String, input: String, shown: String)] = [
        ("OSC set-title ended by BEL, then CSI clear screen", "\u{1B}]0;pwned\u{07}\u{1B}[2J", #"\x1b]0;pwned\x07\x1b[2J"#),
        ("CSI colour", "\u{1B}[31mred\u{1B}[0m", #"\x1b[31mred\x1b[0m"#),
        ("C1 CSI (0x9B), an 8-bit ESC [", "a\u{9B}2Jb", #"a\x9b2Jb"#),
        ("C1 NEL (0x85)", "a\u{85}b", #"a\x85b"#),
        ("DEL", "a\u{7F}b", #"a\x7fb"#),
        ("NUL", "a\u{0}b", #"a\x00b"#),
        ("line feed, carriage return, tab", "a\nb\rc\td", #"a\x0ab\x0dc\x09d"#),
        ("right-to-left override U+202E", "abc\u{202E}fed", #"abc\u202efed"#),
        ("left-to-right isolate U+2066 … pop U+2069", "\u{2066}x\u{2069}", #"\u2066x\u2069"#),
        ("embedding U+202A, pop U+202C", "\u{202A}x\u{202C}", #"\u202ax\u202c"#),
        ("marks: RLM U+200F, LRM U+200E, ALM U+061C", "\u{200F}\u{200E}\u{61C}", #"\u200f\u200e\u061c"#),
        ("backslash", #"C:\games"#, #"C:\\games"#),
        ("an escape written as text", #"\x1b"#, #"\\x1b"#),
        ("CJK", "井字棋のゲーム", "井字棋のゲーム"),
        ("emoji with skin tone and zero-width joiner", "👩🏽‍💻 🎮", "👩🏽‍💻 🎮"),
        ("combining accent", "Zoe\u{308}", "Zoe\u{308}"),
        ("Arabic and Hebrew letters (their own direction is fine)", "لعبة שלום", "لعبة שלום"),
        ("an ordinary name", "Alice's game #2", "Alice's game #2"),
    ]

    func testHostileInputTable() {
        for row in Self.hostileInputTable {
            let shown = DisplayText.escaped(row.input)
            XCTAssertEqual(shown, row.shown, row.what)
            XCTAssertFalse(
                shown.unicodeScalars.contains { DisplayText.isControl($0) || DisplayText.isBidiFormatting($0) },
                "\(row.what): a control or bidi character is left in \(shown.debugDescription)")
            XCTAssertEqual(scalars(DisplayText.unescaped(shown)), scalars(row.input), "\(row.what): not reversible")
        }
    }

    func testEveryControlAndBidiCharacterIsEscapedAndNothingElse() {
        for value in UInt32(0)...0x2FFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            let shown = DisplayText.escaped(text)
            switch value {
            case 0x00...0x1F, 0x7F...0x9F:
                XCTAssertEqual(shown, "\\x" + hex(value, 2), "U+\(hex(value, 4))")
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                XCTAssertEqual(shown, "\\u" + hex(value, 4), "U+\(hex(value, 4))")
            case 0x5C:
                XCTAssertEqual(shown, #"\\"#)
            default:
                XCTAssertEqual(shown, text, "U+\(hex(value, 4)) should pass unchanged")
            }
        }
    }

    /// Whatever the text, escaping loses nothing: seeded random strings from an alphabet chosen to confuse (backslashes,
    /// the letters and digits of escapes, controls, bidi characters, emoji).
    func testRandomTextRoundTrips() {
        let alphabet: [String] = [
            "\\", "x", "u", "1", "b", "2", "0", "e", "f", "A", "\u{1B}", "\u{7}", "\u{0}", "\u{7F}", "\u{85}", "\u{9B}",
            "\u{202E}", "\u{2066}", "\u{200F}", " ", "é", "井", "🎮", "\u{301}", "\n",
        ]
        var random = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...24, using: &random)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &random)! }.joined()
            let shown = DisplayText.escaped(text)
            XCTAssertEqual(scalars(DisplayText.unescaped(shown)), scalars(text), text.debugDescription)
            XCTAssertFalse(shown.unicodeScalars.contains { DisplayText.isControl($0) || DisplayText.isBidiFormatting($0) })
        }
    }

    /// Text a person typed that was never escaped keeps its meaning: only the escapes `escaped` writes are turned back.
    func testUnescapingLeavesOtherBackslashesAlone() {
        let cases: [(typed: String, meant: String)] = [
            (#"C:\games"#, #"C:\games"#),
            (#"\x41"#, #"\x41"#),  // 'A' is never escaped, so this is text
            (#"\u0041"#, #"\u0041"#),
            (#"\x1"#, #"\x1"#),  // too short
            (#"\xzz"#, #"\xzz"#),
            (#"end\"#, #"end\"#),
            (#"\x1B"#, "\u{1B}"),  // upper-case hex digits too
            (#"\u202E"#, "\u{202E}"),
            (#"a\\b"#, #"a\b"#),
        ]
        for (typed, meant) in cases {
            XCTAssertEqual(DisplayText.unescaped(typed), meant, typed)
        }
    }

    /// Compared scalar by scalar: `String`'s `==` would take "é" and "e\u{301}" as equal.
    private func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    private func hex(_ value: UInt32, _ digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
