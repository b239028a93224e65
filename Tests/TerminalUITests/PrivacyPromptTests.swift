import GameClient
import TerminalUI
import TerminalWidgets
import XCTest

/// Deferred prompting in the UI: nothing is asked at launch; Search, Host and Join ask first.
final class PrivacyPromptTests: XCTestCase {
    func testLaunchAsksNothingAndSearchShowsThePromptBeforeBrowsing() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy()
        let launch = FakeTerminal(script: [.key(.down), .key(.up)])
        try runApp(launch, network: network, privacy: privacy)
        XCTAssertTrue(privacy.verdictRequests.isEmpty, "launch consulted the gate")
        XCTAssertEqual(network.browses, 0)

        let terminal = FakeTerminal(script: [.keys("s")])
        let searchNetwork = FakeNetwork()
        try runApp(terminal, network: searchNetwork, privacy: privacy)
        XCTAssertEqual(privacy.verdictRequests.last, .search)
        XCTAssertEqual(searchNetwork.browses, 0, "browsing started before the answer")
        let frame = terminal.lastFrameWords
        XCTAssertTrue(frame.contains("“TicTacToe” would like to find and connect to devices on your local network."), frame)
        XCTAssertTrue(frame.contains("TicTacToe uses the local network to discover players around you."), frame)
        XCTAssertTrue(frame.contains("[ Don't Allow ]") && frame.contains("[ OK ]"), frame)
        // Nothing searches until the answer, and the status line says so.
        XCTAssertTrue(terminal.lastFrame.contains("Not searching yet"), terminal.lastFrame)
        XCTAssertFalse(terminal.lastFrame.contains("Searching for games"), terminal.lastFrame)
    }

    func testOKRemembersAndBrowses() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy()
        let terminal = FakeTerminal(script: [.keys("s"), .key(.enter), .discovery(.games([]))])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertEqual(privacy.answers, [true])
        XCTAssertEqual(network.browses, 1)
        XCTAssertFalse(terminal.lastFrame.contains("[ OK ]"))
        // Asked once: the next search goes straight to browsing.
        let again = FakeTerminal(script: [.keys("s")])
        let network2 = FakeNetwork()
        try runApp(again, network: network2, privacy: privacy)
        XCTAssertEqual(network2.browses, 1)
        XCTAssertFalse(again.lastFrame.contains("[ OK ]"))
    }

    func testDontAllowWaitsWithAnExplanation() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy()
        let reason = "local network permission denied: turn on Local Network in Settings › Privacy, or run `tictactoe privacy grant`"
        let terminal = FakeTerminal(script: [.keys("s"), .keys("d"), .discoveryUpdate(.waiting(reason))])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertEqual(privacy.answers, [false])
        XCTAssertEqual(privacy.state, .denied)
        XCTAssertTrue(terminal.lastFrame.contains("Local network permission denied"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Waiting for local network access"), terminal.lastFrame)
    }

    func testNoAuthFailsAtOnceWithoutAPrompt() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy()
        privacy.noAuth = true
        let terminal = FakeTerminal(script: [.keys("s")])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertEqual(network.browses, 0)
        XCTAssertFalse(terminal.lastFrame.contains("[ OK ]"))
        XCTAssertTrue(terminal.lastFrame.contains("Not allowed to access the network"), terminal.lastFrame)
    }

    func testHostingAsksAndJoiningLoopbackDoesNot() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy()
        let terminal = FakeTerminal(script: [.keys("h"), .key(.enter)])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertTrue(network.hosted.isEmpty, "hosting began before the answer")
        XCTAssertTrue(terminal.lastFrame.contains("[ OK ]"))

        let join = FakeTerminal(script: [.keys("a"), .keys("127.0.0.1:7000"), .key(.enter)])
        let joinNetwork = FakeNetwork()
        try runApp(join, network: joinNetwork, privacy: FakePrivacy())
        XCTAssertEqual(joinNetwork.joined.first?.address, "127.0.0.1:7000", "loopback is exempt, as on Apple platforms")
        XCTAssertFalse(join.lastFrame.contains("[ OK ]"))
    }

    func testPromptAtLaunchAsksBeforeAnyKey() throws {
        let privacy = FakePrivacy()
        let terminal = FakeTerminal(script: [])
        try runApp(terminal, privacy: privacy, promptAtLaunch: true)
        XCTAssertEqual(privacy.verdictRequests, [.search])
        XCTAssertTrue(terminal.lastFrame.contains("[ OK ]"), terminal.lastFrame)
    }

    func testSettingsShowsAndTogglesLocalNetwork() throws {
        let privacy = FakePrivacy()
        privacy.state = .denied
        let terminal = FakeTerminal(script: [
            .keys("t"), .key(.down), .key(.down), .key(.down), .key(.down), .key(.down), .key(.enter),
        ])
        try runApp(terminal, privacy: privacy)
        XCTAssertEqual(privacy.state, .allowed)
        let frame = terminal.lastFrame
        XCTAssertTrue(frame.contains("Local Network  < On >"), frame)
        XCTAssertTrue(frame.contains("Privacy › Local Network"), frame)
        XCTAssertTrue(terminal.lastFrameWords.contains("discover players around you"), frame)
        XCTAssertTrue(frame.contains("_tictactoe._tcp"), frame)
        let reset = FakeTerminal(script: [.keys("t"), .key(.up), .key(.up), .key(.enter)])  // above the report row
        try runApp(reset, privacy: privacy)
        XCTAssertEqual(privacy.state, .notDetermined)
        XCTAssertTrue(reset.lastFrame.contains("not asked yet"), reset.lastFrame)
    }
}

/// Settings while a join waits for permission: the join keeps waiting and resumes on return.
final class SettingsWhileWaitingTests: XCTestCase {
    func testTOpensSettingsAndEscapeReturnsToTheWaitingJoin() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy()
        privacy.state = .denied
        let reason = "local network permission denied: turn on Local Network in Settings › Privacy, or run `tictactoe privacy grant`"
        let terminal = FakeTerminal(script: [
            .keys("a"), .keys("alice"), .key(.enter), .keys("s"),  // a game name: s searches for it
            .network(.report(.connectionState(.waiting(.notAllowed(reason))))),
            .keys("t"), .key(.right),
            .network(.report(.connected(peerName: "alice", address: "198.18.0.11:7878", role: .joiner))),
            .key(.escape),
        ])
        let (app, _) = try runApp(terminal, network: network, privacy: privacy)
        XCTAssertEqual(privacy.state, .allowed, "the toggle did not allow")
        XCTAssertTrue(network.handles.first.map { !$0.cancelled } ?? false, "visiting Settings cancelled the join")
        guard case .network(let game) = app.model.screen else { return XCTFail("did not return to the join") }
        XCTAssertEqual(game.peerName, "alice", "events that arrived during Settings were lost")
        XCTAssertTrue(terminal.frames.map(\.text).contains { $0.contains("Local Network  < On >") })
    }
}
