import AppCore
import AppFiles
import AppManifest
import Foundation
import GameProtocol
import HeadlessUI
import LocalNetworkPrivacy
import Logging
import PrivacyCommands
import TicTacToeTestSupport
import XCTest

/// `privacy status` as the core reads and renders it (the executable only prints it), and what grant, deny and reset
/// store and say; each test in a fresh temporary directory.
final class PrivacyStatusReportTests: XCTestCase {
    /// The store and the manifest log what tests provoke on purpose (a corrupt file, a bare manifest): not shown.
    private let quiet = Logger(label: "test.privacy-status") { _ in SwiftLogNoOpLogHandler() }

    /// Writes an XML property list with `entries` and reads it back as the app would.
    private func manifest(
        _ entries: [String: String], services: [String]?, in directory: String
    ) throws -> AppManifest {
        var plist: [String: Any] = entries
        if let services { plist["NSBonjourServices"] = services }
        return try AppManifest(contentsOf: writeManifest(plist, in: directory), logger: quiet)
    }

    private func standardManifest(in directory: String) throws -> AppManifest {
        try AppManifest(contentsOf: writeManifest(standardEntries, in: directory), logger: quiet)
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func testNeverAskedPinnedAsJSONAndText() throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory, logger: quiet)
        let report = PrivacyStatusReport.read(
            store: store, manifest: .success(try standardManifest(in: directory)), logFile: "/var/log/t/tictactoe.log")
        XCTAssertEqual(report.state, .notDetermined)
        XCTAssertEqual(report.decisionFileStatus, .none)
        let json = try report.json()
        XCTAssertEqual(
            json,
            #"{"bonjour_services":["_tictactoe._tcp"],"decided_at":null,"decided_by":null,"#
                + #""decision_file":"\#(directory)/local-network.json","decision_file_status":"none","#
                + #""display_name":"TicTacToe","language":"en","language_reason":"no LANGUAGE, LC_ALL, LC_MESSAGES or LANG asks for another","#
                + #""log_file":"/var/log/t/tictactoe.log","manifest_error":null,"#
                + #""manifest_path":"\#(directory)/Info.plist","#
                + #""prompt_message":"TicTacToe uses the local network to discover players around you.","#
                + #""prompt_title":"“TicTacToe” would like to find and connect to devices on your local network.","#
                + #""state":"not-determined","strings_files":[],"#
                + #""usage_description":"TicTacToe uses the local network to discover players around you.","#
                + #""usage_description_missing":false}"#
        )
        XCTAssertEqual(
            report.text,
            """
            Local network access: not determined (TicTacToe asks the first time a game needs the local network)
              app:               TicTacToe
              manifest:          \(directory)/Info.plist
              usage description: TicTacToe uses the local network to discover players around you.
              prompt:            “TicTacToe” would like to find and connect to devices on your local network. TicTacToe uses the local network to discover players around you.
              Bonjour services:  _tictactoe._tcp
              decision file:     \(directory)/local-network.json (none yet: never asked, or reset)
              log file:          /var/log/t/tictactoe.log
              language:          en (no LANGUAGE, LC_ALL, LC_MESSAGES or LANG asks for another)
              text from:         the built-in English (no strings file for en)
            """
        )
    }

    func testAValidDecisionSaysWhoAndWhen() throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory, logger: quiet)
        try write(
            #"{"decided_at":"2024-05-06T07:08:09Z","source":"tictactoe privacy deny","state":"denied","version":1}"#,
            to: store.decisionPath)
        let report = PrivacyStatusReport.read(
            store: store, manifest: .success(try standardManifest(in: directory)), logFile: "/l.log")
        XCTAssertEqual(report.state, .denied)
        XCTAssertEqual(report.decisionFileStatus, .valid)
        let json = try report.json()
        XCTAssertTrue(
            json.contains(
                #""decided_at":"2024-05-06T07:08:09Z","decided_by":"tictactoe privacy deny","#
                    + #""decision_file":"\#(directory)/local-network.json","decision_file_status":"valid""#),
            json)
        XCTAssertTrue(json.contains(#""state":"denied""#), json)
        XCTAssertEqual(
            report.text.split(separator: "\n").first,
            "Local network access: denied (by tictactoe privacy deny on 2024-05-06T07:08:09Z)")
        XCTAssertTrue(
            report.text.contains("  decision file:     \(directory)/local-network.json\n  log file:          /l.log\n"),
            report.text)
    }

    func testACorruptFileIsNotDetermined() throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory, logger: quiet)
        try write("{corrupt", to: store.decisionPath)
        let report = PrivacyStatusReport.read(
            store: store, manifest: .success(try standardManifest(in: directory)), logFile: "/l.log")
        XCTAssertEqual(report.state, .notDetermined)
        XCTAssertEqual(report.decisionFileStatus, .corrupt)
        let json = try report.json()
        XCTAssertTrue(json.contains(#""decided_at":null,"decided_by":null"#), json)
        XCTAssertTrue(json.contains(#""decision_file_status":"corrupt""#), json)
        XCTAssertTrue(
            report.text.contains(
                "  decision file:     \(directory)/local-network.json (corrupt: treated as not determined; "
                    + "`tictactoe privacy reset` removes it)"),
            report.text)
    }

    func testAMissingManifestIsNullWithTheError() throws {
        let directory = try makeTemporaryDirectory(self)
        let missing = directory + "/missing.plist"
        let report = PrivacyStatusReport.read(
            store: DecisionStore(directory: directory, logger: quiet),
            manifest: Result { try AppManifest.locate(explicitPath: missing) }, logFile: "/l.log")
        let error = try XCTUnwrap(report.manifest.error)
        XCTAssertTrue(error.contains(missing), error)
        let json = try report.json()
        XCTAssertEqual(
            json,
            #"{"bonjour_services":null,"decided_at":null,"decided_by":null,"#
                + #""decision_file":"\#(directory)/local-network.json","decision_file_status":"none","#
                + #""display_name":null,"language":"en","language_reason":"no LANGUAGE, LC_ALL, LC_MESSAGES or LANG asks for another","log_file":"/l.log","#
                + #""manifest_error":"\#(error)","manifest_path":null,"prompt_message":null,"prompt_title":null,"#
                + #""state":"not-determined","strings_files":[],"usage_description":null,"#
                + #""usage_description_missing":null}"#
        )
        XCTAssertEqual(
            report.text,
            """
            Local network access: not determined (TicTacToe asks the first time a game needs the local network)
              manifest:          error: \(error)
              decision file:     \(directory)/local-network.json (none yet: never asked, or reset)
              log file:          /l.log
              language:          en (no LANGUAGE, LC_ALL, LC_MESSAGES or LANG asks for another)
              text from:         the built-in English (no strings file for en)
            """
        )
    }

    func testABareManifest() throws {
        let directory = try makeTemporaryDirectory(self)
        let bare = try manifest(["CFBundleDisplayName": "Bäre/App"], services: nil, in: directory)
        let report = PrivacyStatusReport.read(
            store: DecisionStore(directory: directory, logger: quiet), manifest: .success(bare), logFile: "/l.log")
        let json = try report.json()
        XCTAssertTrue(json.contains(#""bonjour_services":[],"#), json)
        XCTAssertTrue(json.contains(#""display_name":"Bäre/App","#), json)
        XCTAssertTrue(json.contains(#""usage_description":null,"usage_description_missing":true}"#), json)
        XCTAssertTrue(
            json.contains(#""prompt_message":"\#(AppManifest.defaultUsageDescription)","#), json)
        XCTAssertTrue(report.text.hasPrefix("Local network access: not determined (Bäre/App asks"), report.text)
        XCTAssertTrue(
            report.text.contains(
                "  usage description: (missing: the prompt shows \"\(AppManifest.defaultUsageDescription)\")\n"
                    + "  prompt:            “Bäre/App” would like to find and connect to devices on your local network. "
                    + "\(AppManifest.defaultUsageDescription)\n"
                    + "  Bonjour services:  (none declared: browsing and advertising fail with NoAuth)\n"),
            report.text)
    }

    func testGrantDenyResetStoreAndSay() throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory, logger: quiet)
        let file = store.decisionPath

        XCTAssertEqual(
            try PrivacyChange.grant.apply(to: store, displayName: "TicTacToe"),
            "Local network access allowed for “TicTacToe”: searching, hosting and joining LAN games go ahead "
                + "(anything waiting proceeds now). Stored in \(file).")
        var report = PrivacyStatusReport.read(store: store, manifest: noManifest, logFile: "")
        XCTAssertEqual(report.state, .allowed)
        XCTAssertEqual(report.decision?.source, "tictactoe privacy grant")
        XCTAssertEqual(report.decisionFileStatus, .valid)
        XCTAssertNotNil(report.decidedAt)
        XCTAssertTrue(
            report.text.hasPrefix("Local network access: allowed (by tictactoe privacy grant on "), report.text)

        XCTAssertEqual(
            try PrivacyChange.deny.apply(to: store, displayName: "TicTacToe"),
            "Local network access denied for “TicTacToe”: searching, hosting and joining LAN games wait until you "
                + "run `tictactoe privacy grant` (loopback still works). Stored in \(file).")
        report = PrivacyStatusReport.read(store: store, manifest: noManifest, logFile: "")
        XCTAssertEqual(report.state, .denied)
        XCTAssertEqual(report.decision?.source, "tictactoe privacy deny")

        XCTAssertEqual(
            try PrivacyChange.reset.apply(to: store, displayName: "TicTacToe"),
            "Local network permission reset (not determined): “TicTacToe” asks again the next time it needs the local "
                + "network. Removed \(file).")
        report = PrivacyStatusReport.read(store: store, manifest: noManifest, logFile: "")
        XCTAssertEqual(report.state, .notDetermined)
        XCTAssertEqual(report.decisionFileStatus, .none)
    }

    func testAChangeThatCannotBeStoredThrowsWhy() throws {
        let directory = try makeTemporaryDirectory(self)
        _ = FileManager.default.createFile(atPath: directory + "/file", contents: Data())
        let store = DecisionStore(directory: directory + "/file", logger: quiet)
        XCTAssertThrowsError(try PrivacyChange.grant.apply(to: store, displayName: "TicTacToe")) { error in
            XCTAssertTrue("\(error)".contains("cannot store the local network decision"), "\(error)")
            XCTAssertEqual(ExitStatus(failure: error), .failure, "the command exits 1")
        }
    }

    /// `privacy status --json` with the project's own manifest: every key, and what the manifest declares.
    func testTheShippedManifestAsStatusShowsIt() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = assetsDirectory + "/Info.plist"
        let report = PrivacyStatusReport.read(
            store: DecisionStore(directory: directory, logger: quiet),
            manifest: .success(try AppManifest(contentsOf: path, logger: quiet)), logFile: "/l/tictactoe.log")
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(try report.json().utf8)) as? [String: Any])
        XCTAssertEqual(
            Set(object.keys),
            [
                "state", "decided_at", "decided_by", "decision_file", "decision_file_status", "manifest_path",
                "manifest_error", "display_name", "usage_description", "usage_description_missing", "prompt_title",
                "prompt_message", "bonjour_services", "log_file", "language", "language_reason", "strings_files",
            ],
            "stable keys")
        XCTAssertEqual(object["state"] as? String, "not-determined")
        XCTAssertEqual(object["decision_file"] as? String, directory + "/local-network.json")
        XCTAssertEqual(object["decision_file_status"] as? String, "none")
        XCTAssertEqual(object["manifest_path"] as? String, path)
        XCTAssertEqual(object["display_name"] as? String, "TicTacToe")
        XCTAssertEqual(
            object["usage_description"] as? String, "TicTacToe uses the local network to discover players around you.")
        XCTAssertEqual(object["usage_description_missing"] as? Bool, false)
        XCTAssertEqual(object["bonjour_services"] as? [String], ["_tictactoe._tcp"])
        XCTAssertEqual(
            object["prompt_title"] as? String,
            "\u{201C}TicTacToe\u{201D} would like to find and connect to devices on your local network.")
        XCTAssertTrue(object["manifest_error"] is NSNull)
        XCTAssertTrue(object["decided_at"] is NSNull)
    }

    /// Grant, reset, deny and reset touch the decision file alone: the settings file beside it stays as it was.
    func testChangesLeaveTheSettingsFileAlone() throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory, logger: quiet)
        let settings = directory + "/settings.json"
        let text = Data(#"{"difficulty":"easy","name":"Zoë","version":1}"#.utf8)
        try text.write(to: URL(fileURLWithPath: settings))
        for change in [PrivacyChange.grant, .reset, .deny, .reset] {
            _ = try change.apply(to: store, displayName: "TicTacToe")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: settings)), text, "after privacy \(change)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.decisionPath))
    }

    /// A decision file of a format version this tictactoe does not know: status says so (not corrupt) and treats it
    /// as not determined; the user's decision replaces it.
    func testAnUnknownFormatVersionIsKeptUntilTheUserDecides() throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory, logger: quiet)
        let original = Data("{\"state\":\"allowed\",\"version\":4}\n".utf8)
        try original.write(to: URL(fileURLWithPath: store.decisionPath))
        let report = PrivacyStatusReport.read(store: store, manifest: noManifest, logFile: "")
        XCTAssertEqual(report.state, .notDetermined)
        XCTAssertEqual(report.decisionFileStatus, .unknownVersion, "not called corrupt")
        let json = try report.json()
        XCTAssertTrue(json.contains(#""decision_file_status":"unknown-version""#), json)
        XCTAssertTrue(report.text.contains("a format version this tictactoe does not know"), report.text)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.decisionPath)), original, "status keeps it")

        _ = try PrivacyChange.grant.apply(to: store, displayName: "TicTacToe")
        let decided = PrivacyStatusReport.read(store: store, manifest: noManifest, logFile: "")
        XCTAssertEqual(decided.state, .allowed, "the user's decision replaces it")
    }

    func testTheNameInMessages() {
        XCTAssertEqual(
            PrivacyChange.displayName(manifest: .success(standardManifestValue), explicitPath: true).name, "Tic")
        let missing = PrivacyChange.displayName(manifest: .failure(CocoaError(.fileNoSuchFile)), explicitPath: false)
        XCTAssertEqual(missing.name, AppManifest.fallbackDisplayName)
        XCTAssertNil(missing.note)
        let explicit = PrivacyChange.displayName(manifest: .failure(CocoaError(.fileNoSuchFile)), explicitPath: true)
        XCTAssertEqual(explicit.name, AppManifest.fallbackDisplayName)
        XCTAssertEqual(explicit.note?.hasPrefix("tictactoe: note: "), true)
    }

    private let noManifest: Result<AppManifest, any Error> = .failure(CocoaError(.fileNoSuchFile))

    private let standardManifestValue = AppManifest(
        path: "/test/Info.plist", displayName: "Tic", usageDescription: nil, bonjourServices: [])
}
