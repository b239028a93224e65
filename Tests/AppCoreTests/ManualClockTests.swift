import TicTacToeTestSupport
import XCTest

/// The test clock (TestSupport's `ManualClock`): time moves only by `advance`, which wakes the sleeps that came due
/// and returns once they have returned; `waitForSleepers` waits for sleeps to begin without real time passing.
final class ManualClockTests: XCTestCase {
    func testASleepWakesWhenTheClockReachesItsDeadlineAndNotBefore() async throws {
        let clock = ManualClock()
        let sleep = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(4))
        XCTAssertEqual(clock.sleeping, 1, "4 s is not yet 5")
        XCTAssertEqual(clock.now.offset, .seconds(4))
        await clock.advance(by: .seconds(1))
        XCTAssertEqual(clock.sleeping, 0)
        try await sleep.value
    }

    func testAdvanceWakesTheDueSleepsInDeadlineOrderAndLeavesTheRest() async throws {
        let clock = ManualClock()
        let sleeps = [7, 3, 5].map { seconds in Task { try await clock.sleep(for: .seconds(seconds)) } }
        await clock.waitForSleepers(3)
        await clock.advance(by: .seconds(6))
        XCTAssertEqual(clock.sleeping, 1, "the 7 s sleep waits on")
        XCTAssertEqual(clock.now.offset, .seconds(6))
        try await sleeps[1].value
        try await sleeps[2].value
        await clock.advance(by: .seconds(1))
        try await sleeps[0].value
    }

    /// `begun` counts every sleep: a wait for the second sleep of a task that sleeps twice returns after its first
    /// ended and its second began.
    func testWaitForSleepersCountsTheSleepsBegun() async throws {
        let clock = ManualClock()
        let twice = Task {
            try await clock.sleep(for: .seconds(1))
            try await clock.sleep(for: .seconds(1))
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1, begun: 2)
        XCTAssertEqual(clock.sleeping, 1)
        await clock.advance(by: .seconds(1))
        try await twice.value
    }

    func testACancelledSleepThrowsAndNoLongerWaits() async throws {
        let clock = ManualClock()
        let sleep = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)
        sleep.cancel()
        do {
            try await sleep.value
            XCTFail("the sleep ended without its time")
        } catch is CancellationError {}
        XCTAssertEqual(clock.sleeping, 0)
    }
}
