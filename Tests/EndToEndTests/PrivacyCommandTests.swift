import Foundation
import XCTest

@testable import LocalNetworkPrivacy
import TicTacToeTestSupport

/// `tictactoe privacy …` as real processes, each with its own TICTACTOE_CONFIG_DIR: what only processes show (many
/// writing at once, a change one makes seen by another) and the unknown command `privacy` names itself. What each
/// command reads, stores and says is tested in process (`PrivacyStatusReportTests`).
final class PrivacyCommandTests: XCTestCase {
    func testTwentyProcessesWritingAtOnceLeaveAValidFile() throws {
        try requireBinary()
        let directory = try makeTemporaryDirectory(self)
        let runs = try (0..<20).map { index in
            try startTicTacToe(["privacy", index % 2 == 0 ? "grant" : "deny"], configDirectory: directory)
        }
        // Meanwhile every read sees a whole decision (or none yet).
        let store = DecisionStore(directory: directory)
        var seen: Set<String> = []
        while runs.contains(where: { $0.isRunning }) {
            if let data = FileManager.default.contents(atPath: store.decisionPath) {
                switch DecisionStore.parse(data) {
                case .success(let decision): seen.insert(decision.state.rawValue)
                case .failure: seen.insert("partial: " + String(decoding: data, as: UTF8.self))
                }
            }
            usleep(1000)
        }
        for run in runs.map({ $0.finish() }) {
            XCTAssertEqual(run.status, 0, run.error)
        }
        try assertValidDecisionFile(in: directory)
        XCTAssertTrue(seen.isSubset(of: ["allowed", "denied"]), "\(seen)")
    }

    /// `privacy WORD` with no such command names it and lists privacy's commands (not the usage of `status`, which
    /// `privacy` alone runs); `privacy status WORD` is status's own usage error.
    func testAnUnknownPrivacyCommandIsNamedWithTheCommands() throws {
        try requireBinary()
        let directory = try makeTemporaryDirectory(self)
        let run = try runTicTacToe(["privacy", "bogus"], configDirectory: directory)
        XCTAssertEqual(run.status, 64, run.error)
        XCTAssertTrue(run.error.hasPrefix("Error: unknown command 'bogus' of 'tictactoe privacy'"), run.error)
        for command in ["status", "grant", "deny", "reset", "report"] {
            XCTAssertTrue(run.error.contains("\n  \(command) "), "\(command) in: \(run.error)")
        }
        XCTAssertFalse(run.error.contains("Usage: tictactoe privacy status"), run.error)
        XCTAssertEqual(run.output, "")
        let extra = try runTicTacToe(["privacy", "status", "bogus"], configDirectory: directory)
        XCTAssertEqual(extra.status, 64, extra.error)
        XCTAssertTrue(extra.error.contains("Unexpected argument 'bogus'"), extra.error)
        XCTAssertEqual(try runTicTacToe(["privacy"], configDirectory: directory).status, 0, "privacy alone: status")
    }

    /// A decision another process writes (`tictactoe privacy grant`, `reset`) reaches this one's watch.
    func testAnotherProcessWritingIsSeen() async throws {
        try requireBinary()
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory)
        let changes = StreamCollector(store.changes())
        defer { changes.cancel() }
        let grant = try runTicTacToe(["privacy", "grant"], configDirectory: directory)
        XCTAssertEqual(grant.status, 0, grant.error)
        let sawAllowed = await changes.waitFor { $0 == .allowed }
        XCTAssertTrue(sawAllowed, "\(changes.values.all)")
        let reset = try runTicTacToe(["privacy", "reset"], configDirectory: directory)
        XCTAssertEqual(reset.status, 0, reset.error)
        let sawReset = await changes.waitFor { $0 == .notDetermined }
        XCTAssertTrue(sawReset, "\(changes.values.all)")
    }
}
