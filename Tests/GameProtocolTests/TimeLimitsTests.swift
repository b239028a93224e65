import GameProtocol
import XCTest

/// Time limits on the wire: whole milliseconds, 0 for none, at least 1 for a limit, at most UInt32.max.
final class TimeLimitsTests: XCTestCase {
    func testLimitsBecomeWholeMillisecondsThatFitTheField() {
        XCTAssertEqual(TimeLimits.wireMilliseconds(nil), 0)
        XCTAssertEqual(TimeLimits.wireMilliseconds(.zero), 0)
        XCTAssertEqual(TimeLimits.wireMilliseconds(.microseconds(10)), 1, "a limit is never sent as none")
        XCTAssertEqual(TimeLimits.wireMilliseconds(.milliseconds(1500)), 1500)
        XCTAssertEqual(TimeLimits.wireMilliseconds(.seconds(86_400)), 86_400_000)
        XCTAssertEqual(TimeLimits.wireMilliseconds(.seconds(Int64.max)), UInt32.max, "saturates, never wraps")
        XCTAssertNil(TimeLimits.limit(wireMilliseconds: 0))
        XCTAssertEqual(TimeLimits.limit(wireMilliseconds: 1500), .milliseconds(1500))
    }
}
