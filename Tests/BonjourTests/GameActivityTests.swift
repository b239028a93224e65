import Bonjour
import GameProtocol
import XCTest

/// What a host's TXT record says about its match (`state=playing`, `watch=N`), written and read back, and carried by
/// the browser's list.
final class GameActivityTests: XCTestCase {
    func testTheRecordSaysPlayingAndTheRoomForSpectatorsAfterTheSecurity() {
        XCTAssertEqual(
            GameService.txtRecord(security: .open, activity: GameActivity(playing: true, spectatorRoom: 2)).wire,
            [7] + Array("proto=2".utf8) + [8] + Array("sec=open".utf8) + [13] + Array("state=playing".utf8)
                + [7] + Array("watch=2".utf8))
        // A free host without spectators advertises what it always did.
        XCTAssertEqual(GameService.txtRecord(security: .private, activity: GameActivity()),
                       GameService.txtRecord(security: .private))
    }

    func testReadingItBackAndWhatCannotBeReadCountsAsFree() {
        for activity in [GameActivity(), GameActivity(playing: true), GameActivity(playing: true, spectatorRoom: 8),
                         GameActivity(spectatorRoom: 1)] {
            XCTAssertEqual(GameService.activity(of: GameService.txtRecord(security: .open, activity: activity)), activity)
        }
        let odd = TXTRecord(["proto": "2", "sec": "open", "state": "dancing", "watch": "lots"])
        XCTAssertEqual(GameService.activity(of: odd), GameActivity())
        XCTAssertEqual(GameService.activity(of: TXTRecord(["watch": "-3"])).spectatorRoom, 0)
        XCTAssertEqual(GameService.activity(of: TXTRecord(["watch": "100000"])).spectatorRoom, 999)
        // The game itself stays joinable whatever it says about its match (the join is told it is busy).
        XCTAssertEqual(GameService.compatibility(of: GameService.txtRecord(security: .open,
                                                                           activity: GameActivity(playing: true))),
                       .compatible(.open))
    }

    func testTheBrowsersListCarriesWhatTheLastResolveSaid() {
        var registry = BrowseRegistry()
        XCTAssertEqual(registry.add("Ann", interface: 2), .appeared)
        XCTAssertEqual(registry.games().first?.activity, GameActivity())
        registry.classify("Ann", as: .compatible(.open), activity: GameActivity(playing: true, spectatorRoom: 1))
        XCTAssertEqual(registry.games().first?.activity, GameActivity(playing: true, spectatorRoom: 1))
        registry.classify("Ann", as: .compatible(.open), activity: GameActivity())
        XCTAssertEqual(registry.games().first?.activity, GameActivity(), "free again after the match")
    }
}
