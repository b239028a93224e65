@testable import AppCore
@testable import Bonjour
import GameClient
import GameProtocol
import TicTacToeTestSupport
import XCTest

/// A game browser whose events the test gives: each subscription gets them all, `stop()` ends it.
private final class ListingBrowser: GameBrowsing {
    private let feed: EventFeed<BrowserEvent>

    init(_ events: [BrowserEvent]) { feed = EventFeed(events) }

    var stops: Int { feed.finishes }

    func start() {}
    func stop() { feed.finish() }
    func events() -> AsyncStream<BrowserEvent> { feed.stream() }

    func setHiddenNames(_ names: Set<String>) {}

    func observe(_ handler: @escaping @Sendable (BrowserEvent) -> Void) -> BonjourSubscription {
        BonjourSubscription {}
    }

    func resolve(_ name: String, timeout: Duration) async throws -> ResolvedGame {
        throw BonjourError.notFound(name: name)
    }
}

/// `tictactoe browse` without --watch, in the app core: the browser's list when the time is up, through the one loop
/// the live search uses too.
final class OneShotBrowseTests: XCTestCase {
    /// `browse --timeout 3` with `browser`, on `clock`, reporting to `reports`.
    private static func browse(
        _ browser: ListingBrowser, clock: ManualClock, reports: Recorder<MatchReport>
    ) async -> ExitStatus {
        await browseGames(
            browser, BrowseRequest(duration: .seconds(3), watch: false, origin: .browseCommand), list: GameList(),
            clock: clock, reporter: ClosureReporter { reports.append($0) })
    }

    func testTheListWhenTimeIsUpIsReportedWithAGameStillLookedUpAsNotAnswering() async {
        let browser = ListingBrowser([
            .available,
            .updated([
                DiscoveredGame(name: "Slow", lookup: .pending),
                DiscoveredGame(name: "Alice", compatibility: .compatible(.open), host: "a.local.", addresses: ["10.0.0.1"]),
            ]),
        ])
        let clock = ManualClock()
        let reports = Recorder<MatchReport>()
        let browse = Task { await OneShotBrowseTests.browse(browser, clock: clock, reports: reports) }
        await clock.waitForSleepers(1)  // the three seconds
        XCTAssertTrue(reports.all.isEmpty, "nothing is reported before the time is up: \(reports.all)")
        await clock.advance(by: .seconds(3))
        let status = await browse.value
        XCTAssertEqual(status, .success)
        let games = reports.all.compactMap { report -> GameListing? in
            if case .discovery(.game(let game)) = report { return game }
            return nil
        }
        XCTAssertEqual(games.map(\.name), ["Alice", "Slow"], "joinable first")
        XCTAssertEqual(games.map(\.state), [.joinable(.open), .notAnswering(since: .seconds(3))])
        XCTAssertGreaterThan(browser.stops, 0)
    }

    func testAnEmptyNetworkIsOneNoGamesReport() async {
        let browser = ListingBrowser([.available, .updated([])])
        let clock = ManualClock()
        let reports = Recorder<MatchReport>()
        let browse = Task { await OneShotBrowseTests.browse(browser, clock: clock, reports: reports) }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(3))
        let status = await browse.value
        XCTAssertEqual(status, .success)
        guard case .discovery(.noGames)? = reports.all.first, reports.all.count == 1 else {
            return XCTFail("\(reports.all)")
        }
    }

    func testWithoutADaemonItEndsAtOnceWithExit10() async {
        let browser = ListingBrowser([.unavailable(.unavailable)])
        let reports = Recorder<MatchReport>()
        let status = await Self.browse(browser, clock: ManualClock(), reports: reports)
        XCTAssertEqual(status, .bonjourUnavailable)
        XCTAssertEqual(status.rawValue, 10)
        guard case .error(_, .bonjourUnavailable)? = reports.all.last else { return XCTFail("\(reports.all)") }
        XCTAssertEqual(reports.all.count, 1, "no list after the failure: \(reports.all)")
        XCTAssertGreaterThan(browser.stops, 0)
    }
}
