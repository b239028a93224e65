import Foundation
import XCTest
import TicTacToeTestSupport

/// `--name` takes at most 63 bytes of UTF-8 after NFC (a DNS label) and sends its NFC form; an unknown command is a
/// usage error that lists the commands.
final class NameAndCommandTests: ProcessTestCase {
    /// Bytes: Swift's `==` treats NFC and NFD as equal, the wire and the daemon do not.
    private func bytes(_ text: Any?) -> [UInt8] { Array((text as? String ?? "").utf8) }

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

    /// 63 bytes in NFC (31 "é" and an "a") typed decomposed (94 bytes): accepted, and sent and shown in NFC.
    func testANameOf63BytesInNFCIsAcceptedAndSentInNFC() throws {
        let typed = String(repeating: "e\u{301}", count: 31) + "a"
        let nfc = String(repeating: "\u{E9}", count: 31) + "a"
        XCTAssertEqual(typed.utf8.count, 94)
        XCTAssertEqual(nfc.utf8.count, 63)
        let (host, port) = try startHost(["--name", typed, "--games", "1", "--player", "perfect", "--matches", "1"])
        _ = track(host)
        let listening = try XCTUnwrap(host.events(named: "listening").first)
        XCTAssertEqual(bytes(listening["name"]), Array(nfc.utf8))
        let joiner = track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json", "--name",
                                                 String(repeating: "a", count: 63)]))
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
        let ready = try XCTUnwrap(joiner.events(named: "connected").first, "\(joiner.output)")
        XCTAssertEqual(bytes(ready["peer"]), Array(nfc.utf8), "the hello carries the NFC name")
        let hostReady = try XCTUnwrap(host.events(named: "connected").first)
        XCTAssertEqual(bytes(hostReady["peer"]), Array(String(repeating: "a", count: 63).utf8))
    }

    func testTheHelpStatesTheNameLimit() throws {
        for command in ["host", "join", "play"] {
            let help = track(try TicTacToeProcess([command, "--help"]))
            XCTAssertEqual(help.waitForExit(), 0)
            let text = help.output.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(text.contains("at most 63 bytes of UTF-8, the length of a DNS label"), "\(command): \(text)")
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
