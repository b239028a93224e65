import Foundation
import GameProtocol
import XCTest
import TextSupport
#if canImport(Glibc)
import Glibc
#endif

/// `DisplayWidth`: terminal columns, as glibc's `wcwidth` counts them (what terminals on Linux draw).
final class DisplayWidthTests: XCTestCase {
    /// The ranges compared with glibc scalar by scalar: Latin and its combining marks, general punctuation, CJK
    /// symbols and punctuation, kana, bopomofo, Hangul jamo, compatibility jamo and syllables, ideographs
    /// (unified, extension A and B, compatibility), vertical, small and fullwidth forms, and the emoji blocks.
    static let comparedRanges: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0xA0...0x36F, 0x1100...0x11FF, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x2000...0x206F,
        0x20D0...0x20FF, 0x2190...0x27BF, 0x2B00...0x2BFF, 0x2E80...0x33FF, 0x3400...0x4DFF, 0x4E00...0x9FFF,
        0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF, 0xFE00...0xFE6F, 0xFF00...0xFFEF, 0x1B000...0x1B2FF,
        0x1F000...0x1FAFF, 0x20000...0x2A6DF, 0x2F800...0x2FA1F,
    ]

    /// Where `DisplayWidth` and glibc 2.36 differ on purpose. Code points glibc does not know (wcwidth -1 outside
    /// the controls: assigned after its Unicode 14 data) are not compared: the table and Swift's newer emoji data
    /// measure them.
    static func deliberateDifference(_ value: UInt32, ours: Int, glibc: Int) -> String? {
        // Control characters: wcwidth says -1 (not printable); here they take no column and are never drawn.
        if glibc == -1, ours == 0, value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
            return "control"
        }
        return nil
    }

    /// glibc's `wcwidth` (the Glibc module does not export it: `_XOPEN_SOURCE`), looked up in the process.
    func glibcWcwidth() throws -> (Int32) -> Int32 {
        #if canImport(Glibc)
        let process = dlopen(nil, RTLD_NOW)
        let symbol = try XCTUnwrap(dlsym(process, "wcwidth"), "no wcwidth")
        let function = unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
        return { function($0) }
        #else
        throw XCTSkip("glibc only")
        #endif
    }

    func testScalarWidthsMatchGlibcWcwidth() throws {
        #if canImport(Glibc)
        let wcwidth = try glibcWcwidth()
        let previous = setlocale(LC_CTYPE, nil).map { String(cString: $0) }
        guard setlocale(LC_CTYPE, "C.UTF-8") != nil else { throw XCTSkip("no C.UTF-8 locale") }
        defer { _ = setlocale(LC_CTYPE, previous ?? "C") }
        var compared = 0
        var differences: [String] = []
        for range in Self.comparedRanges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let glibc = Int(wcwidth(Int32(value)))
                let ours = DisplayWidth.of(scalar)
                if glibc == -1, Self.deliberateDifference(value, ours: ours, glibc: glibc) == nil { continue }  // unknown to glibc
                compared += 1
                if ours != glibc, Self.deliberateDifference(value, ours: ours, glibc: glibc) == nil {
                    differences.append("U+\(String(value, radix: 16, uppercase: true)): \(ours), glibc \(glibc)")
                }
            }
        }
        XCTAssertGreaterThan(compared, 90_000)
        XCTAssertEqual(differences, [], "\(differences.count) differences")
        // The controls, separately: no column.
        for value: UInt32 in [0x1, 0x1B, 0x7F, 0x85, 0x9B] {
            XCTAssertEqual(DisplayWidth.of(Unicode.Scalar(value)!), 0)
            XCTAssertEqual(wcwidth(Int32(value)), -1)
        }
        #else
        throw XCTSkip("glibc only")
        #endif
    }

    func testCharacterWidths() {
        let cases: [(String, Int, String)] = [
            ("a", 1, "ASCII"),
            ("é", 1, "precomposed"),
            ("e\u{301}", 1, "e and a combining acute"),
            ("o\u{308}\u{332}", 1, "o with a combining diaeresis and low line"),
            ("井", 2, "ideograph"),
            ("の", 2, "hiragana"),
            ("カ", 2, "katakana"),
            ("ｶ", 1, "halfwidth katakana"),
            ("한", 2, "Hangul syllable"),
            ("\u{1112}\u{1161}\u{11AB}", 2, "Hangul leading, vowel and final jamo: one syllable"),
            ("Ａ", 2, "fullwidth A"),
            ("、", 2, "ideographic comma"),
            ("　", 2, "ideographic space"),
            ("😀", 2, "emoji"),
            ("❤️", 2, "text heart with VS16"),
            ("❤", 1, "text heart"),
            ("👍🏽", 2, "skin tone"),
            ("👩‍💻", 2, "ZWJ sequence"),
            ("👩🏽‍💻", 2, "ZWJ sequence with a skin tone"),
            ("🇰🇷", 2, "flag"),
            ("🇯", 1, "a lone regional indicator"),
            ("1️⃣", 2, "keycap"),
            ("\u{200B}", 0, "zero-width space"),
            ("\u{200D}", 0, "a lone ZWJ"),
            ("\u{FE0F}", 0, "a lone variation selector"),
            ("\u{1B}", 0, "ESC"),
            ("\r\n", 0, "CR LF"),
            ("\u{85}", 0, "C1 NEL"),
        ]
        for (text, width, what) in cases {
            XCTAssertEqual(text.count, 1, what)
            XCTAssertEqual(DisplayWidth.of(Character(text)), width, what)
        }
        XCTAssertEqual(DisplayWidth.of("井字棋 game"), 11)
        XCTAssertEqual(DisplayWidth.of("민수의 게임"), 11)
    }

    func testTruncateCutsBetweenCharactersAndNeverSplitsAWideOne() {
        XCTAssertEqual(DisplayWidth.truncate("井字棋のゲーム", to: 14), "井字棋のゲーム")
        XCTAssertEqual(DisplayWidth.truncate("井字棋のゲーム", to: 13), "井字棋のゲー…")  // 12 + 1 columns
        XCTAssertEqual(DisplayWidth.truncate("井字棋のゲーム", to: 8), "井字棋…")  // 6 + 1: the 4th would straddle
        XCTAssertEqual(DisplayWidth.truncate("Zoe\u{308} Zoe\u{308}", to: 4), "Zoe\u{308}…")
        XCTAssertEqual(DisplayWidth.truncate("👩🏽‍💻👩🏽‍💻👩🏽‍💻", to: 5), "👩🏽‍💻👩🏽‍💻…")
        for columns in 0...16 {
            for text in ["井字棋のゲーム", "민수의 게임입니다", "a井b字c", "👩🏽‍💻x🇰🇷y"] {
                let cut = DisplayWidth.truncate(text, to: columns)
                XCTAssertLessThanOrEqual(DisplayWidth.of(cut), columns, "\(text) \(columns)")
                let fitted = DisplayWidth.fit(text, to: columns)
                XCTAssertEqual(DisplayWidth.of(fitted), columns, "\(text) \(columns)")
                // A prefix of whole characters (and the ellipsis).
                let kept = cut.hasSuffix("…") && !text.hasSuffix("…") ? String(cut.dropLast()) : cut
                XCTAssertTrue(text.hasPrefix(kept), "\(text) \(columns): \(cut)")
            }
        }
    }
}
