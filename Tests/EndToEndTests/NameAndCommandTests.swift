import Foundation
import XCTest
import TicTacToeTestSupport

/// Argument parsing as the binary does it: every command refuses a `--name` over 63 bytes of UTF-8 after NFC (a DNS
/// label) as a usage error, and an unknown command is a usage error that lists the commands. A name sent in NFC is
/// LoopbackMatchTests' (in process), the name's rule PlayerNameTests', the help's words PinnedHelpTests'.
final class NameAndCommandTests: ProcessTestCase {
    func testANameOf64BytesIsRefusedByEveryCommand() throws {
        let commands = [
            ["host", "--headless", "--no-advertise"], ["join", "127.0.0.1:9", "--headless"], ["play", "--plain"],
        ]
        let names = [String(repeating: "n", count: 64), String(repeating: "\u{E9}", count: 32)]
        for command in commands {
            for name in names {
                let process = track(try TicTacToeProcess(command + ["--name", name]))
                XCTAssertEqual(process.waitForExit(timeout: 30), 64, "\(command): \(process.standardError)")
                let text = process.standardError.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                XCTAssertTrue(text.contains("--name must have 1 to 63 bytes of UTF-8 (the length of a DNS label) of "
                    + "printable text, no control or bidi characters; this one has 64 bytes. Choose another name."),
                    "\(command): \(text)")
            }
        }
    }

    func testAnUnknownCommandIsAUsageErrorListingTheCommands() throws {
        let process = track(try TicTacToeProcess(["bogus"]))
        XCTAssertEqual(process.waitForExit(timeout: 30), 64, process.standardError)
        XCTAssertEqual(process.termination, .exit(64))
        let lines = process.standardError.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Error: unknown command 'bogus'", process.standardError)
        for command in ["play", "host", "join", "browse", "match", "replay", "privacy", "manifest"] {
            XCTAssertTrue(lines.contains { $0.hasPrefix("  \(command) ") },
                          "\(command) not listed:\n\(process.standardError)")
        }
        XCTAssertTrue(lines.contains("  host      Host a game: listen for a joiner and play a match."),
                      process.standardError)
        XCTAssertEqual(lines.last, "Run 'tictactoe --help' for more, or 'tictactoe help COMMAND' for one command.")
        XCTAssertFalse(process.standardError.contains("argument"), "no word about play's arguments")
        XCTAssertTrue(process.output.isEmpty)
    }

    /// The commands, `help COMMAND` and options of the default command (`play`) still work.
    func testKnownCommandsAndTheDefaultCommandsOptionsStillParse() throws {
        for (arguments, status) in [(["--help"], Int32(0)), (["help", "host"], 0), (["--version"], 0),
                                    (["browse", "--help"], 0), (["--name", "bogus", "--bogus"], 64)] {
            let process = track(try TicTacToeProcess(arguments))
            XCTAssertEqual(process.waitForExit(timeout: 30), status, "\(arguments): \(process.standardError)")
            XCTAssertFalse(process.standardError.contains("unknown command"), "\(arguments): \(process.standardError)")
        }
    }
}
