import Foundation
import TicTacToeTestSupport
import XCTest

@testable import PrivacyReport

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
