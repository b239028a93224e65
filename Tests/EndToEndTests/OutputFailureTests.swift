import Foundation
import TicTacToeTestSupport
import XCTest

/// No output error crashes anything (the real binary): a reader that closes its pipe or a full disk ends the run
/// with exit code 74 after the peer was told goodbye; a failing log file is one warning, and the game goes on.
final class OutputFailureTests: ProcessTestCase {
    private func assertExit74(
        _ process: TicTacToeProcess, saying error: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(process.waitForExit(), 74, process.standardError, file: file, line: line)
        XCTAssertEqual(process.termination, .exit(74), "killed by a signal: \(process.standardError)",
                       file: file, line: line)
        XCTAssertTrue(process.standardError.contains("cannot write standard output (\(error))"), process.standardError,
                      file: file, line: line)
    }

    /// `tictactoe host --json | head -n 2`: the host leaves its match with a bye (the joiner sees it leave, not a
    /// reset) and exits 74 instead of dying of SIGILL.
    func testHostWhoseReaderLeavesAfterTwoLinesSaysByeAndExits74() throws {
        let host = track(try TicTacToeProcess(
            ["host", "--headless", "--no-advertise", "--bind", "127.0.0.1", "--port", "0", "--json", "--games", "5"],
            output: .head(2)))  // as `head -n 2` does
        XCTAssertNotNil(host.waitForLine(from: 1) { _ in true }, host.standardError)
        let lines = host.output
        let listening = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data((lines.last ?? "").utf8)) as? [String: Any], "\(lines)")
        let port = try XCTUnwrap(listening["port"] as? Int, "\(lines)")
        let joiner = track(try TicTacToeProcess(
            ["join", "127.0.0.1:\(port)", "--headless", "--json", "--move-delay", "0.1"]))
        XCTAssertEqual(joiner.waitForExit(), 3, joiner.standardError)
        let over = try XCTUnwrap(joiner.events(named: "match-over").last, joiner.output.joined(separator: "\n"))
        XCTAssertEqual(over["end"] as? String, "peer-left")
        XCTAssertEqual(over["detail"] as? String, "the opponent left (shutdown)", "a bye, not a closed connection")
        assertExit74(host, saying: "Broken pipe")
    }

    /// The same for a joiner: its host hears it leave with a bye and goes on serving.
    func testJoinerWhoseReaderLeavesSaysByeAndExits74() throws {
        let (host, port) = try startHost(["--games", "5", "--matches", "1"])
        _ = track(host)
        // Its reader leaves once the first game has started, so that the joiner is in the middle of its match.
        let joiner = track(try TicTacToeProcess(
            ["join", "127.0.0.1:\(port)", "--headless", "--json", "--move-delay", "0.2"],
            output: .headUntil(#""game-start""#)))
        assertExit74(joiner, saying: "Broken pipe")
        let over = try XCTUnwrap(host.waitForEvent("match-over"), host.standardError)
        XCTAssertEqual(over["end"] as? String, "peer-left")
        XCTAssertEqual(over["detail"] as? String, "the opponent left (shutdown)")
        XCTAssertTrue(host.waitForEventCount("listening", 2), "the host keeps serving")
    }

    /// A line-mode game against the computer (`play --plain`) whose reader went away ends at its next prompt.
    func testLineModeGameWhoseReaderLeavesExits74() throws {
        let game = track(try TicTacToeProcess(["play", "--plain", "--first", "you", "--seed", "3"], output: .head(2)))
        XCTAssertNotNil(game.waitForLine(from: 1) { _ in true }, game.standardError)
        game.writeInput("5\n", close: false)  // the move's board goes nowhere; the next prompt cannot be shown: the game ends
        assertExit74(game, saying: "Broken pipe")
    }

    func testStandardOutputOnAFullDiskExits74() throws {
        let host = track(try TicTacToeProcess(
            ["host", "--headless", "--no-advertise", "--bind", "127.0.0.1", "--port", "0", "--json"],
            output: .file("/dev/full")))
        assertExit74(host, saying: "No space left on device")
        let game = track(try TicTacToeProcess(["play", "--plain"], output: .file("/dev/full")))
        assertExit74(game, saying: "No space left on device")
        let config = Scratch.path("tictactoe-output-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let status = track(try TicTacToeProcess(
            ["privacy", "status", "--json"], environment: ["TICTACTOE_CONFIG_DIR": config], output: .file("/dev/full")))
        assertExit74(status, saying: "No space left on device")
        let (realHost, port) = try startHost(["--games", "3"])
        _ = track(realHost)
        let joiner = track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless"], output: .file("/dev/full")))
        assertExit74(joiner, saying: "No space left on device")
    }

    /// The debug log on a full disk, or on a path that cannot be opened: one warning on stderr, and the match is
    /// played to its end as if nothing happened.
    /// A command's last lines can still be waiting when it returns (a reader that fell behind; gathered output): the
    /// process waits for them as it exits, and when they cannot be written (the reader left), it exits 74 saying
    /// why, never a silent 0.
    func testLinesStillWaitingAtExitThatCannotBeWrittenExit74() throws {
        let config = Scratch.path("tictactoe-output-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let status = track(try TicTacToeProcess(
            ["privacy", "status"], environment: ["TICTACTOE_CONFIG_DIR": config], output: .full))
        // Its text waits behind 64 KB nobody reads; once it is blocked writing it, the reader leaves.
        XCTAssertTrue(status.waitUntilBlockedWritingOutput(), status.standardError)
        status.closeOutput()
        assertExit74(status, saying: "Broken pipe")
    }

    func testAFailingLogFileIsOneWarningAndTheMatchCompletes() throws {
        for logFile in ["/dev/full", "/proc/tictactoe-no-such-dir/tictactoe.log"] {
            let (host, port) = try startHost(["--games", "3", "--log-file", logFile])
            _ = track(host)
            let joiner = track(try TicTacToeProcess(
                ["join", "127.0.0.1:\(port)", "--headless", "--json", "--log-file", logFile]))
            XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
            XCTAssertEqual(host.waitForExit(), 0, host.standardError)
            for side in [host, joiner] {
                XCTAssertEqual(side.events(named: "summary").last?["games"] as? Int, 3, side.standardError)
                let warnings = side.standardError.components(separatedBy: "warning: cannot ").count - 1
                XCTAssertEqual(warnings, 1, "\(logFile): \(side.standardError)")
                XCTAssertTrue(side.standardError.contains("the log file \(logFile)"), side.standardError)
                XCTAssertTrue(side.standardError.contains("logging is off, the game goes on"), side.standardError)
            }
        }
    }
}
