import Bonjour
import GameProtocol
import XCTest

final class BrowseRegistryTests: XCTestCase {
    func testDedupesAcrossInterfacesAndIPVersions() {
        var registry = BrowseRegistry()
        XCTAssertEqual(registry.add("alice", interface: 2), .appeared)
        XCTAssertEqual(registry.add("alice", interface: 2), .unchanged, "same interface, the other IP version")
        XCTAssertEqual(registry.add("alice", interface: 3), .unchanged, "another interface")
        registry.classify("alice", as: .compatible(.open))
        XCTAssertEqual(registry.games(), [DiscoveredGame(name: "alice", compatibility: .compatible(.open))])
        XCTAssertEqual(registry.remove("alice", interface: 2), .unchanged)
        XCTAssertEqual(registry.remove("alice", interface: 3), .unchanged)
        XCTAssertEqual(registry.games().count, 1, "still seen once on interface 2")
        XCTAssertEqual(registry.remove("alice", interface: 2), .disappeared)
        XCTAssertEqual(registry.games(), [])
    }

    func testUnclassifiedNamesAreListedWhileTheyAreLookedUp() {
        var registry = BrowseRegistry()
        _ = registry.add("bob", interface: 2)
        XCTAssertEqual(registry.unclassifiedNames, ["bob"])
        XCTAssertEqual(registry.games(), [DiscoveredGame(name: "bob", lookup: .pending)], "listed while Bonjour lists it")
        registry.classify("bob", as: .incompatible(reason: "x"))
        XCTAssertEqual(registry.games(), [DiscoveredGame(name: "bob", compatibility: .incompatible(reason: "x"))])
        XCTAssertEqual(registry.unclassifiedNames, [])
    }

    /// The browser lists a game at its first address only while its lookup is pending (no wait for the
    /// other IP version first): a first lookup and a retry of one that did not answer, never a quiet refresh of a
    /// game that answered (it stays listed as it was until the refresh ends), nor a name that went.
    func testOnlyAFirstLookupOrARetryIsPending() {
        var registry = BrowseRegistry()
        XCTAssertFalse(registry.isPending("carol"), "never seen")
        _ = registry.add("carol", interface: 2)
        XCTAssertTrue(registry.isPending("carol"), "first lookup")
        registry.classify("carol", as: .compatible(.open), addresses: ["198.18.0.2"])
        XCTAssertFalse(registry.isPending("carol"), "answered: a refresh is quiet")
        registry.notAnswering("carol")
        XCTAssertFalse(registry.isPending("carol"), "not answering until it is tried again")
        XCTAssertTrue(registry.retry("carol"))
        XCTAssertTrue(registry.isPending("carol"), "tried again")
        XCTAssertEqual(registry.remove("carol", interface: 2), .disappeared)
        XCTAssertFalse(registry.isPending("carol"), "gone")
    }

    func testClassificationIsForgottenWhenTheNameGoes() {
        var registry = BrowseRegistry()
        _ = registry.add("bob", interface: 2)
        registry.classify("bob", as: .compatible(.open))
        _ = registry.remove("bob", interface: 2)
        XCTAssertEqual(registry.add("bob", interface: 2), .appeared, "back: resolve it again")
        XCTAssertEqual(registry.games(), [DiscoveredGame(name: "bob", lookup: .pending)])
        registry.classify("gone", as: .compatible(.open))  // a late answer for a name that left: ignored
        XCTAssertEqual(registry.unclassifiedNames, ["bob"])
    }

    /// A name whose resolve got no answer stays listed, as not answering; Bonjour announcing it again resolves it
    /// again.
    func testNotAnsweringIsAStateRetriedWhenAnnouncedAgain() {
        var registry = BrowseRegistry()
        _ = registry.add("dead", interface: 2)
        registry.notAnswering("dead")
        XCTAssertEqual(registry.games(), [DiscoveredGame(name: "dead", lookup: .notAnswering)])
        XCTAssertEqual(registry.unclassifiedNames, [])
        XCTAssertEqual(registry.add("dead", interface: 2), .appeared, "re-announced: resolve it again")
        XCTAssertEqual(registry.games(), [DiscoveredGame(name: "dead", lookup: .pending)])
        registry.classify("dead", as: .compatible(.open), host: "h.local.", addresses: ["10.0.0.1"])
        XCTAssertEqual(registry.games(), [DiscoveredGame(
            name: "dead", lookup: .answered(.compatible(.open), host: "h.local.", addresses: ["10.0.0.1"]))])
        XCTAssertEqual(registry.add("dead", interface: 3), .unchanged, "answered: another interface changes nothing")
        XCTAssertFalse(registry.retry("dead"), "only a name not answering is tried again")
        registry.notAnswering("dead")
        XCTAssertTrue(registry.retry("dead"), "the browser's periodic retry")
        XCTAssertEqual(registry.games(), [DiscoveredGame(name: "dead", lookup: .pending)])
        XCTAssertFalse(registry.retry("gone"))
    }

    func testRemovesNeverAddedAreIgnored() {
        var registry = BrowseRegistry()
        XCTAssertEqual(registry.remove("ghost", interface: 2), .unchanged)
        _ = registry.add("a", interface: 2)
        XCTAssertEqual(registry.remove("a", interface: 9), .unchanged)
        XCTAssertTrue(registry.isPresent("a"))
    }

    func testHiddenNamesAndSorting() {
        var registry = BrowseRegistry()
        for name in ["carol", "Bob", "alice", "me"] {
            _ = registry.add(name, interface: 1)
            registry.classify(name, as: .compatible(.open))
        }
        XCTAssertEqual(registry.games(hiding: ["me"]).map(\.name), ["alice", "Bob", "carol"])
    }

    func testFlushForgetsEverything() {
        var registry = BrowseRegistry()
        _ = registry.add("a", interface: 1)
        registry.classify("a", as: .compatible(.open))
        registry.flush()
        XCTAssertEqual(registry.games(), [])
        XCTAssertEqual(registry.add("a", interface: 1), .appeared)
    }

    /// A listed game follows its TXT record as the live query reports it (no waiting for a refresh): a match starts
    /// and ends, a host restarts under the same name with another record; the newest record still present counts.
    func testALiveTXTRecordRelistsAGameAtOnce() {
        func wire(_ security: GameSecurity, playing: Bool = false, watch: Int = 0) -> [UInt8] {
            GameService.txtRecord(security: security, activity: GameActivity(playing: playing, spectatorRoom: watch)).wire
        }
        var registry = BrowseRegistry()
        _ = registry.add("dana", interface: 2)
        XCTAssertFalse(registry.txt(wire(.open), of: "dana", interface: 2, added: true), "not answered yet")
        registry.classify("dana", as: .compatible(.open), host: "host-a.local.", addresses: ["198.18.0.11"])
        XCTAssertFalse(registry.txt(wire(.open), of: "dana", interface: 2, added: true), "the record it resolved")
        XCTAssertTrue(registry.txt(wire(.open, playing: true, watch: 2), of: "dana", interface: 2, added: true))
        XCTAssertEqual(registry.games(), [DiscoveredGame(
            name: "dana", compatibility: .compatible(.open), host: "host-a.local.", addresses: ["198.18.0.11"],
            activity: GameActivity(playing: true, spectatorRoom: 2))])
        // The old record's removal (the cache flush a moment later) changes nothing: the new one is listed.
        XCTAssertFalse(registry.txt(wire(.open), of: "dana", interface: 2, added: false))
        XCTAssertTrue(registry.txt(wire(.open), of: "dana", interface: 2, added: true), "the match is over")
        XCTAssertEqual(registry.games().first?.activity, GameActivity())
        XCTAssertTrue(registry.txt(wire(.private, playing: true), of: "dana", interface: 2, added: true))
        XCTAssertFalse(registry.txt(wire(.open), of: "dana", interface: 2, added: false))
        XCTAssertEqual(registry.games().first?.compatibility, .compatible(.private))
        // Restarted under the same name (no goodbye): a new open game's record replaces "playing, private".
        XCTAssertTrue(registry.txt(wire(.open), of: "dana", interface: 2, added: true))
        XCTAssertEqual(registry.games(), [DiscoveredGame(
            name: "dana", compatibility: .compatible(.open), host: "host-a.local.", addresses: ["198.18.0.11"])])
        XCTAssertFalse(registry.txt(wire(.private, playing: true), of: "dana", interface: 2, added: false))
        // A quiet refresh that read an older record does not undo the newer one the query reported.
        registry.classify("dana", as: .compatible(.private), activity: GameActivity(playing: true),
                          host: "host-a.local.", addresses: ["198.18.0.11"])
        XCTAssertEqual(registry.games().first?.compatibility, .compatible(.open))
        XCTAssertEqual(registry.games().first?.activity, GameActivity())
        // Gone: its records are forgotten with it.
        XCTAssertEqual(registry.remove("dana", interface: 2), .disappeared)
        XCTAssertFalse(registry.txt(wire(.open, playing: true), of: "dana", interface: 2, added: true))
    }

    /// A record whose only address is loopback (or multicast, unspecified) is listed, not joinable, saying why; its
    /// TXT record does not make it joinable.
    func testARecordNamingOnlyRefusedAddressesIsNotJoinable() {
        var registry = BrowseRegistry()
        _ = registry.add("loop", interface: 2)
        registry.classify("loop", as: .compatible(.open), host: "evil.local.", addresses: [],
                          refused: [RefusedAddress(address: "127.0.0.1", scope: .loopback)])
        let game = registry.games().first
        XCTAssertEqual(game?.isJoinable, false, "\(String(describing: game))")
        XCTAssertEqual(game?.compatibility, .incompatible(
            reason: "its record names no address on the LAN, only 127.0.0.1 (loopback: this machine itself, not a "
                + "host on the LAN)"))
        _ = registry.txt(GameService.txtRecord(security: .open).wire, of: "loop", interface: 2, added: true)
        XCTAssertEqual(registry.games().first?.isJoinable, false)
        // A usable address next to a refused one: joinable (the join skips the refused one).
        registry.classify("loop", as: .compatible(.open), host: "evil.local.", addresses: ["198.18.0.11"],
                          refused: [RefusedAddress(address: "127.0.0.1", scope: .loopback)])
        XCTAssertEqual(registry.games().first?.isJoinable, true)
    }

    func testTheFullNameOfAnInstanceEscapesDotsBackslashesAndControls() {
        XCTAssertEqual(GameService.fullName(instance: "Zo\u{EB}'s game"), "Zo\u{EB}'s game._tictactoe._tcp.local.")
        XCTAssertEqual(GameService.fullName(instance: "a.b\\c\u{1}"), "a\\.b\\\\c\\001._tictactoe._tcp.local.")
    }
}

final class DebouncerTests: XCTestCase {
    let t0 = ContinuousClock.now

    func testALoneChangeIsDueAtOnce() {
        var debouncer = Debouncer(quiet: .milliseconds(100), maxDelay: .milliseconds(400))
        XCTAssertNil(debouncer.deadline)
        XCTAssertEqual(debouncer.changed(at: t0), t0, "no fixed delay on the first change")
        XCTAssertTrue(debouncer.fire(at: t0))
        XCTAssertNil(debouncer.deadline, "the update went out")
        // A quiet spell later, the next lone change is due at once too.
        XCTAssertEqual(debouncer.changed(at: t0 + .milliseconds(100)), t0 + .milliseconds(100))
    }

    func testChangesRightAfterAnUpdateWaitForAQuietPeriod() {
        var debouncer = Debouncer(quiet: .milliseconds(100), maxDelay: .milliseconds(400))
        debouncer.changed(at: t0)
        XCTAssertTrue(debouncer.fire(at: t0))
        XCTAssertEqual(debouncer.changed(at: t0 + .milliseconds(10)), t0 + .milliseconds(110))
        XCTAssertEqual(debouncer.changed(at: t0 + .milliseconds(60)), t0 + .milliseconds(160))
        XCTAssertFalse(debouncer.fire(at: t0 + .milliseconds(120)))
        XCTAssertTrue(debouncer.fire(at: t0 + .milliseconds(160)))
        XCTAssertNil(debouncer.deadline, "the burst is over")
        XCTAssertFalse(debouncer.fire(at: t0 + .seconds(10)))
    }

    func testASecondChangeBeforeTheFirstWentOutJoinsIt() {
        var debouncer = Debouncer(quiet: .milliseconds(100), maxDelay: .milliseconds(400))
        XCTAssertEqual(debouncer.changed(at: t0), t0)
        XCTAssertEqual(debouncer.changed(at: t0 + .milliseconds(1)), t0 + .milliseconds(101), "now a burst")
    }

    func testASteadyStreamStillShowsWithinMaxDelay() {
        var debouncer = Debouncer(quiet: .milliseconds(100), maxDelay: .milliseconds(400))
        debouncer.changed(at: t0)
        XCTAssertTrue(debouncer.fire(at: t0))
        var now = t0 + .milliseconds(10)
        var deadline = debouncer.changed(at: now)
        for _ in 0..<10 {
            now = now + .milliseconds(60)
            deadline = debouncer.changed(at: now)
        }
        XCTAssertEqual(deadline, t0 + .milliseconds(410))
        XCTAssertTrue(debouncer.fire(at: t0 + .milliseconds(410)))
    }

    func testAnUpdateSentOtherwiseStartsTheQuietPeriod() {
        var debouncer = Debouncer(quiet: .milliseconds(100), maxDelay: .milliseconds(400))
        debouncer.changed(at: t0)
        debouncer.flushed(at: t0 + .milliseconds(5))
        XCTAssertNil(debouncer.deadline, "flushed with the update")
        XCTAssertEqual(debouncer.changed(at: t0 + .milliseconds(50)), t0 + .milliseconds(150))
    }

    func testResetDropsThePendingUpdate() {
        var debouncer = Debouncer()
        debouncer.changed(at: t0)
        debouncer.reset()
        XCTAssertNil(debouncer.deadline)
        XCTAssertFalse(debouncer.fire(at: t0 + .seconds(1)))
    }
}

final class BackoffTests: XCTestCase {
    func testDoublesUpToTheMaximumAndResets() {
        var backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(4))
        let delays = (0..<8).map { _ in backoff.next() }
        XCTAssertEqual(delays, [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4),
                                .seconds(4), .seconds(4), .seconds(4)])
        backoff.reset()
        XCTAssertEqual(backoff.next(), .milliseconds(250))
    }

    func testManyAttemptsDoNotOverflow() {
        var backoff = Backoff()
        for _ in 0..<100 { _ = backoff.next() }
        XCTAssertEqual(backoff.next(), .seconds(4))
    }

}
