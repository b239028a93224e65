import Foundation
import XCTest

@testable import LocalNetworkPrivacy
import TicTacToeTestSupport
import AppManifest

/// `tictactoe privacy …` as real processes, each with its own TICTACTOE_CONFIG_DIR.
final class PrivacyCommandTests: XCTestCase {
    private func status(_ directory: String, _ extra: [String] = []) throws -> [String: Any] {
        let run = try runTicTacToe(["privacy", "status", "--json"] + extra, configDirectory: directory)
        XCTAssertEqual(run.status, 0, run.error)
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        return try XCTUnwrap(object, run.output)
    }

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

    func testStatusGrantDenyReset() throws {
        try requireBinary()
        let directory = try makeTemporaryDirectory(self)
        let manifest = assetsDirectory + "/Info.plist"
        var object = try status(directory, ["--info-plist", manifest])
        XCTAssertEqual(object["state"] as? String, "not-determined")
        XCTAssertEqual(object["decision_file"] as? String, directory + "/local-network.json")
        XCTAssertEqual(object["decision_file_status"] as? String, "none")
        XCTAssertEqual(object["manifest_path"] as? String, manifest)
        XCTAssertEqual(object["display_name"] as? String, "TicTacToe")
        XCTAssertEqual(
            object["usage_description"] as? String, "TicTacToe uses the local network to discover players around you.")
        XCTAssertEqual(object["usage_description_missing"] as? Bool, false)
        XCTAssertEqual(object["bonjour_services"] as? [String], ["_tictactoe._tcp"])
        XCTAssertEqual(
            object["prompt_title"] as? String,
            "\u{201C}TicTacToe\u{201D} would like to find and connect to devices on your local network."
        )
        XCTAssertTrue(object["manifest_error"] is NSNull)
        XCTAssertTrue(object["decided_at"] is NSNull)
        XCTAssertEqual(
            Set(object.keys),
            [
                "state", "decided_at", "decided_by", "decision_file", "decision_file_status", "manifest_path",
                "manifest_error", "display_name", "usage_description", "usage_description_missing", "prompt_title",
                "prompt_message", "bonjour_services", "log_file", "language", "language_reason", "strings_files",
            ],
            "stable keys"
        )
        XCTAssertTrue((object["log_file"] as? String)?.hasSuffix("tictactoe/tictactoe.log") == true)

        let grant = try runTicTacToe(["privacy", "grant"], configDirectory: directory)
        XCTAssertEqual(grant.status, 0, grant.error)
        XCTAssertTrue(grant.output.contains("allowed"), grant.output)
        object = try status(directory)
        XCTAssertEqual(object["state"] as? String, "allowed")
        XCTAssertEqual(object["decided_by"] as? String, "tictactoe privacy grant")
        XCTAssertEqual(object["decision_file_status"] as? String, "valid")
        XCTAssertNotNil(object["decided_at"] as? String)

        let deny = try runTicTacToe(["privacy", "deny"], configDirectory: directory)
        XCTAssertEqual(deny.status, 0, deny.error)
        XCTAssertTrue(deny.output.contains("privacy grant"), "says how to undo: \(deny.output)")
        XCTAssertEqual(try status(directory)["state"] as? String, "denied")

        let reset = try runTicTacToe(["privacy", "reset"], configDirectory: directory)
        XCTAssertEqual(reset.status, 0, reset.error)
        XCTAssertTrue(reset.output.contains("asks again"), reset.output)
        XCTAssertEqual(try status(directory)["state"] as? String, "not-determined")
    }

    func testResetLeavesTheSettingsFileAlone() throws {
        try requireBinary()
        let directory = try makeTemporaryDirectory(self)
        let settings = directory + "/settings.json"
        let text = Data(#"{"difficulty":"easy","name":"Zoë","version":1}"#.utf8)
        try text.write(to: URL(fileURLWithPath: settings))
        for command in ["grant", "reset", "deny", "reset"] {
            let run = try runTicTacToe(["privacy", command], configDirectory: directory)
            XCTAssertEqual(run.status, 0, run.error)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: settings)), text, "after privacy \(command)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/local-network.json"))
    }

    func testStatusText() throws {
        try requireBinary()
        let directory = try makeTemporaryDirectory(self)
        _ = try runTicTacToe(["privacy", "deny"], configDirectory: directory)
        let run = try runTicTacToe(["privacy", "status"], configDirectory: directory)
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertTrue(run.output.hasPrefix("Local network access: denied"), run.output)
        for expected in [
            "_tictactoe._tcp", "Info.plist", directory + "/local-network.json", "tictactoe.log",
            "TicTacToe uses the local network",
        ] {
            XCTAssertTrue(run.output.contains(expected), "\(expected) in: \(run.output)")
        }
    }

    func testStatusOfACorruptFile() throws {
        try requireBinary()
        let directory = try makeTemporaryDirectory(self)
        try Data("{corrupt".utf8).write(to: URL(fileURLWithPath: directory + "/local-network.json"))
        let object = try status(directory)
        XCTAssertEqual(object["state"] as? String, "not-determined")
        XCTAssertEqual(object["decision_file_status"] as? String, "corrupt")
    }

    func testAnUnknownFormatVersionIsKeptUntilTheUserDecides() throws {
        try requireBinary()
        let directory = try makeTemporaryDirectory(self)
        let path = directory + "/local-network.json"
        let original = Data("{\"state\":\"allowed\",\"version\":4}\n".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        let object = try status(directory)
        XCTAssertEqual(object["state"] as? String, "not-determined")
        XCTAssertEqual(object["decision_file_status"] as? String, "unknown-version", "not called corrupt: \(object)")
        let text = try runTicTacToe(["privacy", "status"], configDirectory: directory)
        XCTAssertTrue(text.output.contains("a format version this tictactoe does not know"), text.output)
        // A join that needs the local network, without a terminal: it waits (no prompt), then gives up. It is only
        // evaluated by the gate: nothing is sent to 198.18.0.1.
        let join = try runTicTacToe(
            ["join", "198.18.0.1:7878", "--headless", "--wait-timeout", "0.5"], configDirectory: directory)
        XCTAssertEqual(join.status, 11, join.error)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "status and a waiting join keep it")

        let grant = try runTicTacToe(["privacy", "grant"], configDirectory: directory)
        XCTAssertEqual(grant.status, 0, grant.error)
        XCTAssertEqual(try status(directory)["state"] as? String, "allowed", "the user's decision replaces it")
    }

    func testStatusWithAMissingManifestSaysWhy() throws {
        try requireBinary()
        let directory = try makeTemporaryDirectory(self)
        let missing = directory + "/missing.plist"
        let object = try status(directory, ["--info-plist", missing])
        XCTAssertTrue(object["manifest_path"] is NSNull)
        XCTAssertTrue((object["manifest_error"] as? String)?.contains(missing) == true, "\(object)")
        XCTAssertEqual(object["state"] as? String, "not-determined")
    }

    func testStatusWithoutBonjourServicesOrUsageDescription() throws {
        try requireBinary()
        let directory = try makeTemporaryDirectory(self)
        let manifest = try writeManifest(["CFBundleDisplayName": "Bare"], in: directory)
        let object = try status(directory, ["--info-plist", manifest])
        XCTAssertEqual(object["bonjour_services"] as? [String], [])
        XCTAssertTrue(object["usage_description"] is NSNull)
        XCTAssertEqual(object["usage_description_missing"] as? Bool, true)
        XCTAssertEqual(object["prompt_message"] as? String, AppManifest.defaultUsageDescription)
    }

    func testAFailedWriteExitsOneAndSaysWhy() throws {
        try requireBinary()
        let parent = try makeTemporaryDirectory(self)
        _ = FileManager.default.createFile(atPath: parent + "/file", contents: Data())
        let run = try runTicTacToe(["privacy", "grant"], configDirectory: parent + "/file")
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.error.contains("cannot store the local network decision"), run.error)
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

    func testHelpExplainsTheModel() throws {
        try requireBinary()
        let run = try runTicTacToe(["privacy", "--help"], configDirectory: try makeTemporaryDirectory(self))
        XCTAssertEqual(run.status, 0)
        for expected in ["status", "grant", "deny", "reset", "remembered", "Loopback", "NoAuth", "EXIT CODES"] {
            XCTAssertTrue(run.output.contains(expected), "\(expected) in: \(run.output)")
        }
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
