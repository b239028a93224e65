import Foundation
@testable import LocalNetworkPrivacy
@testable import TicTacToeApp
import XCTest

/// Settings › Privacy through the live client: each change of the decision is recorded as the Settings screen's.
final class PrivacyClientTests: XCTestCase {
    func testSettingsChangesAndResetAreRecordedAsTheSettingsScreens() throws {
        let directory = NSTemporaryDirectory() + "tictactoe-privacy-client-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
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
