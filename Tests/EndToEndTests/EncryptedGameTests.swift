import Foundation
import TicTacToeTestSupport
import XCTest

/// Protocol 2 as a user meets it, with real processes on loopback: open games encrypted by default, private games
/// with a code shown only on the host's stderr, wrong and missing codes (exit 13), the code replaced after three wrong
/// codes, no silent fallback between protocol 1 and 2, and the manifest's App Transport Security refusing plaintext
/// on the LAN (exit 14) before anything is sent.
final class EncryptedGameTests: ProcessTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = Scratch.path("tictactoe-encrypted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        super.tearDown()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func join(_ port: Int, _ extra: [String], environment: [String: String] = [:]) throws -> TicTacToeProcess {
        track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json", "--seed", "3"] + extra,
                                   environment: environment))
    }

    /// The six digits a private host printed on stderr (the latest code when it was replaced).
    private func shownCode(_ host: TicTacToeProcess, occurrence: Int = 1) -> String? {
        func code(_ line: String) -> String? {
            line.range(of: #"(code is|new code:) \d{3} \d{3}"#, options: .regularExpression)
                .map { String(line[$0].suffix(7).filter(\.isNumber)) }
        }
        var seen = 0
        return host.waitForErrorLine { line in
            if code(line) != nil { seen += 1 }
            return seen == occurrence
        }.flatMap { code($0.text) }
    }

    func testAnOpenGameIsEncryptedByDefault() throws {
        let (host, port) = try startHost(["--games", "2", "--seed", "1"])
        track(host)
        let listening = try XCTUnwrap(host.events(named: "listening").first)
        XCTAssertEqual(listening["secure"] as? Bool, true)
        XCTAssertEqual(listening["private"] as? Bool, false)
        let joiner = try join(port, [])
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
        for side in [joiner, host] {
            let connected = try XCTUnwrap(side.events(named: "connected").first, side.output.joined(separator: "\n"))
            XCTAssertEqual(connected["secure"] as? Bool, true)
            XCTAssertEqual(connected["cipher"] as? String, "ECDHE-PSK-CHACHA20-POLY1305")
        }
        XCTAssertEqual(joiner.events(named: "summary").first?["games"] as? Int, 2)
    }

    func testAPrivateGameShowsItsCodeOnlyOnStderrAndAdmitsOnlyTheRightCode() throws {
        let log = directory + "/host.log"
        let (host, port) = try startHost(["--private", "--matches", "1", "--log-file", log])
        track(host)
        let code = try XCTUnwrap(shownCode(host), host.standardError)
        XCTAssertEqual(host.events(named: "listening").first?["private"] as? Bool, true)

        // No code: exit 13, naming the ways to give one.
        let noCode = try join(port, [])
        XCTAssertEqual(noCode.waitForExit(), 13, noCode.standardError)
        let message = try XCTUnwrap(noCode.events(named: "error").first?["message"] as? String)
        XCTAssertTrue(message.contains("hosts a private game"), message)
        XCTAssertTrue(message.contains("--code-file FILE") && message.contains("TICTACTOE_CODE"), message)

        // A wrong code from a file: exit 13, "wrong code"; the host shows the attempt with its address.
        let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
        try (wrong + "\n").write(toFile: directory + "/wrong", atomically: true, encoding: .utf8)
        let wrongJoiner = try join(port, ["--code-file", directory + "/wrong"])
        XCTAssertEqual(wrongJoiner.waitForExit(), 13, wrongJoiner.standardError)
        XCTAssertTrue(wrongJoiner.events(named: "error").first?["message"].map { "\($0)".hasPrefix("wrong code") }
                      ?? false, wrongJoiner.output.joined(separator: "\n"))
        XCTAssertNotNil(host.waitForEvent("peer-failed") { ($0["error"] as? String) == "wrong code" })

        // The right code from the environment: the match is played.
        let joiner = try join(port, [], environment: ["TICTACTOE_CODE": code])
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
        XCTAssertEqual(joiner.events(named: "connected").first?["secure"] as? Bool, true)

        // The code was never in the host's transcript or its log.
        XCTAssertFalse(host.output.joined().contains(code), host.output.joined(separator: "\n"))
        let logText = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertFalse(logText.isEmpty, "the host wrote no log")
        XCTAssertFalse(logText.contains(code), "the code is in the log")
    }

    func testThreeWrongCodesReplaceTheCodeAndTheNewOneGetsIn() throws {
        let (host, port) = try startHost(["--private", "--matches", "1"])
        track(host)
        let first = try XCTUnwrap(shownCode(host), host.standardError)
        let wrong = String(format: "%06d", (Int(first)! + 500_000) % 1_000_000)
        for _ in 1...3 {
            // One attempt a second per address: a joiner that comes sooner is closed before its handshake and asks
            // again by itself.
            let joiner = try join(port, ["--connect-timeout", "10"], environment: ["TICTACTOE_CODE": wrong])
            XCTAssertEqual(joiner.waitForExit(), 13, joiner.standardError)
        }
        let replaced = try XCTUnwrap(host.waitForEvent("code-replaced"), host.output.joined(separator: "\n"))
        let reason = try XCTUnwrap(replaced["reason"] as? String)
        XCTAssertTrue(reason.contains("3"), reason)
        XCTAssertNil(replaced["code"])
        let second = try XCTUnwrap(shownCode(host, occurrence: 2), host.standardError)
        XCTAssertTrue(host.standardError.contains("the old one no longer works"), host.standardError)
        XCTAssertFalse(host.output.joined().contains(second))

        // The old code no longer works; the new one does.
        if second != first {
            let old = try join(port, [], environment: ["TICTACTOE_CODE": first])
            XCTAssertEqual(old.waitForExit(), 13, old.standardError)
        }
        let joiner = try join(port, ["--code", "-"])
        joiner.writeInput(second + "\n")
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
    }

    func testACodeInTheCommandLineWorksWithAWarning() throws {
        let (host, port) = try startHost(["--private", "--matches", "1"])
        track(host)
        let code = try XCTUnwrap(shownCode(host))
        let joiner = try join(port, ["--code", String(code.prefix(3)) + " " + String(code.suffix(3))])
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertTrue(joiner.standardError.contains("warning: --code puts the code in the command line"),
                      joiner.standardError)
        XCTAssertFalse(joiner.standardError.contains(code))
    }

    func testAMalformedCodeExits13WithoutRepeatingIt() throws {
        let joiner = try join(9, [], environment: ["TICTACTOE_CODE": "12ab56"])
        XCTAssertEqual(joiner.waitForExit(), 13, joiner.standardError)
        let message = try XCTUnwrap(joiner.events(named: "error").first?["message"] as? String)
        XCTAssertTrue(message.hasPrefix("the game's code from TICTACTOE_CODE is not a code"), message)
        XCTAssertFalse(message.contains("12ab56"), message)
    }

    func testNoSilentFallbackBetweenProtocols() throws {
        // A plaintext (protocol 1) joiner meets an encrypted host: told it needs protocol 2.
        let (host, port) = try startHost(["--matches", "1"])
        track(host)
        let old = try join(port, ["--plaintext"])
        XCTAssertEqual(old.waitForExit(), 4, old.standardError)
        let oldMessage = try XCTUnwrap(old.events(named: "error").first?["message"] as? String)
        XCTAssertTrue(oldMessage.contains("this host speaks protocol 2 (encrypted); update tictactoe, or join without --plaintext"), oldMessage)

        // An encrypted joiner meets a plaintext host: says so.
        let (plain, plainPort) = try startHost(["--plaintext", "--matches", "1"])
        track(plain)
        XCTAssertEqual(plain.events(named: "listening").first?["secure"] as? Bool, false)
        let joiner = try join(plainPort, [])
        XCTAssertEqual(joiner.waitForExit(), 4, joiner.standardError)
        let message = try XCTUnwrap(joiner.events(named: "error").first?["message"] as? String)
        XCTAssertTrue(message.contains("speaks protocol 1 (unencrypted)") && message.contains("--plaintext"), message)

        // Both ends --plaintext on loopback: allowed.
        let both = try join(plainPort, ["--plaintext"])
        XCTAssertEqual(both.waitForExit(), 0, both.standardError)
        XCTAssertEqual(both.events(named: "connected").first?["secure"] as? Bool, false)
    }

    func testTheManifestRefusesPlaintextOnTheLANBeforeAnythingIsSent() throws {
        // 192.0.2.1 is TEST-NET-1: the refusal comes before any socket is opened.
        let joiner = track(try TicTacToeProcess(
            ["join", "192.0.2.1:7878", "--plaintext", "--headless", "--json", "--connect-timeout", "30"]))
        XCTAssertEqual(joiner.waitForExit(timeout: 10), 14, joiner.standardError)
        let message = try XCTUnwrap(joiner.events(named: "error").first?["message"] as? String)
        XCTAssertTrue(message.hasPrefix("App Transport Security policy requires a secure connection to 192.0.2.1"),
                      message)
        XCTAssertTrue(message.contains("would allow it with NSAllowsLocalNetworking = true"), message)
        XCTAssertTrue(joiner.events(named: "state").isEmpty, "it started connecting: \(joiner.output)")

        let host = track(try TicTacToeProcess(["host", "--headless", "--no-advertise", "--plaintext", "--json"]))
        XCTAssertEqual(host.waitForExit(timeout: 10), 14, host.standardError)
        let hostMessage = try XCTUnwrap(host.events(named: "error").first?["message"] as? String)
        XCTAssertTrue(hostMessage.hasPrefix("cannot host an unencrypted game (--plaintext) on the local network"),
                      hostMessage)
        XCTAssertTrue(host.events(named: "listening").isEmpty)
    }

    func testPrivateAndPlaintextDoNotGoTogether() throws {
        let host = track(try TicTacToeProcess(["host", "--headless", "--no-advertise", "--private", "--plaintext"]))
        XCTAssertEqual(host.waitForExit(), 64)
        XCTAssertTrue(host.standardError.contains("a private game is always encrypted"), host.standardError)
        let joiner = track(try TicTacToeProcess(["join", "127.0.0.1", "--plaintext", "--code-file", "/dev/null"]))
        XCTAssertEqual(joiner.waitForExit(), 64)
    }
}
