import Foundation
import XCTest
import TicTacToeTestSupport

/// A game whose host stops answering stays listed while Bonjour lists it, as "not answering", in every front end,
/// and is live again once its host answers.
///
/// The dead host: a real `tictactoe host` on host-c serves the game, advertised (with avahi-publish) under a host
/// name of its own, `deadhost.local`, whose address record is a separate avahi-publish process. Killing that process
/// by its pid takes the host's address off the LAN while the game's service record stays announced (and cached):
/// Bonjour lists the game, and nobody answers for its host. Publishing the address again brings it back.
final class DeadHostLabTests: LabTestCase {
    override class var labHosts: [String] { ["host-a", "host-b", "host-c"] }

    private let game = "Dead host's game"
    private let hostName = "deadhost.local"

    private func publishAddress() throws -> LabProcess {
        let process = track(try LabProcess(on: "host-c", ["avahi-publish", "-a", "-R", hostName, Lab.address(of: "host-c")]))
        guard process.waitForErrorLine(timeout: 15, { $0.hasPrefix("Established under name") }) != nil else {
            XCTFail("avahi-publish -a \(hostName): \(process.standardError)")
            throw Lab.LabError.failed("publish address")
        }
        return process
    }

    private func publishGame(port: Int) throws -> LabProcess {
        let process = track(try LabProcess(
            on: "host-c", ["avahi-publish", "-s", "-H", hostName, game, "_tictactoe._tcp", "\(port)", "proto=2", "sec=open"]))
        guard process.waitForErrorLine(timeout: 15, { $0.hasPrefix("Established under name") }) != nil else {
            XCTFail("avahi-publish -s \(game): \(process.standardError)")
            throw Lab.LabError.failed("publish game")
        }
        return process
    }

    /// Waits until `host`'s daemon no longer knows the dead host's address (its goodbye takes a second to apply).
    private func addressIsGone(from host: String, timeout: TimeInterval = 15) -> Bool {
        eventually(timeout: timeout, every: 0.3) {
            let (_, output) = Lab.run(["exec", host, "--", "timeout", "3", "avahi-resolve", "-4", "-n", hostName])
            return !output.contains(Lab.address(of: "host-c"))
        }
    }

    func testADeadHostIsListedNotAnsweringThenLiveAgain() throws {
        let server = try tictactoe(on: "host-c", ["host", "--headless", "--json", "--no-advertise", "--port", "0",
                                                  "--name", "Carol", "--games", "1", "--seed", "5"])
        let port = try XCTUnwrap(server.waitForEvent("listening")?.event["port"] as? Int, server.standardError)
        var address = try publishAddress()
        _ = try publishGame(port: port)
        let hostC = Lab.address(of: "host-c")

        // Alive: joinable, on deadhost.local at host-c's address.
        let watch = try tictactoe(on: "host-b", ["browse", "--watch", "--json"])
        let live = try XCTUnwrap(watch.waitForGames { games in
            games.contains { $0["name"] as? String == self.game && $0["state"] as? String == "joinable" }
        }, "never joinable: \(watch.output)")
        let entry = try XCTUnwrap(live.games.first { $0["name"] as? String == game })
        XCTAssertEqual(entry["host"] as? String, hostName, "\(entry)")
        XCTAssertEqual(entry["addresses"] as? [String], [hostC], "\(entry)")
        XCTAssertEqual(entry["this_machine"] as? Bool, false, "\(entry)")

        // The TUI on host-a lists it live.
        if tmux == nil { tmux = try Tmux.lab() }
        let tui = try LabTUI(tmux: tmux!, session: "dead", on: "host-a", configDirectory: Lab.grantedConfigDirectory,
                             arguments: ["--name", "Dave"])
        tuis.append(tui)
        XCTAssertNotNil(tui.waitFor("Play against the computer"), tui.screen)
        try tui.keys("s")
        let aliveScreen = tui.waitFor(timeout: 20) { $0.contains("1 game") && $0.contains("\(hostName) \(hostC)") }
        XCTAssertNotNil(aliveScreen, tui.screen)
        print("SEARCH SCREEN, HOST ALIVE:\n" + (aliveScreen ?? tui.screen))

        // The host dies (its address record's process, killed by its pid): the game stays listed, not answering, in
        // a one-shot browse (JSON and text) and, once Bonjour announces it again, in the watch.
        address.signal(SIGKILL)
        XCTAssertNotNil(address.waitForExit(timeout: 10))
        XCTAssertTrue(addressIsGone(from: "host-b"), "host-b still resolves \(hostName)")
        let (games, status, process) = try browse(on: "host-b", timeout: 7)
        XCTAssertEqual(status, 0, process.standardError)
        let dead = try XCTUnwrap(games.first { $0["name"] as? String == game }, "not listed: \(process.output)")
        XCTAssertEqual(dead["state"] as? String, "not-answering", "\(dead)")
        XCTAssertEqual(dead["compatible"] as? Bool, false, "\(dead)")
        XCTAssertEqual(dead["reason"] as? String, "not answering", "\(dead)")
        let text = try tictactoe(on: "host-b", ["browse", "--timeout", "7"])
        XCTAssertEqual(text.waitForExit(timeout: 30), 0, text.standardError)
        XCTAssertTrue(text.output.contains("\(game)  (not answering)"), "\(text.output)")

        // The watch looks its games up again every 20 s: it sees the host gone too.
        let watchedDead = watch.waitForGames(from: live.index + 1, timeout: 45) { games in
            games.contains { $0["name"] as? String == self.game && $0["state"] as? String == "not-answering" }
        }
        XCTAssertNotNil(watchedDead, "the watch never said not answering: \(watch.output)")

        // The TUI on host-a, which saw it alive, lists it so too (with where it was), after the joinable games (none
        // here): "No games, 1 not joinable".
        let deadScreen = tui.waitFor(timeout: 45) {
            $0.contains("\(hostName) \(hostC)  (not answering)") && $0.contains("No games, 1 not joinable")
        }
        XCTAssertNotNil(deadScreen, tui.screen)
        print("SEARCH SCREEN, HOST DEAD:\n" + (deadScreen ?? tui.screen))

        // Selecting it tries it again, counting down the 10 s a join may take, and says it failed within them.
        try tui.keys("Enter")
        let countdown = tui.waitFor(timeout: 5) { $0.contains("at \(self.hostName) \(hostC)…") && $0.contains("Gives up in") }
        XCTAssertNotNil(countdown, tui.screen)
        print("CONNECTING SCREEN, HOST DEAD:\n" + (countdown ?? tui.screen))
        let failed = tui.waitFor(timeout: 15) { $0.contains("q back to the menu") }
        XCTAssertNotNil(failed, tui.screen)
        print("CONNECTING SCREEN, FAILED:\n" + (failed ?? tui.screen))
        try tui.keys("q")
        XCTAssertNotNil(tui.waitFor("Play against the computer"), tui.screen)
        try tui.keys("s")
        XCTAssertNotNil(tui.waitFor(timeout: 20) { $0.contains("(not answering)") }, tui.screen)

        // The host is back (its address answers again): a game not answering is tried again every 15 s, and every
        // list has it live.
        address = try publishAddress()
        let back = watch.waitForGames(from: (watchedDead?.index ?? live.index) + 1, timeout: 45) { games in
            games.contains { $0["name"] as? String == self.game && $0["state"] as? String == "joinable" }
        }
        XCTAssertNotNil(back, "never live again in the watch: \(watch.output)")
        let (again, _, _) = try browse(on: "host-b", timeout: 3)
        XCTAssertEqual(again.first { $0["name"] as? String == game }?["state"] as? String, "joinable", "\(again)")
        let liveScreen = tui.waitFor(timeout: 45) {
            $0.contains("1 game") && !$0.contains("not joinable") && !$0.contains("(not answering)")
        }
        XCTAssertNotNil(liveScreen, tui.screen)
        XCTAssertTrue((liveScreen ?? "").contains("\(hostName) \(hostC)"), liveScreen ?? "")
        print("SEARCH SCREEN, HOST BACK:\n" + (liveScreen ?? tui.screen))
    }
}
