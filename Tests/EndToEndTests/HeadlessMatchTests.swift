import Foundation
import XCTest
import TicTacToeTestSupport

/// Real `tictactoe` processes playing each other over loopback where only processes show it: standard output to a
/// pipe (every line of a fast match, stamped when the environment asks) and the argument parser's usage errors. A
/// match's rules, what the players play, the transcripts, a script that runs out or cannot be read (exit 8), a host
/// nobody answers at (exit 5) and a joiner started before its host are proven in process: LoopbackMatchTests.
final class HeadlessMatchTests: ProcessTestCase {
    /// Standard output to a pipe is gathered (lines that follow each other within 2 ms go out in one write):
    /// every line of a fast match still arrives, in order, by the joiner's exit. With `TICTACTOE_JSON_STAMPS=1` each
    /// line starts with the monotonic clock when it was made (what `make bench` times moves by); without, none does.
    func testEveryLineOfAFastMatchArrivesInOrderAndStampsWhenAsked() throws {
        let (host, port) = try startHost(["--games", "30", "--seed", "5"])
        _ = track(host)
        let joiner = track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json", "--seed", "6"],
                                                environment: ["TICTACTOE_JSON_STAMPS": "1"]))
        XCTAssertEqual(joiner.waitForExit(timeout: 120), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        for side in [host, joiner] {
            XCTAssertEqual(side.events(named: "game-over").compactMap { $0["game"] as? Int }, Array(1...30))
            XCTAssertEqual(side.events(named: "summary").count, 1)
            XCTAssertEqual(side.events.last?["event"] as? String, "summary", "the last line is the last written")
        }
        let stamps = joiner.events.compactMap { $0["_mono_ns"] as? Int }
        XCTAssertEqual(stamps.count, joiner.events.count, "every line stamped")
        XCTAssertEqual(stamps, stamps.sorted(), "in the order they were made")
        XCTAssertTrue(joiner.output.allSatisfy { $0.hasPrefix(#"{"_mono_ns":"#) })
        XCTAssertFalse(host.output.contains { $0.contains("_mono_ns") }, "no stamps unless asked")
    }

    func testUsageErrorsExit64() throws {
        for arguments in [["join"], ["host", "--no-advertise", "--games", "0"], ["join", "host:99999", "--headless"],
                          ["host", "--no-advertise", "--player", "grandmaster", "--headless"]] {
            let process = track(try TicTacToeProcess(arguments))
            XCTAssertEqual(process.waitForExit(), 64, "\(arguments): \(process.standardError)")
            XCTAssertFalse(process.standardError.isEmpty)
        }
    }
}
