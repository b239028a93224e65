import Foundation
import XCTest

/// Polls `condition` every 10 ms until it holds (true) or `timeout` seconds pass (false): for waiting on other tasks,
/// threads and processes, never for a measurement, and never for a `ManualClock` (`waitForSleepers` waits for those
/// without real time). The bound is generous so that a loaded 2-core machine cannot make a test flake.
public func eventually(timeout: Double = 15, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while !condition() {
        if ContinuousClock.now >= deadline { return condition() }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// Fails the test unless `condition` holds within `timeout` seconds.
public func assertEventually(
    _ message: @autoclosure () -> String = "", timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line,
    _ condition: () -> Bool
) async {
    if await !eventually(timeout: timeout, condition) {
        XCTFail("not within \(timeout) s: \(message())", file: file, line: line)
    }
}

/// The same wait for code that cannot suspend (a tmux screen, a process's files): polls `condition` every `interval`
/// seconds, blocking the calling thread, until it holds (true) or `timeout` seconds pass (false).
public func eventually(timeout: Double = 15, every interval: Double = 0.1, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while !condition() {
        if ContinuousClock.now >= deadline { return condition() }
        usleep(UInt32(interval * 1_000_000))
    }
    return true
}
