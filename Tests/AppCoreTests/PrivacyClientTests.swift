@testable import AppCore
import Foundation
import GameClient
@testable import LocalNetworkPrivacy
import PrivacyReport
import TicTacToeTestSupport
import XCTest

/// Settings › Privacy through the live client: each change of the decision is recorded as the Settings screen's.
final class PrivacyClientTests: XCTestCase {
    func testSettingsChangesAndResetAreRecordedAsTheSettingsScreens() throws {
        let directory = try makeTemporaryDirectory(self)
        let report = PrivacyReportLog(directory: directory + "/state")
        let gate = LocalNetworkGate(
            explicitManifestPath: nil, store: DecisionStore(directory: directory + "/config", report: report),
            report: report)
        let client = PrivacyClient.live(gate: gate, logFile: directory + "/log")
        client.setAllowed(true)
        client.reset()
        let changes = try report.read().entries.filter { $0.operation == "permission" }
        XCTAssertEqual(changes.map { $0.destination ?? "-" }, ["allowed", "not-determined"])
        XCTAssertEqual(changes.map { $0.origin ?? "-" }, ["Settings screen", "Settings screen"])
    }
}

extension PrivacyClientTests {
    /// The prompt a screen shows is recorded with that screen: a private host's and a watch's are their own.
    func testThePromptIsRecordedWithTheScreenThatAsked() throws {
        let directory = try makeTemporaryDirectory(self)
        let report = PrivacyReportLog(directory: directory + "/state")
        let gate = try makeGate(report: report)
        let client = PrivacyClient.live(gate: gate, logFile: directory + "/log")
        _ = client.verdict(.host(name: "ann", port: 7878, isPrivate: true))
        _ = client.verdict(.watch(name: "ann", address: "198.18.0.12:7878"))
        let origins = try report.read().entries.compactMap(\.origin)
        XCTAssertTrue(origins.contains("Host a private game screen"), "\(origins)")
        XCTAssertTrue(origins.contains("Watch a game screen"), "\(origins)")
        XCTAssertFalse(origins.contains("Join a game screen"), "\(origins)")
    }
}
