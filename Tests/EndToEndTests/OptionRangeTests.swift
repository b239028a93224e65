import Foundation
import XCTest

/// Every numeric option is range-checked through the real executable: the values that used to crash a conversion
/// (SIGILL) are usage errors, exit 64, whose message names the option and its range.
final class OptionRangeTests: XCTestCase {
    func testOutOfRangeNumbersAreUsageErrorsNamingTheOptionAndTheRange() throws {
        let join = ["join", "127.0.0.1:9", "--headless"]
        let host = ["host", "--headless", "--no-advertise"]
        let match = ["match", "--player", "easy", "--player", "easy"]
        let cases: [(arguments: [String], message: String)] = [
            (join + ["--connect-timeout", "inf"], "--connect-timeout must be a number of seconds from 0.1 to 86400 (got inf)"),
            (join + ["--connect-timeout", "1e10"], "--connect-timeout must be a number of seconds from 0.1 to 86400 (got 10000000000)"),
            (join + ["--connect-timeout", "nan"], "--connect-timeout must be a number of seconds from 0.1 to 86400 (got nan)"),
            (join + ["--connect-timeout", "0"], "--connect-timeout must be a number of seconds from 0.1 to 86400 (got 0)"),
            (join + ["--connect-timeout=-1"], "--connect-timeout must be a number of seconds from 0.1 to 86400 (got -1)"),
            (join + ["--games", "0"], "--games must be a whole number from 1 to 65535 (got 0)"),
            (host + ["--wait-timeout", "nan"], "--wait-timeout must be a number of seconds from 0.1 to 86400 (got nan)"),
            (host + ["--wait-timeout", "inf"], "--wait-timeout must be a number of seconds from 0.1 to 86400 (got inf)"),
            (host + ["--wait-timeout", "0"], "--wait-timeout must be a number of seconds from 0.1 to 86400 (got 0)"),
            (host + ["--move-delay", "1e10"], "--move-delay must be a number of seconds from 0 to 60 (got 10000000000)"),
            (host + ["--move-delay=-1"], "--move-delay must be a number of seconds from 0 to 60 (got -1)"),
            (host + ["--port=-1"], "--port must be a whole number from 0 to 65535 (got -1)"),
            (host + ["--port", "65536"], "--port must be a whole number from 0 to 65535 (got 65536)"),
            (host + ["--games", "0"], "--games must be a whole number from 1 to 65535 (got 0)"),
            (host + ["--matches=-1"], "--matches must be a whole number from 0 to 1000000 (got -1)"),
            (host + ["--move-timeout", "0"], "--move-timeout must be a number of seconds from 0.1 to 86400 (got 0)"),
            (host + ["--move-timeout=-1"], "--move-timeout must be a number of seconds from 0.1 to 86400 (got -1)"),
            (host + ["--move-timeout", "nan"], "--move-timeout must be a number of seconds from 0.1 to 86400 (got nan)"),
            (host + ["--move-timeout", "inf"], "--move-timeout must be a number of seconds from 0.1 to 86400 (got inf)"),
            (host + ["--move-timeout", "86401"],
             "--move-timeout must be a number of seconds from 0.1 to 86400 (got 86401)"),
            (host + ["--move-timeout", "2", "--move-delay", "2"],
             "--move-timeout (2.0 s) must be more than --move-delay (2.0 s): a joiner needs time to answer"),
            (["browse", "--timeout", "inf"], "--timeout must be a number of seconds from 0 to 86400 (got inf)"),
            (["browse", "--timeout", "nan"], "--timeout must be a number of seconds from 0 to 86400 (got nan)"),
            (["replay", "--game", "0", "game.jsonl"], "--game must be 1 or more (got 0)"),
            (match + ["--game-time", "0"], "--game-time must be a number of seconds from 0.1 to 86400 (got 0)"),
            (match + ["--game-time", "inf"], "--game-time must be a number of seconds from 0.1 to 86400 (got inf)"),
            (match + ["--game-time", "nan"], "--game-time must be a number of seconds from 0.1 to 86400 (got nan)"),
            (match + ["--game-time", "100000"], "--game-time must be a number of seconds from 0.1 to 86400 (got 100000)"),
        ]
        for (arguments, message) in cases {
            let process = try TicTacToeProcess(arguments)
            defer { process.terminate() }
            XCTAssertEqual(process.waitForExit(timeout: 30), 64, "\(arguments): \(process.standardError)")
            XCTAssertEqual(process.termination, .exit(64), "\(arguments) was killed by a signal")
            XCTAssertTrue(process.standardError.contains(message), "\(arguments): \(process.standardError)")
        }
    }

    /// Our own name goes to the peer's terminal: control and bidi characters are refused (the peer would see them
    /// escaped anyway).
    func testANameWithControlCharactersIsAUsageError() throws {
        for name in ["evil\u{1B}[2J", "a\u{202E}b", "   ", String(repeating: "n", count: 64)] {
            let process = try TicTacToeProcess(["host", "--headless", "--no-advertise", "--name", name])
            defer { process.terminate() }
            XCTAssertEqual(process.waitForExit(timeout: 30), 64, "\(name.debugDescription): \(process.standardError)")
            let text = process.standardError.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(text.contains("--name must have 1 to 63 bytes of UTF-8 (the length of a DNS label) of "
                + "printable text, no control or bidi characters"), text)
        }
    }

    func testTheRangesAreInTheHelp() throws {
        let help = try TicTacToeProcess(["join", "--help"])
        defer { help.terminate() }
        XCTAssertEqual(help.waitForExit(), 0)
        let text = help.output.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(text.contains("Seconds to keep trying to reach the host, 0.1 to 86400."), text)
        XCTAssertTrue(text.contains("0.1 to 86400 (default: wait until it is granted"), text)
    }
}
