import Foundation
import Logging
import TicTacToeTestSupport
import XCTest

@testable import PrivacyReport

/// A fresh directory, removed by the test case's teardown.
func makeTemporaryDirectory(_ testCase: XCTestCase) throws -> String {
    let path = NSTemporaryDirectory() + "tictactoe-report-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}

/// A swift-log handler that keeps the messages, to check what the report logs.
struct RecordingLogHandler: LogHandler {
    let lines: Recorder<String>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.level): \(event.message)")
    }
}

extension PrivacyReportLog {
    /// A decision recorded as the gate records one (LocalNetworkPrivacy's `recordDecision`), in the report's words:
    /// by default a connection to 198.18.0.1:7878.
    func recordDecision(
        _ verdict: String, _ outcome: PrivacyReportEntry.Outcome, operation: String = "connect",
        destination: String = "198.18.0.1:7878", detail: String? = nil, origin: String?
    ) {
        record(PrivacyReportEntry(
            time: currentTime, pid: getpid(), event: .decision, operation: operation, destination: destination,
            outcome: outcome, verdict: verdict, detail: detail, origin: origin))
    }
}
