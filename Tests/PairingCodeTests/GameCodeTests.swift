import PairingCode
import XCTest

/// What a typed game code is, and what a code never shows.
final class GameCodeTests: XCTestCase {
    func testParsingIsLenientAboutSpacesAndDashes() throws {
        for input in ["123456", "123 456", "123-456", " 12 34 56 ", "1-2-3-4-5-6", "123456\n", "\t123456\r\n"] {
            XCTAssertEqual(try GameCode(parsing: input).revealed, "123456", input.debugDescription)
        }
        XCTAssertEqual(try GameCode(parsing: "000042").revealed, "000042")
        XCTAssertEqual(try GameCode(parsing: "000 000").revealed, "000000")
        XCTAssertEqual(try GameCode(parsing: Substring("99-99-99")).revealed, "999999")
    }

    func testParsingRefusesAnythingElseWithAClearError() {
        let cases: [(String, GameCodeError)] = [
            ("", .empty),
            ("  - ", .empty),
            ("12345", .wrongNumberOfDigits(5)),
            ("1234567", .wrongNumberOfDigits(7)),
            ("123 4567 890", .wrongNumberOfDigits(10)),
            ("12345a", .notDigits),
            ("123.456", .notDigits),
            ("+123456", .notDigits),
            ("１２３４５６", .notDigits),  // full-width digits
            ("١٢٣٤٥٦", .notDigits),  // Arabic-Indic digits
            ("open", .notDigits),
        ]
        for (input, expected) in cases {
            XCTAssertThrowsError(try GameCode(parsing: input), input) { error in
                XCTAssertEqual(error as? GameCodeError, expected, input)
            }
        }
        XCTAssertEqual(
            "\(GameCodeError.wrongNumberOfDigits(5))",
            "a game code is 6 digits (spaces and dashes are ignored), and this has 5")
        XCTAssertFalse("\(GameCodeError.notDigits)".contains("12345a"))
    }

    func testACodeNeverPrintsItsDigits() throws {
        let code = try GameCode(parsing: "314159")
        var dumped = ""
        dump(code, to: &dumped)
        for text in ["\(code)", String(reflecting: code), dumped, "\([code])"] {
            XCTAssertFalse(text.contains("314159"), text)
            XCTAssertFalse(text.contains("314"), text)
        }
        XCTAssertEqual("\(code)", "private game code (hidden)")
        XCTAssertEqual(code.revealed, "314159")
    }

    func testTheOpenCodeIsFixedAndUnlikeAnyPrivateCode() throws {
        XCTAssertTrue(GameCode.open.isOpen)
        XCTAssertNil(GameCode.open.revealed)
        XCTAssertEqual("\(GameCode.open)", "open game code")
        XCTAssertEqual(GameCode.openGamePassword, "tictactoe open game")
        XCTAssertNotEqual(GameCode.open, try GameCode(parsing: "000000"))
        XCTAssertThrowsError(try GameCode(parsing: GameCode.openGamePassword))
    }
}
