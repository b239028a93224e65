import Bonjour
import TicTacToeTestSupport
import XCTest

/// The fakes a UI is tested with behave like the real browser and advertiser towards subscribers.
final class FakeDiscoveryTests: XCTestCase {
    private func next<T>(_ iterator: inout AsyncStream<T>.Iterator) async -> T? { await iterator.next() }

    func testSubscribersGetTheCurrentStateThenChanges() async {
        let browser = FakeGameBrowser()
        browser.setAvailable(true)
        browser.show([DiscoveredGame(name: "alice", compatibility: .compatible(.open))])
        var events = browser.events().makeAsyncIterator()
        let first = await events.next()
        XCTAssertEqual(first, .available)
        let second = await events.next()
        XCTAssertEqual(second, .updated([DiscoveredGame(name: "alice", compatibility: .compatible(.open))]))
        browser.setHiddenNames(["alice"])
        let third = await events.next()
        XCTAssertEqual(third, .updated([]))
        browser.setAvailable(false)
        let fourth = await events.next()
        XCTAssertEqual(fourth, .unavailable(.unavailable))
        let fifth = await events.next()
        XCTAssertEqual(fifth, .updated([]))
        browser.stop()
        let end = await events.next()
        XCTAssertNil(end, "stop() ends subscriptions")
    }

    func testObserversAndStreamsSeeTheSameOrder() async {
        let browser = FakeGameBrowser()
        let received = Recorder<BrowserEvent>()
        let subscription = browser.observe { received.append($0) }
        var stream = browser.events().makeAsyncIterator()
        _ = await stream.next()  // replay: the (empty) list
        let games = (0..<20).map { DiscoveredGame(name: "g\($0)", compatibility: .compatible(.open)) }
        for count in 1...20 { browser.show(Array(games.prefix(count))) }
        var last: BrowserEvent?
        for _ in 1...20 { last = await stream.next() }
        XCTAssertEqual(last, .updated(games))
        XCTAssertEqual(received.all.count, 21)
        XCTAssertEqual(received.all.last, .updated(games))
        subscription.cancel()
        browser.show([])
        _ = await stream.next()
        XCTAssertEqual(received.all.count, 21, "a cancelled subscription hears nothing more")
    }

    func testFakeAdvertiserRecordsCallsAndReportsRegistration() async {
        let advertiser = FakeGameAdvertiser(autoRegisterName: "alice #2")
        var events = advertiser.events().makeAsyncIterator()
        advertiser.advertise(port: 7878)
        let registered = await events.next()
        XCTAssertEqual(registered, .registered(name: "alice #2"))
        advertiser.withdraw()
        let withdrawn = await events.next()
        XCTAssertEqual(withdrawn, .withdrawn)
        advertiser.report(.unavailable(.unavailable))
        let unavailable = await events.next()
        XCTAssertEqual(unavailable, .unavailable(.unavailable))
        advertiser.stop()
        let end = await events.next()
        XCTAssertNil(end)
        XCTAssertEqual(advertiser.calls, [.advertise(port: 7878), .withdraw, .stop])
    }

    func testOurOwnInstanceIsHiddenUnderTheNameActuallyRegistered() async {
        let browser = FakeGameBrowser()
        let advertiser = FakeGameAdvertiser()
        let hiding = browser.hideOwnInstance(of: advertiser)
        browser.show([DiscoveredGame(name: "alice", compatibility: .compatible(.open)),
                      DiscoveredGame(name: "alice #2", compatibility: .compatible(.open))])
        var events = browser.events().makeAsyncIterator()
        _ = await events.next()
        advertiser.report(.registered(name: "alice #2"))  // Avahi renamed us
        let list = await events.next()
        XCTAssertEqual(list, .updated([DiscoveredGame(name: "alice", compatibility: .compatible(.open))]))
        XCTAssertEqual(browser.hiddenNames, ["alice #2"])
        hiding.cancel()
    }

    func testFakeResolution() async throws {
        let browser = FakeGameBrowser()
        do {
            _ = try await browser.resolve("nobody", timeout: .seconds(1))
            XCTFail("expected notFound")
        } catch let error as BonjourError {
            XCTAssertEqual(error, .notFound(name: "nobody"))
        }
    }
}
