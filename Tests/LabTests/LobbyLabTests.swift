import Foundation
import XCTest
import TicTacToeTestSupport

/// The LAN lobby over its real multicast group, between three lab hosts (never in the machine's own namespace): who is
/// around, greetings, a challenge that becomes a game, a flood that is rate-limited, and the refusal without the
/// multicast entitlement.
final class LobbyLabTests: LabTestCase {
    override class var labHosts: [String] { ["host-a", "host-b", "host-c"] }

    private func names(_ process: LabProcess, _ event: String) -> Set<String> {
        Set(process.events(named: event).compactMap { $0["name"] as? String })
    }

    func testThreeHostsSeeEachOtherGreetAndAChallengeBecomesAGame() throws {
        let alice = try tictactoe(on: "host-a", ["lobby", "--name", "alice", "--json", "--duration", "40"])
        XCTAssertNotNil(alice.waitForEvent("lobby-joined"), "\(alice.output) \(alice.standardError)")
        let bob = try tictactoe(on: "host-b", ["lobby", "--name", "bob", "--json", "--accept", "--headless",
                                               "--player", "perfect", "--seed", "1", "--duration", "40",
                                               "--greet", "hello from bob"])
        XCTAssertNotNil(bob.waitForEvent("lobby-joined"), "\(bob.output) \(bob.standardError)")
        XCTAssertTrue(eventually(timeout: 20) { self.names(alice, "lobby-arrived").contains("bob") },
                      "alice: \(alice.output)")
        XCTAssertTrue(eventually(timeout: 20) { self.names(bob, "lobby-arrived").contains("alice") },
                      "bob: \(bob.output)")
        let arrived = try XCTUnwrap(alice.events(named: "lobby-arrived").first { $0["name"] as? String == "bob" })
        XCTAssertEqual(arrived["address"] as? String, Lab.address(of: "host-b"))
        XCTAssertEqual(arrived["hosting"] as? String, "no")
        // Carol comes and challenges bob: she hosts, he accepts and joins her game by address.
        let carol = try tictactoe(on: "host-c", ["lobby", "--name", "carol", "--json", "--challenge", "bob",
                                                 "--headless", "--player", "easy", "--seed", "2", "--duration", "40"])
        XCTAssertEqual(carol.waitForExit(timeout: 60), 0, "\(carol.output) \(carol.standardError)")
        XCTAssertEqual(bob.waitForExit(timeout: 30), 0, "\(bob.output) \(bob.standardError)")
        let sent = try XCTUnwrap(carol.events(named: "lobby-challenge-sent").first, "\(carol.output)")
        XCTAssertEqual(sent["name"] as? String, "bob")
        let port = try XCTUnwrap(sent["port"] as? Int)
        let challenged = try XCTUnwrap(bob.events(named: "lobby-challenged").first, "\(bob.output)")
        XCTAssertEqual(challenged["name"] as? String, "carol")
        XCTAssertEqual(challenged["address"] as? String, Lab.address(of: "host-c"))
        XCTAssertEqual(challenged["port"] as? Int, port)
        XCTAssertEqual(bob.events(named: "lobby-accepted").first?["port"] as? Int, port)
        XCTAssertEqual(carol.events(named: "lobby-answer").first?["accepted"] as? Bool, true)
        // An ordinary game: both sides saw it to its end.
        XCTAssertEqual(bob.events(named: "game-over").count, 1, "\(bob.output)")
        XCTAssertEqual(carol.events(named: "game-over").count, 1, "\(carol.output)")
        XCTAssertEqual(bob.events(named: "connected").first?["peer"] as? String, "carol")
        // Alice heard bob's greeting once (it came by IPv4 and IPv6); she saw carol's game, and both leave.
        let greetings = alice.events(named: "lobby-greeting")
        XCTAssertEqual(greetings.count, 1, "\(alice.output)")
        XCTAssertEqual(greetings.first?["text"] as? String, "hello from bob")
        XCTAssertEqual(greetings.first?["name"] as? String, "bob")
        XCTAssertEqual(alice.events(named: "lobby-arrived").filter { $0["name"] as? String == "bob" }.count, 1)
        XCTAssertEqual(alice.events(named: "lobby-updated").filter { $0["hosting"] as? String == "no" }.count, 0,
                       "no update while nothing changed: \(alice.output)")
        XCTAssertTrue(eventually(timeout: 20) { self.names(alice, "lobby-left").isSuperset(of: ["bob", "carol"]) },
                      "alice: \(alice.output)")
        let hosting = alice.events(named: "lobby-updated").first { $0["name"] as? String == "carol" }
        XCTAssertEqual(hosting?["hosting"] as? String, "open", "carol announced her game: \(alice.output)")
        XCTAssertEqual(hosting?["port"] as? Int, port)
        XCTAssertEqual(alice.events(named: "lobby-left").first { $0["name"] as? String == "bob" }?["how"] as? String, "left")
    }

    func testAFloodIsRateLimitedAndAnOversizedMessageRejectedWhileTheLobbyGoesOn() throws {
        let log = Scratch.path("tictactoe-lab-lobby-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log")
        scratchPaths.append(log)
        let alice = try tictactoe(on: "host-a", ["lobby", "--name", "alice", "--json", "--duration", "30",
                                                 "--log-file", log])
        XCTAssertNotNil(alice.waitForEvent("lobby-joined"), "\(alice.output) \(alice.standardError)")
        // host-c sends one 600-byte datagram and some garbage, then floods the group with 500 valid greetings.
        let flood = """
            import socket, struct
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
            s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("\(Lab.address(of: "host-c"))"))
            def message(i):
                name = b"flood"
                text = b"spam %d" % i
                return b"TTTL" + bytes([1, 2]) + struct.pack(">QI", 99, i) + bytes([len(name)]) + name + bytes([len(text)]) + text
            s.sendto(b"TTTL" + bytes(596), ("239.255.77.77", 7879))
            s.sendto(b"GET / HTTP/1.1", ("239.255.77.77", 7879))
            for i in range(500):
                s.sendto(message(i), ("239.255.77.77", 7879))
            """
        let (status, output) = Lab.run(["exec", "host-c", "--", "python3", "-c", flood])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(eventually(timeout: 20) { !alice.events(named: "lobby-rate-limited").isEmpty }, "\(alice.output)")
        XCTAssertEqual(alice.events(named: "lobby-rejected").first?["reason"] as? String,
                       "not a lobby message (no TTTL magic)", "\(alice.output.prefix(8))")
        let greetings = alice.events(named: "lobby-greeting").count
        XCTAssertGreaterThan(greetings, 0)
        XCTAssertLessThan(greetings, 100, "a flood of 500 is not obeyed")
        XCTAssertEqual(alice.events(named: "lobby-rate-limited").count, 1, "said once: \(alice.output.suffix(5))")
        // Bob still gets in and is seen.
        let bob = try tictactoe(on: "host-b", ["lobby", "--name", "bob", "--json", "--duration", "10"])
        XCTAssertTrue(eventually(timeout: 20) { self.names(alice, "lobby-arrived").contains("bob") },
                      "\(alice.output.suffix(5))")
        _ = bob.waitForExit(timeout: 30)
        XCTAssertTrue(eventually(timeout: 20) {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("over 512 bytes")
        }, "the oversized datagram was rejected by the group")
    }

    func testWithoutTheEntitlementTheLobbyFailsAtOnceWithExit15AndNoPrompt() throws {
        let directory = Scratch.path("tictactoe-lab-noentitlement-\(getpid())")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        scratchPaths.append(directory)
        try FileManager.default.copyItem(atPath: EngineSandbox.packageRoot.path + "/Assets/Info.plist", toPath: directory + "/Info.plist")
        let lobby = try tictactoe(on: "host-a", ["lobby", "--name", "alice", "--info-plist", directory + "/Info.plist"])
        XCTAssertEqual(lobby.waitForExit(timeout: 20), 15, "\(lobby.output) \(lobby.standardError)")
        XCTAssertTrue(lobby.output.joined().contains("not entitled to com.apple.developer.networking.multicast"),
                      "\(lobby.output)")
    }

    // MARK: The Lobby screen

    /// The TUI on `host` (a fresh decision directory: nothing decided yet), its menu showing.
    private func startLobbyTUI(_ name: String, on host: String) throws -> LabTUI {
        if tmux == nil { tmux = try Tmux.lab() }
        let config = Scratch.path("tictactoe-lab-lobby-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        scratchPaths.append(config)
        let tui = try LabTUI(tmux: tmux!, session: name, on: host, configDirectory: config, arguments: ["--name", name])
        tuis.append(tui)
        guard tui.waitFor("Play against the computer") != nil else {
            XCTFail("the TUI did not show its menu:\n\(tui.screen)\nlog:\n\(tui.log)")
            throw Lab.LabError.failed("no menu")
        }
        return tui
    }

    /// l, the prompt (the lobby is a LAN operation like any other), OK: in the lobby.
    private func enterLobby(_ tui: LabTUI) throws {
        try tui.keys("l")
        XCTAssertNotNil(tui.waitFor("[ OK ]"), "no prompt before the lobby:\n\(tui.screen)")
        try tui.keys("o")
        XCTAssertNotNil(tui.waitFor("Multicast group 239.255.77.77"), "not in the lobby:\n\(tui.screen)\n\(tui.log)")
    }

    func testTheLobbyScreenSeesAHeadlessPlayerChallengesItAndTheGameIsPlayedOnTheScreen() throws {
        let bob = try tictactoe(on: "host-b", ["lobby", "--name", "bob", "--json", "--accept", "--headless",
                                               "--player", "perfect", "--seed", "3", "--duration", "60",
                                               "--greet", "anyone?"])
        XCTAssertNotNil(bob.waitForEvent("lobby-joined"), "\(bob.output) \(bob.standardError)")
        let alice = try startLobbyTUI("alice", on: "host-a")
        try enterLobby(alice)
        let bobAddress = Lab.address(of: "host-b")
        XCTAssertNotNil(alice.waitFor { $0.contains("bob") && $0.contains(bobAddress) }, alice.screen)
        XCTAssertTrue(eventually(timeout: 20) { self.names(bob, "lobby-arrived").contains("alice") },
                      "bob: \(bob.output)")
        // Bob is the only one around, so he is chosen: c challenges him; alice hosts, bob joins, the game is on.
        try alice.keys("c")
        let playing = alice.waitFor(timeout: 30) { $0.contains("Your turn") || $0.contains("bob's turn") }
        XCTAssertNotNil(playing, "no game on alice's screen:\n\(alice.screen)\n\(alice.log)\nbob: \(bob.output)")
        let challenged = try XCTUnwrap(bob.waitForEvent("lobby-challenged")?.event, "\(bob.output)")
        XCTAssertEqual(challenged["name"] as? String, "alice")
        XCTAssertEqual(challenged["address"] as? String, Lab.address(of: "host-a"))
        XCTAssertEqual(bob.waitForEvent("connected")?.event["peer"] as? String, "alice", "\(bob.output)")
        print("alice's screen in the game:\n\(alice.screen)")
        // Her game was the Lobby screen's, on a free port, and not advertised with Bonjour.
        XCTAssertTrue(alice.log.contains("gate: Lobby screen: listen on"), alice.log)
        XCTAssertFalse(alice.log.contains("advertise _tictactoe._tcp"), alice.log)
    }

    func testAHeadlessChallengeIsAskedOnTheLobbyScreenAndAcceptingJoinsTheGame() throws {
        let alice = try startLobbyTUI("alice", on: "host-a")
        try enterLobby(alice)
        let carol = try tictactoe(on: "host-c", ["lobby", "--name", "carol", "--json", "--challenge", "alice",
                                                 "--headless", "--player", "perfect", "--seed", "4", "--duration", "60"])
        let carolAddress = Lab.address(of: "host-c")
        let asked = alice.waitFor(timeout: 20) { $0.contains("carol challenges you to a game at \(carolAddress):") }
        XCTAssertNotNil(asked, "no question on alice's screen:\n\(alice.screen)\ncarol: \(carol.output)")
        print("alice's lobby, asked:\n\(alice.screen)")
        try alice.keys("y")
        let playing = alice.waitFor(timeout: 30) { $0.contains("Your turn") || $0.contains("carol's turn") }
        XCTAssertNotNil(playing, "no game on alice's screen:\n\(alice.screen)\n\(alice.log)\ncarol: \(carol.output)")
        XCTAssertEqual(carol.waitForEvent("lobby-answer")?.event["accepted"] as? Bool, true, "\(carol.output)")
        XCTAssertEqual(carol.waitForEvent("connected")?.event["peer"] as? String, "alice", "\(carol.output)")
        // The game on alice's side was the Lobby screen's: not advertised, and so named in her privacy log.
        XCTAssertTrue(alice.log.contains("gate: Lobby screen: connect to \(carolAddress):"), alice.log)
    }
}
