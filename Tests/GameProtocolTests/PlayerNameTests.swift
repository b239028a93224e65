import GameProtocol
import XCTest

/// The one rule for names (`PlayerName`): NFC, ASCII case-insensitive matching, 63 bytes cut at a character boundary.
final class PlayerNameTests: XCTestCase {
    private let composed = "Zo\u{EB}'s Game"  // ë as one scalar (NFC)
    private let decomposed = "Zoe\u{308}'s Game"  // e + COMBINING DIAERESIS (NFD)

    /// Bytes, not `String` equality: Swift's `==` already treats NFC and NFD as equal, the daemon does not.
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testNamesAreKeptInNFC() {
        XCTAssertNotEqual(bytes(composed), bytes(decomposed))
        XCTAssertEqual(bytes(PlayerName(decomposed).text), bytes(composed))
        XCTAssertEqual(bytes(PlayerName.normalized(decomposed)), bytes(composed))
        XCTAssertEqual(bytes(PlayerName.fitted(decomposed)), bytes(composed))
        XCTAssertEqual(PlayerName(decomposed).byteCount, 11)
        XCTAssertEqual(decomposed.utf8.count, 12)
        // Hangul typed as jamo is composed into syllables.
        XCTAssertEqual(bytes(PlayerName("\u{1100}\u{1161}").text), bytes("\u{AC00}"))
    }

    func testNFCAndNFDSpellingsMatch() {
        XCTAssertTrue(PlayerName.matches(decomposed, composed))
        XCTAssertTrue(PlayerName.matches(composed, decomposed))
        XCTAssertTrue(PlayerName(decomposed).matches(PlayerName(composed)))
    }

    func testASCIICaseIsFolded() {
        XCTAssertTrue(PlayerName.matches("zoe\u{308}'s game", composed))
        XCTAssertTrue(PlayerName.matches("BOB", "bob"))
        XCTAssertEqual(bytes(PlayerName("ZOË").matchKey), bytes("zoË"), "only A-Z are lowered")
        XCTAssertFalse(PlayerName.matches("bob", "bob "))
        XCTAssertFalse(PlayerName.matches("bob", "bobby"))
    }

    func testNonASCIICaseIsNotFolded() {
        XCTAssertFalse(PlayerName.matches("\u{D6}", "\u{F6}"), "Ö and ö are different names")
        XCTAssertFalse(PlayerName.matches("O\u{308}", "o\u{308}"), "Ö and ö in NFD too")
        XCTAssertFalse(PlayerName.matches("ΑΛΦΑ", "αλφα"))
        XCTAssertFalse(PlayerName.matches("straße", "STRASSE"))
        // The Kelvin sign is canonically K (NFC maps it), so it matches k as the ASCII letter does.
        XCTAssertTrue(PlayerName.matches("\u{212A}", "k"))
    }

    func testFittedCutsAt63BytesAtACharacterBoundary() {
        XCTAssertEqual(PlayerName.maximumBytes, 63)
        XCTAssertEqual(PlayerName.fitted("Bob's game"), "Bob's game")
        XCTAssertEqual(PlayerName.fitted(String(repeating: "a", count: 70)), String(repeating: "a", count: 63))
        // CJK: 3 bytes each, 21 fit exactly.
        let cjk = String(repeating: "日本語", count: 10)  // 90 bytes
        XCTAssertEqual(PlayerName.fitted(cjk), String(repeating: "日本語", count: 7))
        XCTAssertEqual(PlayerName.fitted(cjk).utf8.count, 63)
        // After 62 bytes of ASCII a CJK character (3 bytes) no longer fits: cut before it, never inside.
        let ascii62 = String(repeating: "a", count: 62)
        XCTAssertEqual(PlayerName.fitted(ascii62 + "日本"), ascii62)
        // Emoji: a family (7 scalars, 25 bytes) is one character and stays whole or goes whole.
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
        XCTAssertEqual(family.utf8.count, 25)
        XCTAssertEqual(PlayerName.fitted(family + family + family), family + family)
        let (ascii40, ascii38) = (String(repeating: "a", count: 40), String(repeating: "a", count: 38))
        XCTAssertEqual(PlayerName.fitted(ascii40 + family), ascii40)
        XCTAssertEqual(PlayerName.fitted(ascii38 + family), ascii38 + family)
        // A flag is two regional indicators (8 bytes): never split into one.
        XCTAssertEqual(PlayerName.fitted(String(repeating: "a", count: 59) + "🇯🇵"), String(repeating: "a", count: 59))
        // The limit counts NFC bytes: 31 "é" typed decomposed are 93 bytes but 62 in NFC, so nothing is cut.
        let decomposedAccents = String(repeating: "e\u{301}", count: 31) + "a"
        XCTAssertEqual(decomposedAccents.utf8.count, 94)
        let composedAccents = String(repeating: "\u{E9}", count: 31) + "a"
        XCTAssertEqual(bytes(PlayerName.fitted(decomposedAccents)), bytes(composedAccents))
    }

    func testFitsAndProblemApplyTheSameLimit() {
        XCTAssertTrue(PlayerName.fits(String(repeating: "a", count: 63)))
        XCTAssertFalse(PlayerName.fits(String(repeating: "a", count: 64)))
        XCTAssertTrue(PlayerName.fits(String(repeating: "e\u{301}", count: 31) + "a"), "63 bytes in NFC")
        XCTAssertNil(PlayerName.problem(with: String(repeating: "e\u{301}", count: 31) + "a"))
        XCTAssertEqual(PlayerName.problem(with: String(repeating: "\u{E9}", count: 32)), "this one has 64 bytes")
        XCTAssertEqual(PlayerName.problem(with: "   "), "this one is empty")
        XCTAssertEqual(PlayerName.problem(with: "a\u{202E}b"), "this one has a control or bidi character")
        XCTAssertEqual(PlayerName.problem(with: "evil\u{1B}[2J"), "this one has a control or bidi character")
        XCTAssertNil(PlayerName.problem(with: "日本語のゲーム"))
        XCTAssertEqual(PlayerName.limitText, "at most 63 bytes of UTF-8, the length of a DNS label")
    }
}
