import GameClient
import GameProtocol
import Lobby
import TerminalUI
import TerminalWidgets
import XCTest

/// The Lobby screen (l on the menu): the app core's lobby, through the gate's own check (the multicast entitlement,
/// then permission); players, greetings, and challenges that become ordinary network games.
final class LobbyScreenTests: XCTestCase {
    let bob = LobbyMessage.MemberID(0xb0b)
    let carol = LobbyMessage.MemberID(0xca201)

    func member(_ id: LobbyMessage.MemberID, _ name: String, _ address: String, hosting: Int? = nil) -> LobbyRoster.Member {
        LobbyRoster.Member(
            id: id, name: name, hosting: hosting == nil ? .none : .open, port: UInt16(hosting ?? 0), protocolVersion: 2,
            address: address, addresses: [address], lastSeen: .zero)
    }

    var joined: [FakeTerminal.Step] {
        [
            .keys("l"),
            .lobby(.event(.joined(group: "239.255.77.77 and [ff02::7474], port 7879", addresses: []))),
            .lobby(.event(.roster(.arrived(member(carol, "carol", "198.18.0.13", hosting: 41234))))),
            .lobby(.event(.roster(.arrived(member(bob, "bob", "198.18.0.12"))))),
        ]
    }

    func testTheLobbyListsWhoIsAroundAndWhatTheySayAndGreetsEveryone() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy(state: .allowed)
        let terminal = FakeTerminal(script: joined + [
            .lobby(.event(.roster(.greeted(id: bob, name: "bob", address: "198.18.0.12", text: "a game?\u{1b}[2J")))),
            .keys("g"), .keys("hi all"), .key(.enter),
            .lobby(.event(.greetingSent("hi all"))),
        ])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertEqual(privacy.verdictRequests, [.lobby])
        XCTAssertEqual(network.lobbies.map(\.name), ["tester"])
        XCTAssertEqual(network.lobbies.first?.sent, [.greet("hi all")])
        let frame = terminal.lastFrame
        XCTAssertTrue(frame.contains("Lobby"), frame)
        XCTAssertTrue(frame.contains("Multicast group 239.255.77.77 and [ff02::7474], port 7879"), frame)
        let lines = frame.split(separator: "\n").map(String.init)
        let bobRow = try XCTUnwrap(lines.firstIndex { $0.contains("bob") && $0.contains("198.18.0.12") }, frame)
        let carolRow = try XCTUnwrap(lines.firstIndex { $0.contains("carol") && $0.contains("198.18.0.13") }, frame)
        XCTAssertLessThan(bobRow, carolRow, "by name")
        XCTAssertTrue(lines[carolRow].contains("hosting a game on port 41234"), frame)
        XCTAssertTrue(frame.contains("+ bob (198.18.0.12) is here"), frame)
        XCTAssertTrue(frame.contains("bob: a game?\\x1b[2J"), "text from the network is shown escaped: \(frame)")
        XCTAssertFalse(frame.contains("\u{1b}"), frame)
        XCTAssertTrue(frame.contains("You: hi all"), frame)
        XCTAssertTrue(frame.contains("In the lobby with 2 players"), frame)
        XCTAssertTrue(frame.contains("c challenges"), frame)
    }

    /// `?` is part of what is typed, not the help.
    func testAGreetingKeepsItsQuestionMark() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joined + [.keys("g"), .keys("a game?"), .keys(" anyone"), .key(.enter)])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.lobbies.first?.sent, [.greet("a game? anyone")], terminal.lastFrame)
    }

    func testAGreetingTheLobbyCannotCarrySaysWhyAndIsNotSent() throws {
        let network = FakeNetwork()
        // 100 characters of two bytes each: the field takes them, a lobby message carries at most 140 bytes.
        let terminal = FakeTerminal(script: joined + [.keys("g"), .keys(String(repeating: "é", count: 100)), .key(.enter)])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.lobbies.first?.sent, [])
        XCTAssertTrue(terminal.lastFrame.contains("Say: éé"), "the greeting stays to be shortened: \(terminal.lastFrame)")
        XCTAssertTrue(terminal.lastFrame.contains("140"), "the reason: \(terminal.lastFrame)")
    }

    func testAChallengeHostsAGameInvitesOnceItListensAndADeclineComesBackToTheLobby() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joined + [
            .keys("k"), .keys("c"),  // carol was chosen first (and stays chosen as bob comes before her): bob
            .lobby(.hostGame(for: "bob")),
            .network(.report(.listening(host: "::", port: 40111, name: "tester"))),
            .lobby(.event(.challengeSent(to: "bob", port: 40111))),
            .lobby(.event(.roster(.answered(id: bob, name: "bob", accepted: false)))),
            .lobby(.event(.challengeDeclined(from: "bob", why: "they declined"))),
            .lobby(.stopHosting),
        ])
        try runApp(terminal, network: network)
        let waiting = try XCTUnwrap(terminal.frames.first { $0.text.contains("40111") }).text
        XCTAssertTrue(waiting.contains("You challenged bob: waiting for them to accept and join on port 40111…"),
                      "the challenger's screen names who was challenged: \(waiting)")
        let lobby = try XCTUnwrap(network.lobbies.first)
        XCTAssertEqual(lobby.sent, [.challenge(bob), .hostListening(40111)])
        XCTAssertEqual(network.lobbyGames, [.host], "the lobby's game: a free port, not advertised")
        XCTAssertEqual(network.hosted.count, 0, "not a Host screen game")
        XCTAssertTrue(try XCTUnwrap(network.handles.first).cancelled, "the game hosted for it stops")
        let frame = terminal.lastFrame
        XCTAssertTrue(frame.contains("No game with bob: they declined"), frame)
        XCTAssertTrue(frame.contains("In the lobby with 2 players"), "back in the lobby: \(frame)")
    }

    func testLeavingTheGameHostedForAChallengeWithdrawsItAndComesBackToTheLobby() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joined + [
            .keys("k"), .keys("c"), .lobby(.hostGame(for: "bob")),
            .network(.report(.listening(host: "::", port: 40111, name: "tester"))), .keys("q"),
        ])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.lobbies.first?.sent, [.challenge(bob), .hostListening(40111), .withdraw])
        XCTAssertTrue(terminal.lastFrame.contains("c challenges"), terminal.lastFrame)
    }

    func testAChallengeToThePersonIsAskedAndAcceptingJoinsTheChallengersGame() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joined + [
            .lobby(.event(.challengeWaiting(id: bob, from: "bob", address: "198.18.0.12", port: 40222))),
            .keys("c"),  // the question takes the keys: no challenge of our own meanwhile
            .keys("y"),
            .lobby(.event(.challengeAccepted(from: "bob", address: "198.18.0.12", port: 40222))),
            .lobby(.join(name: "bob", address: "198.18.0.12", port: 40222)),
        ])
        try runApp(terminal, network: network)
        XCTAssertTrue(terminal.frames.contains {
            $0.text.contains("bob challenges you to a game at 198.18.0.12:40222: y accepts, n declines")
        })
        XCTAssertEqual(network.lobbies.first?.sent, [.answer(bob, accept: true)])
        XCTAssertEqual(network.lobbyGames, [.join(address: "198.18.0.12", port: 40222)])
        XCTAssertTrue(terminal.lastFrame.contains("198.18.0.12:40222"), terminal.lastFrame)
    }

    func testDecliningAnswersNoAndStays() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joined + [
            .lobby(.event(.challengeWaiting(id: bob, from: "bob", address: "fe80::2%lab0", port: 40222))),
            .keys("n"),
        ])
        try runApp(terminal, network: network)
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("at [fe80::2%lab0]:40222") })
        XCTAssertEqual(network.lobbies.first?.sent, [.answer(bob, accept: false)])
        XCTAssertEqual(network.lobbyGames, [])
    }

    func testWithoutTheMulticastEntitlementTheLobbyFailsAtOnceAndAsksNothing() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy(state: .notDetermined)
        privacy.missingMulticastEntitlement = true
        let terminal = FakeTerminal(script: [.keys("l")])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertEqual(network.lobbies.count, 0, "no lobby without the entitlement")
        XCTAssertEqual(privacy.answers, [], "no prompt")
        let words = terminal.lastFrameWords
        XCTAssertTrue(words.contains(
            "Cannot use the local network: the app is not entitled to com.apple.developer.networking.multicast"), words)
        XCTAssertTrue(words.contains("r joins again"), words)
        XCTAssertTrue(words.contains("See Settings › Privacy and the log for details."), words)
    }

    func testTheLobbyAsksForPermissionFirstAndWaitsSayingWhyWhenDenied() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy(state: .notDetermined)
        let terminal = FakeTerminal(script: [.keys("l")])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertEqual(network.lobbies.count, 0, "nothing before the answer")
        XCTAssertTrue(terminal.lastFrame.contains("[ OK ]"), terminal.lastFrame)

        let denied = FakeTerminal(script: [
            .keys("l"), .keys("d"),
            .lobby(.event(.waiting("local network permission denied: turn on Local Network in Settings › Privacy"))),
        ])
        let network2 = FakeNetwork()
        try runApp(denied, network: network2, privacy: FakePrivacy(state: .notDetermined))
        XCTAssertEqual(network2.lobbies.count, 1, "denied: the lobby waits, saying why")
        XCTAssertTrue(denied.lastFrame.contains("Not in the lobby: local network access is not allowed yet."),
                      denied.lastFrame)
        XCTAssertTrue(denied.lastFrame.contains("Local network permission denied"), denied.lastFrame)
    }

    func testQLeavesTheLobbyAndTheOthersAreTold() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joined + [.keys("q")])
        try runApp(terminal, network: network)
        XCTAssertTrue(terminal.lastFrame.contains("[l] Lobby: players on the LAN"), terminal.lastFrame)
        // The app's end cancels every session anyway: that q itself leaves (telling the others) is the model's effect.
        var model = AppModel(settings: UISettings(name: "tester"), size: TerminalSize(rows: 30, columns: 100), seed: 1)
        XCTAssertEqual(model.handle(.key(.character("l"))), [.checkNetwork(.lobby)])
        XCTAssertEqual(model.handle(.gate(.allowed, .lobby, prompt: nil)), [.startLobby(name: "tester")])
        XCTAssertEqual(model.handle(.key(.character("q"))), [.stopLobby])
        let quitting = model.handle(.key(.character("l"))) + model.handle(.gate(.allowed, .lobby, prompt: nil))
            + model.handle(.signal(.quit))
        XCTAssertEqual(Array(quitting.suffix(2)), [.stopLobby, .schedule(.quitGrace, after: .milliseconds(300))],
                       "quitting from the lobby leaves it first")
    }

    func testAChallengeArrivingWhileThePersonTypesIsAskedOnlyOnceTheLineIsDone() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joined + [
            .keys("g"), .keys("good "),
            .lobby(.event(.challengeWaiting(id: bob, from: "bob", address: "198.18.0.12", port: 40222))),
            .keys("yay"),  // typed into the line: no answer
        ])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.lobbies.first?.sent, [])
        XCTAssertTrue(terminal.lastFrame.contains("Say: good yay"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("bob challenges you: Enter says your line (Esc drops it), then y or n"),
                      terminal.lastFrame)

        let answered = FakeTerminal(script: joined + [
            .keys("g"), .keys("hi"),
            .lobby(.event(.challengeWaiting(id: bob, from: "bob", address: "198.18.0.12", port: 40222))),
            .key(.enter), .keys("a"), .keys("n"),  // a is nothing to the question; n declines
        ])
        let network2 = FakeNetwork()
        try runApp(answered, network: network2)
        XCTAssertEqual(network2.lobbies.first?.sent, [.greet("hi"), .answer(bob, accept: false)])
    }

    func testNothingIsSaidOrChallengedBeforeTheLobbyIsJoined() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("l"), .lobby(.event(.waiting("local network permission denied"))), .keys("gc"), .keys("q"),
        ])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.lobbies.first?.sent, [])
        XCTAssertTrue(terminal.lastFrame.contains("[l] Lobby: players on the LAN"), "q left: \(terminal.lastFrame)")
    }

    func testSettingsFromTheLobbyAndBackWhileTheLobbyGoesOn() throws {
        let network = FakeNetwork()
        let privacy = FakePrivacy(state: .denied)
        let terminal = FakeTerminal(script: [
            .keys("l"), .lobby(.event(.waiting("local network permission denied: turn on Local Network in Settings"))),
            .keys("t"),
            .lobby(.event(.joined(group: "239.255.77.77 and [ff02::7474], port 7879", addresses: []))),
            .lobby(.event(.roster(.arrived(member(bob, "bob", "198.18.0.12"))))),
            .key(.escape),
        ])
        try runApp(terminal, network: network, privacy: privacy)
        XCTAssertTrue(terminal.frames.contains { $0.text.contains("Esc back to the lobby") })
        XCTAssertEqual(network.lobbies.count, 1, "the same lobby, not a new one")
        let frame = terminal.lastFrame
        XCTAssertTrue(frame.contains("Multicast group 239.255.77.77"), frame)
        XCTAssertTrue(frame.contains("+ bob (198.18.0.12) is here"), "what came meanwhile is there: \(frame)")
    }

    func testALobbyThatEndsWhileSettingsShowsSaysWhyOnTheWayBack() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: joined + [
            .keys("t"), .lobby(.event(.left("local network access was turned off"))),
            .lobby(.ended(.localNetworkNotAllowed)), .key(.escape),
        ])
        try runApp(terminal, network: network)
        let words = terminal.lastFrameWords
        XCTAssertTrue(words.contains("Left the lobby: local network access was turned off"), words)
        XCTAssertTrue(words.contains("r joins again"), words)
    }
}
