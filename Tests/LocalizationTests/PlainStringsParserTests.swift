import Foundation
import XCTest

@testable import Localization

/// The strings files are read without the property-list decoder when they are in the plain form this app ships
/// (the decoder is slow for the first frame); the decoder is the oracle: same values, and whatever the
/// plain reader does not take goes to the decoder, with its results and errors.
final class PlainStringsParserTests: XCTestCase {
    private let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets").path

    /// What the property-list decoder reads from `text`.
    private func decoded(_ text: String) throws -> [String: String] {
        try PropertyListDecoder().decode([String: String].self, from: Data(text.utf8))
    }

    func testEveryShippedStringsFileIsReadPlainWithTheDecodersValues() throws {
        var files = 0
        for language in Localization.shippedLanguages {
            for name in ["InfoPlist.strings", "Localizable.strings"] {
                let path = "\(assets)/\(language).lproj/\(name)"
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                files += 1
                let plain = try XCTUnwrap(PlainStringsParser.parse(Array(data)), "\(path) is not read plain")
                XCTAssertEqual(plain, try PropertyListDecoder().decode([String: String].self, from: data), path)
                XCTAssertEqual(try StringsTable(path: path, data: data).values, plain, path)
            }
        }
        XCTAssertEqual(files, 2 * Localization.shippedLanguages.count - 1, "en ships InfoPlist.strings alone")
    }

    func testCommentsEscapesAndSpacingReadAsTheDecoderReadsThem() throws {
        let text = """
            /* a comment with "quotes" and = and ; */
            // a line comment "x" = "y";
            "plain" = "text";
            "quote \\"inside\\"" = "back\\\\slash";\t"tab"="a\\tb";
            "lines" =
                "one\\ntwo\\r\\nthree";
            "Unicode “✓” 한국어" = "値 /* not a comment */ // nor this";
            """
        let plain = try XCTUnwrap(PlainStringsParser.parse(Array(text.utf8)))
        XCTAssertEqual(plain, try decoded(text))
        XCTAssertEqual(plain["quote \"inside\""], "back\\slash")
        XCTAssertEqual(plain["Unicode “✓” 한국어"], "値 /* not a comment */ // nor this")
    }

    func testWhatThePlainReaderDoesNotTakeGoesToTheDecoder() throws {
        let others: [(String, String)] = [
            ("a key alone", #""key";"#),
            ("unquoted words", "key = value;"),
            ("another escape", #""k" = "\U2713";"#),
            ("a key twice", #""k" = "1"; "k" = "2";"#),
            ("no entry", "/* nothing */"),
            ("a byte-order mark", "\u{FEFF}\"k\" = \"v\";"),
            ("an XML property list", #"<?xml version="1.0"?><plist><dict><key>k</key><string>v</string></dict></plist>"#),
            ("no semicolon", #""k" = "v""#),
            ("an unterminated comment", #""k" = "v"; /* no end"#),
            ("an unterminated string", #""k" = "v;"#),
            ("a line comment the decoder ends at CR", "\"a\" = \"1\"; // c\r\"b\" = \"2\";\n"),
            ("a line comment the decoder ends at U+2028", "\"a\" = \"1\"; // c\u{2028}\"b\" = \"2\";\n"),
            ("a line comment the decoder ends at U+2029", "\"a\" = \"1\"; // c\u{2029}\"b\" = \"2\";\n"),
        ]
        for (what, text) in others {
            XCTAssertNil(PlainStringsParser.parse(Array(text.utf8)), what)
            // StringsTable gives what the decoder gives (a table, or an error), as before.
            let table = try? StringsTable(path: "x.strings", data: Data(text.utf8))
            XCTAssertEqual(table?.values, try? decoded(text), what)
        }
        XCTAssertNil(PlainStringsParser.parse(Array(#""k" = "\#u{FF}";"#.utf8) + [0xFF]), "not UTF-8")
        // A byte that is not UTF-8 in a comment: the decoder refuses the whole file, and so does StringsTable.
        let latin1 = Array("/* caf".utf8) + [0xE9] + Array(" */ \"k\" = \"v\";".utf8)
        XCTAssertNil(PlainStringsParser.parse(latin1))
        XCTAssertThrowsError(try StringsTable(path: "x.strings", data: Data(latin1)))
        // Other characters of U+2000-U+2FFF in a line comment are fine (“quotes”, dashes — and …).
        let quotes = "// “a” — b…\n\"k\" = \"v\";"
        XCTAssertEqual(PlainStringsParser.parse(Array(quotes.utf8)), try decoded(quotes))
        XCTAssertNil(PlainStringsParser.parse([0x22, 0x6B, 0x22, 0x20, 0x3D, 0x20, 0x22, 0xC3, 0x22, 0x3B]), "not UTF-8")
    }
}
