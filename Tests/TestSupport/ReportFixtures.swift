import Foundation
import PrivacyReport
import Synchronization
import XCTest

/// A wall-clock time the test sets, for the privacy report (its 7 days pass without sleeping).
public final class ReportTime: Sendable {
    private let date = Mutex(Date(timeIntervalSince1970: 1_795_000_000))  // 2026-11-18

    public init() {}

    public var now: Date { date.withLock { $0 } }
    public func advance(days: Double) { date.withLock { $0 += days * 24 * 60 * 60 } }
    public var clock: @Sendable () -> Date { { self.now } }
}

extension XCTestCase {
    /// A privacy report in a fresh directory removed after the test, at `time`, logging to `lines`.
    public func makeReportLog(
        time: ReportTime = ReportTime(), fileLimit: Int = PrivacyReportLog.defaultFileLimit,
        lines: Recorder<String> = Recorder()
    ) throws -> PrivacyReportLog {
        PrivacyReportLog(
            directory: try makeTemporaryDirectory(self) + "/state/tictactoe", fileLimit: fileLimit,
            logger: recordingLogger(lines), now: time.clock)
    }
}
