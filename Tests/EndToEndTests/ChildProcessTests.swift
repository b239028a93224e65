import Foundation
import TicTacToeTestSupport
import XCTest

/// The one process harness (TestSupport's `ChildProcess`): nothing a process printed is lost, however late it comes.
final class ChildProcessTests: XCTestCase {
    /// A process that exits while a process it started still writes: `waitForExit` returns every line, the last
    /// ones included (the harness once stopped reading 5 s after the exit).
    func testWaitForExitReturnsTheLinesPrintedAfterTheExitByWhatTheProcessStarted() throws {
        let process = try ChildProcess(
            executable: "/bin/sh", ["-c", "echo first; (sleep 6; echo last; echo late error >&2) & exit 3"],
            environment: ProcessInfo.processInfo.environment, input: .null)
        defer { process.terminate() }
        XCTAssertEqual(process.waitForExit(timeout: 30), 3)
        XCTAssertEqual(process.output, ["first", "last"])
        XCTAssertEqual(process.standardError, "late error\n")
    }

    /// Output held open past the bound is reported, not taken as the end: `waitForEndOfOutput` says false.
    func testOutputHeldOpenIsNotTheEnd() throws {
        let process = try ChildProcess(
            executable: "/bin/sh", ["-c", "sleep 60 & echo $!; exit 0"],
            environment: ProcessInfo.processInfo.environment, input: .null)
        defer { process.terminate() }
        let holder = try XCTUnwrap(process.waitForLine { _ in true }.flatMap { pid_t($0.text) })
        defer { kill(holder, SIGKILL) }  // the sleep this test started holds the pipe
        XCTAssertNotNil(process.waitForLine { _ in true })
        XCTAssertFalse(process.waitForEndOfOutput(timeout: 1))
        XCTAssertEqual(process.termination, .exit(0))
        kill(holder, SIGKILL)
        XCTAssertTrue(process.waitForEndOfOutput(timeout: 30))
    }

    /// A last line without a newline is a line once the output ends; a signal's status is 128 + its number.
    func testAnUnfinishedLastLineAndAKillingSignal() throws {
        let process = try ChildProcess(
            executable: "/bin/sh", ["-c", "printf 'one\\ntwo'; kill -TERM $$"],
            environment: ProcessInfo.processInfo.environment, input: .null)
        XCTAssertEqual(process.waitForExit(timeout: 30), 128 + SIGTERM)
        XCTAssertEqual(process.termination, .signal(SIGTERM))
        XCTAssertEqual(process.output, ["one", "two"])
        XCTAssertEqual(process.standardOutput, "one\ntwo")
    }
}
