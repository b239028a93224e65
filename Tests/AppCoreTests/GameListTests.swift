import AppCore
import GameClient
import GameProtocol
import TextSupport
import TicTacToeTestSupport
import XCTest

/// The one list model every front end shows (`GameList`): order, counts, the not-answering state and its retry, and
/// rows cut with an ellipsis at any width.
final class GameListTests: XCTestCase {
    private var now: Duration = .zero

    private func listing(_ name: String, _ state: GameListing.State, address: String? = nil) -> GameListing {
        GameListing(name: name, state: state, host: address.map { _ in "\(name.lowercased()).local." },
                    addresses: address.map { [$0] } ?? [])
    }

    /// Joinable games first (by name), then those looked up, not answering and not joinable.
    func testJoinableGamesComeFirst() {
        var list = GameList()
        list.update([
            listing("zed", .joinable(.open)), listing("Apple", .notJoinable(reason: "no protocol version")),
            listing("dead", .notAnswering(since: .zero)), listing("bea", .joinable(.private)),
            listing("new", .lookingUp), listing("Al", .joinable(.plaintext)),
        ], at: now)
        XCTAssertEqual(list.games.map(\.name), ["Al", "bea", "zed", "new", "dead", "Apple"])
    }

    /// Only joinable games count as games.
    func testCountsOnlyJoinableGames() {
        func summary(_ games: [GameListing]) -> String { GameList.summary(of: games) }
        XCTAssertEqual(summary([]), "No games")
        XCTAssertEqual(summary([listing("a", .joinable(.open))]), "1 game")
        XCTAssertEqual(summary([listing("a", .joinable(.open)), listing("b", .joinable(.private))]), "2 games")
        XCTAssertEqual(summary([
            listing("a", .joinable(.open)), listing("b", .joinable(.open)), listing("c", .joinable(.plaintext)),
            listing("d", .notAnswering(since: .zero)),
        ]), "3 games, 1 not joinable")
        XCTAssertEqual(summary([listing("d", .notJoinable(reason: "x")), listing("e", .lookingUp)]),
                       "No games, 2 not joinable")
    }

    /// "Not answering" carries the time of the last failed attempt: kept while the browse repeats the same
    /// failure; tried again (looked up: Bonjour announced it again, or the browser's periodic retry), a new failure
    /// gets a new time; an answer makes it joinable, and where it was is kept while it does not answer.
    func testNotAnsweringIsAStateWithTheTimeOfTheLastFailure() {
        var list = GameList()
        list.update([listing("dead", .lookingUp)], at: now)
        XCTAssertEqual(list.games.first?.state, .lookingUp)
        now += .seconds(5)
        list.update([listing("dead", .notAnswering(since: .zero))], at: now)
        XCTAssertEqual(list.games.first?.state, .notAnswering(since: .seconds(5)))
        now += .seconds(30)
        list.update([listing("dead", .notAnswering(since: .zero))], at: now)
        XCTAssertEqual(list.games.first?.state, .notAnswering(since: .seconds(5)), "the same failure, repeated")
        XCTAssertEqual(list.games.count, 1, "listed while Bonjour lists it")
        XCTAssertEqual(list.summary, "No games, 1 not joinable")

        list.update([listing("dead", .lookingUp)], at: now)  // tried again
        XCTAssertEqual(list.games.first?.state, .lookingUp)
        now += .seconds(5)
        list.update([listing("dead", .notAnswering(since: .zero))], at: now)
        XCTAssertEqual(list.games.first?.state, .notAnswering(since: .seconds(40)), "a new failure: a new time")

        // It answered.
        list.update([listing("dead", .joinable(.open), address: "10.0.0.7")], at: now)
        XCTAssertEqual(list.games.first?.state, .joinable(.open))
        XCTAssertEqual(list.summary, "1 game")
        now += .seconds(20)
        list.update([listing("dead", .notAnswering(since: .zero))], at: now)
        XCTAssertEqual(list.games.first?.state, .notAnswering(since: .seconds(60)))
        XCTAssertEqual(list.games.first?.place, "dead.local 10.0.0.7", "a game not answering keeps where it was")
        list.update([listing("dead", .lookingUp)], at: now)
        XCTAssertEqual(list.games.first?.place, "dead.local 10.0.0.7", "and while it is looked up again")
    }

    /// A one-shot browse ends: a game still looked up did not answer in time.
    func testAOneShotBrowseReportsGamesStillLookedUpAsNotAnswering() {
        var list = GameList()
        list.update([listing("slow", .lookingUp), listing("ok", .joinable(.open))], at: now)
        now += .seconds(3)
        list.finish(at: now)
        XCTAssertEqual(list.games.map(\.state), [.joinable(.open), .notAnswering(since: .seconds(3))])
    }

    /// A game at one of this machine's addresses (scope and case aside) is "this machine".
    func testThisMachine() {
        var list = GameList(localAddresses: ["10.0.0.9", "FE80::1%eth0"])
        list.update([
            listing("mine", .joinable(.open), address: "fe80::1%eth1"), listing("theirs", .joinable(.open), address: "10.0.0.8"),
        ], at: now)
        XCTAssertEqual(list.games.map(\.place), ["this machine", "theirs.local 10.0.0.8"])
    }

    /// Rows take the width given, cut each column with "…" (wide characters count two), and never overflow.
    func testRowsFitTheWidthWithAnEllipsis() {
        let wide = GameListing(name: "日本語のゲーム-2", state: .joinable(.open), host: "host-b.local.", addresses: ["192.168.10.22"])
        let dead = GameListing(name: "a rather long game name that goes on", state: .notJoinable(reason: "uses security 'quantum' this version does not know"),
                               host: "host-with-a-long-name.local", addresses: ["fd00::1234:5678"])
        for width in [20, 46, 80, 100, 140] {
            for game in [wide, dead] {
                let row = GameList.row(game, width: width)
                XCTAssertEqual(DisplayWidth.of(row), width, "\(width): \(row)")
            }
        }
        XCTAssertEqual(GameList.row(wide, width: 100).trimmingCharacters(in: .whitespaces),
                       "日本語のゲーム-2  host-b.local 192.168.10.22")
        XCTAssertEqual(GameList.row(wide, width: 20), "日本語のゲ…  host-b…", "wide characters count two")
        let cut = GameList.row(dead, width: 46)
        XCTAssertTrue(cut.hasSuffix("…"), cut)
        XCTAssertEqual(cut, "a rather long gam…  host-with-a-lon…  (not jo…")
        XCTAssertEqual(GameList.row(dead, width: 140),
                       "a rather long game name that goes on  host-with-a-long-name.local fd00::1234:5678  "
                       + "(not joinable: uses security 'quantum' this version does…", "the state gets the rest, cut with …")
        // In a list the columns line up: the place starts in the same column on every row.
        let rows = GameList.rows([wide, dead], width: 100)
        XCTAssertEqual(rows.map(DisplayWidth.of), [100, 100])
        func placeColumn(_ row: String) -> Int? {
            row.range(of: "host-").map { DisplayWidth.of(String(row[..<$0.lowerBound])) }
        }
        XCTAssertEqual(placeColumn(rows[0]), 38, rows.joined(separator: "\n"))
        XCTAssertEqual(placeColumn(rows[1]), 38, rows.joined(separator: "\n"))
    }
}
