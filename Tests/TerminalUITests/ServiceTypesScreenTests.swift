import GameClient
import TerminalUI
import TerminalWidgets
import XCTest

/// "All services on this network" (s on the Search screen): every service type on the LAN, through the gate's own
/// check (the multicast entitlement, then permission, as Search asks for its own).
final class ServiceTypesScreenTests: XCTestCase {
    func testSOnSearchListsEveryServiceTypeAndQGoesBackToSearching() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy(state: .allowed)
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.available), .discovery(.games([])), .keys("s"),
            .serviceTypes(.available), .serviceTypes(.types(["_http._tcp", "_ipp._tcp", "_ssh._tcp"])),
        ])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertEqual(privacy.verdictRequests, [.search, .browseServiceTypes])
        XCTAssertEqual(network.typeListings.count, 1)
        XCTAssertTrue(try XCTUnwrap(network.browseHandles.first).cancelled, "the game search stops meanwhile")
        let frame = terminal.lastFrame
        XCTAssertTrue(frame.contains("All services on this network"), frame)
        let lines = frame.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let rows = ["_http._tcp", "_ipp._tcp", "_ssh._tcp"].map { type in lines.firstIndex(of: type) ?? -1 }
        XCTAssertFalse(rows.contains(-1), frame)
        XCTAssertEqual(rows, rows.sorted(), frame)
        XCTAssertTrue(frame.contains("3 service types"), frame)
        XCTAssertTrue(frame.contains("q back to the search"), frame)
        // The empty search says how to get here.
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("s shows all services on this network.") })

        let back = FakeTerminal(script: [
            .keys("s"), .discovery(.games([])), .keys("s"), .serviceTypes(.types(["_http._tcp"])), .keys("q"),
        ])
        let network2 = FakeNetwork()
        try runApp(back, network: network2, privacy: privacy)
        XCTAssertTrue(try XCTUnwrap(network2.typeListings.first).cancelled, "leaving stops the listing")
        XCTAssertEqual(network2.browses, 2, "back on Search, searching again")
        XCTAssertTrue(back.lastFrame.contains("Search for games"), back.lastFrame)
    }

    func testTheListingWaitsForThePromptLikeAnyLANOperation() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy(state: .notDetermined)
        // Search asks first (Don't Allow: it waits); then s asks again for this view, and OK lets it go.
        let terminal = FakeTerminal(script: [.keys("s"), .keys("d"), .keys("s")])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertEqual(network.typeListings.count, 1, "denied: the listing runs, and waits saying why")
        XCTAssertTrue(terminal.frames.contains { flattened($0.text).contains("Not searching") }, "Search after d")
        let waiting = FakeTerminal(script: [
            .keys("s"), .keys("s"),
            .serviceTypes(.waiting("local network permission denied: turn on Local Network in Settings › Privacy")),
        ])
        let network2 = FakeNetwork()
        try runApp(waiting, network: network2, privacy: privacy)
        XCTAssertTrue(waiting.lastFrame.contains("Not looking: local network access is not allowed yet."),
                      waiting.lastFrame)
        XCTAssertTrue(waiting.lastFrame.contains("Local network permission denied"), waiting.lastFrame)
        // q goes back to Search, which searches again and says why it waits too.
        let denied = "local network permission denied: turn on Local Network in Settings › Privacy"
        let back = FakeTerminal(script: [
            .keys("s"), .keys("s"), .serviceTypes(.waiting(denied)), .keys("q"), .discoveryUpdate(.waiting(denied)),
        ])
        try runApp(back, network: FakeNetwork(), privacy: privacy)
        XCTAssertTrue(back.lastFrame.contains("Search for games"), back.lastFrame)
        XCTAssertTrue(back.lastFrameWords.contains("Not searching"), back.lastFrame)

        privacy.reset()
        let asking = FakeTerminal(script: [.keys("s"), .key(.enter), .keys("s")])
        let network3 = FakeNetwork()
        try runApp(asking, network: network3, privacy: privacy)
        XCTAssertEqual(privacy.answers.last, true)
        XCTAssertEqual(network3.typeListings.count, 1)
    }

    func testWithoutTheMulticastEntitlementItFailsAtOnceAndAsksNothing() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy(state: .notDetermined)
        privacy.missingMulticastEntitlement = true
        privacy.state = .allowed
        let terminal = FakeTerminal(script: [.keys("s"), .discovery(.games([])), .keys("s")])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertEqual(network.typeListings.count, 0, "nothing listed without the entitlement")
        let words = terminal.lastFrameWords
        XCTAssertTrue(words.contains("All services on this network"), words)
        XCTAssertTrue(
            words.contains("Cannot use the local network: the app is not entitled to com.apple.developer.networking.multicast"),
            words)
        XCTAssertFalse(words.contains("[ OK ]"), words)
        XCTAssertTrue(words.contains("r try again"), words)

        privacy.state = .notDetermined
        let unasked = FakeTerminal(script: [.keys("s"), .keys("d"), .keys("s")])
        try runApp(unasked, network: FakeNetwork(), privacy: privacy)
        XCTAssertEqual(privacy.answers, [false], "only Search's own prompt was shown")
        XCTAssertFalse(unasked.lastFrameWords.contains("[ OK ]"), unasked.lastFrameWords)
    }

    func testALongListScrollsAndTheHelpNamesTheKey() throws {
        let types = (1...40).map { String(format: "_type%02d._tcp", $0) }
        let terminal = FakeTerminal(size: TerminalSize(rows: 24, columns: 80), script: [
            .keys("s"), .keys("s"), .serviceTypes(.types(types)), .key(.down), .key(.down),
        ])
        try runApp(terminal, privacy: FakePrivacy(state: .allowed))
        let frame = terminal.lastFrame
        XCTAssertFalse(frame.contains("_type01._tcp"), frame)
        XCTAssertTrue(frame.contains("_type03._tcp"), frame)
        XCTAssertTrue(frame.contains("… 24 more"), frame)  // 14 rows shown from the third
        XCTAssertTrue(frame.contains("40 service types"), frame)

        let help = FakeTerminal(script: [.keys("?")])
        try runApp(help)
        XCTAssertTrue(help.lastFrame.contains("s all services on this network"), help.lastFrame)
    }
}
