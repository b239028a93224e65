import AppCore
import Bonjour
import GameClient
import XCTest

/// How games are listed: security from Bonjour's compatibility, and the text lines of `browse` and `browse --watch`.
/// (The `--json` entries are pinned in JSONLinesTests.)
final class GameListingTests: XCTestCase {
    /// A discovered game's TXT record decides its listing: joinable with its security, or not with the reason.
    func testListingsCarryTheSecurityTheTXTRecordAdvertised() {
        func listing(_ txt: TXTRecord) -> GameListing {
            GameListing(DiscoveredGame(name: "g", compatibility: GameService.compatibility(of: txt)))
        }
        let open = listing(GameService.txtRecord(security: .open))
        XCTAssertEqual(open, GameListing(name: "g", security: .open))
        XCTAssertTrue(open.compatible && open.isSecure && !open.isPrivate)
        let secret = listing(GameService.txtRecord(security: .private))
        XCTAssertEqual(secret, GameListing(name: "g", security: .private))
        XCTAssertTrue(secret.compatible && secret.isSecure && secret.isPrivate)
        let plain = listing(GameService.txtRecord(security: .plaintext))
        XCTAssertEqual(plain, GameListing(name: "g", security: .plaintext))
        XCTAssertTrue(plain.compatible && !plain.isSecure && !plain.isPrivate)
        let unknown = listing(TXTRecord(["proto": "2", "sec": "quantum"]))
        XCTAssertEqual(unknown.security, nil)
        XCTAssertFalse(unknown.compatible || unknown.isSecure || unknown.isPrivate)
        XCTAssertEqual(unknown.reason, "uses security 'quantum' this version does not know; update tictactoe")
    }

    /// The text listing says where each game is (host and address, or this machine) and when it does not answer.
    func testTextListingSaysWhereAndWhetherItAnswers() {
        let games = [
            GameListing(name: "Ada", state: .joinable(.open), host: "host-a.local.", addresses: ["fe80::1%eth0", "10.0.0.2"]),
            GameListing(name: "Me", state: .joinable(.private), host: "mine.local", addresses: ["10.0.0.9"], isThisMachine: true),
            GameListing(name: "Gone", state: .notAnswering(since: .zero), host: "host-g.local", addresses: ["10.0.0.7"]),
        ]
        XCTAssertEqual(games.map { DiscoveryReport.game($0).textLine?.0 }, [
            "Ada  on host-a.local 10.0.0.2", "Me  on this machine  (private: needs a code)",
            "Gone  on host-g.local 10.0.0.7  (not answering)",
        ])
    }

    /// A discovered game not resolved yet is looked up; one that did not answer is not answering (`GameList` sets
    /// since when).
    func testDiscoveredGamesNotAnsweredYet() {
        XCTAssertEqual(GameListing(DiscoveredGame(name: "a", lookup: .pending)).state, .lookingUp)
        XCTAssertEqual(GameListing(DiscoveredGame(name: "a", lookup: .notAnswering)).state, .notAnswering(since: .zero))
        let answered = GameListing(DiscoveredGame(
            name: "a", lookup: .answered(.compatible(.open), host: "h.local.", addresses: ["10.0.0.1"])))
        XCTAssertEqual(answered, GameListing(name: "a", state: .joinable(.open), host: "h.local", addresses: ["10.0.0.1"]))
    }

    /// The text listing (`browse`, `browse --watch`) marks a private game and an unencrypted one after its name.
    func testTextListingMarksPrivateAndUnencryptedGames() {
        let games = [
            GameListing(name: "Ada", security: .open),
            GameListing(name: "Bea", security: .private),
            GameListing(name: "Cy", security: .plaintext),
            GameListing(name: "Dee", notJoinableBecause: "no security mode advertised"),
        ]
        XCTAssertEqual(games.map { DiscoveryReport.game($0).textLine?.0 }, [
            "Ada", "Bea  (private: needs a code)", "Cy  (unencrypted, protocol 1)",
            "Dee  (not joinable: no security mode advertised)",
        ])
        XCTAssertEqual(DiscoveryReport.games(games).textLine?.0, """
            Games: 3 games, 1 not joinable
              Ada
              Bea  (private: needs a code)
              Cy  (unencrypted, protocol 1)
              Dee  (not joinable: no security mode advertised)
            """)
    }
}
