import Foundation
import GameClient
import TicTacToeTestSupport
import XCTest

@testable import AppCore

/// The rule for time and shared state (Sources/AppCore/AppCore.swift), read from the sources as text: the app
/// core, the interface, the modules above the core (the TUI's too) and the executable wait and time on the one clock
/// handed down from the root, never on a clock of their own, and only `blockingWait` holds a thread for async work.
final class TimeRuleTests: XCTestCase {
    /// What each file of those modules may not say, and the files that may (each with its reason).
    private static let forbidden: [(text: String, allowedIn: Set<String>)] = [
        ("clock is ", []),  // production and tests take the same path
        ("ContinuousClock.now", []),
        ("NIODeadline.now", []),
        ("Task.sleep(", []),  // a sleep on the clock instead, which a test can advance
        ("DispatchSemaphore", ["AppProcess/BlockingWait.swift"]),
        // The output's gathering window and the JSON lines' stamps: the output adapter's own monotonic time.
        ("DispatchTime", ["AppProcess/CheckedOutput.swift", "HeadlessUI/JSONLinesReporter.swift"]),
    ]

    func testTheCoreWaitsOnlyOnItsInjectedClock() throws {
        let root = EngineSandbox.packageRoot.appendingPathComponent("Sources")
        var checked = 0
        let modules = [
            "AppCore", "GameClient", "AppProcess", "MatchPlay", "JSONLines", "PrivacyCommands", "HeadlessUI",
            "Series", "Lobby", "TerminalUI", "NetworkScreenState", "tictactoe",
        ]
        for module in modules {
            let folder = root.appendingPathComponent(module)
            let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path))
            for case let path as String in enumerator where path.hasSuffix(".swift") {
                let file = module + "/" + path
                let code = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                    .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                checked += 1
                for rule in Self.forbidden where !rule.allowedIn.contains(file) {
                    for line in code where line.contains(rule.text) {
                        XCTFail("\(file): \(rule.text) — \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 50)
    }

    /// Waiting for cancellation needs no clock: it returns once cancelled, and at once when already cancelled.
    func testUntilCancelledReturnsOnceCancelled() async {
        let started = Recorder<Bool>()
        let waiting = Task {
            started.append(true)
            await untilCancelled()
            return Task.isCancelled
        }
        await assertEventually("the wait to start") { !started.all.isEmpty }
        waiting.cancel()
        let cancelled = await waiting.value
        XCTAssertTrue(cancelled)
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await untilCancelled()
            return true
        }
        let lateReturned = await late.value
        XCTAssertTrue(lateReturned)
    }
}
