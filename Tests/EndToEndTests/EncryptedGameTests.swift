import Foundation
import TicTacToeTestSupport
import XCTest

/// What only the `tictactoe` process shows of protocol 2: a private host's code on its standard error (never in its
/// transcript or log file) and its replacement after three wrong codes, a joiner's code from the environment, from
/// standard input and from the command line (with a warning), and `--private --plaintext` refused as usage. The
/// pairing, the codes' outcomes, the protocols' refusals and the manifest's transport security are tested in
/// process (AppCoreTests' EncryptedMatchTests and GameCodeSourceTests, GameTransportTests' PairingLimitTests).
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

    func testAPrivateGameShowsItsCodeOnlyOnStderrAndAJoinerTakesItFromTheEnvironment() throws {
        let log = directory + "/host.log"
        let (host, port) = try startHost(["--private", "--matches", "1", "--log-file", log])
        track(host)
        let code = try XCTUnwrap(shownCode(host), host.standardError)
        XCTAssertEqual(host.events(named: "listening").first?["private"] as? Bool, true)

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

    func testThreeWrongCodesShowANewCodeOnStderrAndItGetsInFromStandardInput() throws {
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
        let second = try XCTUnwrap(shownCode(host, occurrence: 2), host.standardError)
        XCTAssertTrue(host.standardError.contains("the old one no longer works"), host.standardError)
        XCTAssertFalse(host.output.joined().contains(second))

        // The new code, from standard input, gets in.
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

    func testPrivateAndPlaintextDoNotGoTogether() throws {
        let host = track(try TicTacToeProcess(["host", "--headless", "--no-advertise", "--private", "--plaintext"]))
        XCTAssertEqual(host.waitForExit(), 64)
        XCTAssertTrue(host.standardError.contains("a private game is always encrypted"), host.standardError)
        let joiner = track(try TicTacToeProcess(["join", "127.0.0.1", "--plaintext", "--code-file", "/dev/null"]))
        XCTAssertEqual(joiner.waitForExit(), 64)
    }
}
