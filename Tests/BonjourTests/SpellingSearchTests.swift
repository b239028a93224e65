@testable import Bonjour
import XCTest

/// A typed name finds the advertised spelling it matches (NFC, Unicode case folded); names are told apart by bytes.
final class SpellingSearchTests: XCTestCase {
    private let advertised = "Zo\u{EB}'s Game"  // NFC, as a host advertises it
    private let typed = "zoe\u{308}'s game"  // NFD, lower-case ASCII

    func testTheTypedNameIsResolvedInNFCFirst() {
        let search = SpellingSearch(typed: typed)
        XCTAssertEqual(Array(search.first.utf8), Array("zo\u{EB}'s game".utf8))
        XCTAssertEqual(search.tried, [Array("zo\u{EB}'s game".utf8)])
    }

    func testAMatchingAdvertisedSpellingIsResolvedOnce() {
        var search = SpellingSearch(typed: typed)
        XCTAssertNil(search.browsed("Bob's game"), "another game")
        XCTAssertNil(search.browsed("Z\u{D6}'s Game"), "another name")
        XCTAssertEqual(search.browsed(advertised).map { Array($0.utf8) }, Array(advertised.utf8))
        XCTAssertNil(search.browsed(advertised), "seen again on another interface: resolved already")
        XCTAssertEqual(search.advertised.map { Array($0.utf8) }, [Array(advertised.utf8)])
    }

    func testAnAdvertisedNFDSpellingIsResolvedAsAdvertised() {
        // A third-party peer may advertise NFD: Swift's == would call it the NFC name already tried, the daemon not.
        let advertisedNFD = "Zoe\u{308}'s Game"
        var search = SpellingSearch(typed: "Zo\u{EB}'s Game")
        XCTAssertEqual(search.browsed(advertisedNFD).map { Array($0.utf8) }, Array(advertisedNFD.utf8))
        XCTAssertEqual(Array(search.reportedName(answering: advertisedNFD).utf8), Array(advertisedNFD.utf8))
    }

    func testTheExactTypedNameIsNotResolvedTwice() {
        var search = SpellingSearch(typed: advertised)
        XCTAssertNil(search.browsed(advertised))
        XCTAssertEqual(search.reportedName(answering: advertised), advertised)
    }

    func testTheReportedNameIsTheAdvertisedSpelling() {
        var search = SpellingSearch(typed: typed)
        // The daemon answered the typed spelling (mDNS ignores ASCII case) before the browse saw anything.
        XCTAssertEqual(search.reportedName(answering: search.first), search.first)
        _ = search.browsed(advertised)
        XCTAssertEqual(Array(search.reportedName(answering: search.first).utf8), Array(advertised.utf8))
        XCTAssertEqual(Array(search.reportedName(answering: advertised).utf8), Array(advertised.utf8))
    }

    /// `join "ZOË's game"` finds the listed "Zoë's game": case is folded beyond ASCII (Unicode case folding).
    func testCaseIsFoldedBeyondASCII() {
        var search = SpellingSearch(typed: "ZO\u{CB}'s game")
        XCTAssertEqual(search.browsed("Zo\u{EB}'s game"), "Zo\u{EB}'s game", "Ë means ë")
        var other = SpellingSearch(typed: "\u{F6}")
        XCTAssertNil(other.browsed("o"), "ö is still not o")
        var german = SpellingSearch(typed: "STRASSE")
        XCTAssertNotNil(german.browsed("Stra\u{DF}e"), "SS means ß")
        var greek = SpellingSearch(typed: "\u{3A3}\u{39F}\u{3A6}\u{399}\u{391}\u{3A3}")  // ΣΟΦΙΑΣ
        XCTAssertNotNil(greek.browsed("\u{3C3}\u{3BF}\u{3C6}\u{3B9}\u{3B1}\u{3C2}"), "σοφιας, final sigma")
        var nfd = SpellingSearch(typed: "\u{D6}")
        XCTAssertNotNil(nfd.browsed("o\u{308}"), "Ö means ö in NFD")
    }

    /// A name nobody answered to is reported with the nearest name listed.
    func testTheNearestListedNameIsNamed() {
        var search = SpellingSearch(typed: "Zo\u{EB}'s gmae")
        XCTAssertNil(search.nearest, "nothing listed")
        for name in ["Bob's game", "Zo\u{EB}'s game", "Zed"] { _ = search.browsed(name) }
        XCTAssertEqual(search.nearest, "Zo\u{EB}'s game")
        var exact = SpellingSearch(typed: "BOB'S GAME")
        _ = exact.browsed("Bob's game")
        XCTAssertNil(exact.nearest, "the name itself is no suggestion")
        XCTAssertEqual("\(BonjourError.notFound(name: "Zo\u{EB}'s gmae", nearest: search.nearest))",
                       "no game named 'Zo\u{EB}'s gmae' answered on the local network; the nearest name listed is "
                        + "'Zo\u{EB}'s game' (see the names `tictactoe browse` lists)")
    }
}
