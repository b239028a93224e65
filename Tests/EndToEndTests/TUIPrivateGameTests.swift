import Foundation
import TicTacToeTestSupport
import XCTest

/// Private games in the real full-screen UI (tmux), on loopback, against headless peers: the TUI host shows its code
/// and each wrong code with its address, and a headless joiner with the code read off the screen plays; a TUI joiner
/// is asked for a headless private host's code, is told a wrong one, and gets in with the right one.
final class TUIPrivateGameTests: ProcessTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = Scratch.path("tictactoe-tui-private-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        super.tearDown()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A file holding `code` on its first line (as `--code-file` reads it).
    private func codeFile(_ name: String, _ code: String) throws -> String {
        let path = directory + "/" + name
        try (code + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The first match of `pattern` in `text`, group 1.
    private func capture(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    /// Six other digits than `code`'s (each digit moved on by one).
    private func wrong(_ code: String) -> String {
        String(code.compactMap(\.wholeNumberValue).map { Character(String(($0 + 1) % 10)) })
    }

    func testATUIPrivateHostShowsItsCodeAndAWrongCodeAndAHeadlessJoinerWithTheCodePlays() throws {
        let tmux = try Tmux()
        let log = directory + "/host.log"
        try tmux.start("host", tuiCommand("--name alice --log-file \(log)"))
        XCTAssertNotNil(tmux.waitFor("host", text: "Host a private game"), tmux.screen("host"))
        try tmux.keys("host", "r")
        XCTAssertNotNil(tmux.waitFor("host", text: "Port"), tmux.screen("host"))
        try tmux.keys("host", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.literal("host", "0")
        try tmux.keys("host", "Enter")
        XCTAssertNotNil(tmux.waitFor("host", text: "[ OK ]"), tmux.screen("host"))
        try tmux.keys("host", "o")
        let waiting = try XCTUnwrap(
            tmux.waitFor("host") { $0.contains("Waiting for someone to join on port") && $0.contains("Code: ") },
            tmux.screen("host"))
        XCTAssertTrue(waiting.contains("Hosting a private game as alice"), waiting)
        XCTAssertTrue(waiting.contains("give it to the player who joins"), waiting)
        let port = try XCTUnwrap(capture(#"join on port (\d+)"#, in: waiting), waiting)
        let shown = try XCTUnwrap(capture(#"Code: (\d{3} \d{3})"#, in: waiting), waiting)
        let code = shown.filter(\.isNumber)

        // A wrong code: the joiner exits 13, and the host's screen shows the attempt with its address.
        let wrongJoiner = try TicTacToeProcess([
            "join", "127.0.0.1:\(port)", "--headless", "--json", "--code-file", try codeFile("wrong", wrong(code)),
        ])
        processes.append(wrongJoiner)
        XCTAssertEqual(wrongJoiner.waitForExit(), 13, wrongJoiner.standardError)
        // The host listens on every interface (dual stack): the IPv4 joiner shows as its IPv4 address, not as the
        // IPv4-mapped [::ffff:127.0.0.1].
        XCTAssertNotNil(tmux.waitFor("host") { screen in
            screen.split(separator: "\n").contains { $0.contains("Wrong code from 127.0.0.1:") }
        }, tmux.screen("host"))
        XCTAssertTrue(tmux.screen("host").contains("Code: \(shown)"), "the code changed after one wrong code")

        // The code read off the screen gets in (a second after the wrong one: one attempt a second per address).
        let joiner = try TicTacToeProcess([
            "join", "127.0.0.1:\(port)", "--headless", "--json", "--games", "1", "--name", "bob",
            "--code-file", try codeFile("right", code),
        ])
        processes.append(joiner)
        XCTAssertNotNil(tmux.waitFor("host", text: "Playing against bob"), tmux.screen("host"))
        let connected = try XCTUnwrap(joiner.waitForEvent("connected"), joiner.standardError)
        XCTAssertEqual(connected["secure"] as? Bool, true)
        XCTAssertNotNil(tmux.playUntilOver("host", over: "q back to the menu"), tmux.screen("host"))
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertFalse(joiner.output.joined(separator: "\n").contains(code), "the joiner's transcript shows the code")
        // The UI's log never has the code (the screen is the only place it goes).
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertFalse(logged.isEmpty, "no log at \(log)")
        XCTAssertFalse(logged.contains(shown), "the log shows the code")
    }

    func testATUIJoinerIsAskedForTheCodeToldAWrongOneAndGetsInWithTheRightOne() throws {
        let (host, port) = try startHost(["--private", "--matches", "1", "--games", "1", "--name", "alice"])
        processes.append(host)
        let pattern = #"the code is (\d{3} \d{3})"#
        let shown = host.waitForErrorLine { self.capture(pattern, in: $0) != nil }.flatMap { capture(pattern, in: $0.text) }
        let code = try XCTUnwrap(shown, host.standardError).filter(\.isNumber)

        let tmux = try Tmux()
        try tmux.joinByAddress("join", as: "bob", "127.0.0.1:\(port)")
        // No code: the host runs a private game; the UI asks for its code.
        XCTAssertNotNil(tmux.waitFor("join", text: "This game is private: enter its code"), tmux.screen("join"))
        try tmux.literal("join", wrong(code))
        try tmux.keys("join", "Enter")
        XCTAssertNotNil(tmux.waitFor("join", text: "Wrong code, try again"), tmux.screen("join"))
        // Typed as people read it out: with a space.
        try tmux.literal("join", "\(code.prefix(3)) \(code.dropFirst(3))")
        try tmux.keys("join", "Enter")
        XCTAssertNotNil(tmux.waitFor("join", text: "Playing against alice"), tmux.screen("join"))
        XCTAssertNotNil(tmux.playUntilOver("join", over: "q back to the menu"), tmux.screen("join"))
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
        // The headless host reported the missing and the wrong code with the address and kept serving; its
        // transcript has no code.
        let failures = host.events(named: "peer-failed").filter { $0["error"] as? String == "wrong code" }
        XCTAssertEqual(failures.count, 2, host.output.joined(separator: "\n"))
        XCTAssertTrue(failures.allSatisfy { ($0["remote"] as? String)?.hasPrefix("127.0.0.1:") == true })
        XCTAssertFalse(host.output.joined(separator: "\n").contains(code), "the host's transcript shows the code")
        let connected = try XCTUnwrap(host.events(named: "connected").first)
        XCTAssertEqual(connected["secure"] as? Bool, true)
    }
}
