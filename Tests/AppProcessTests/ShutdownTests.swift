import Foundation
import GameClient
import GameProtocol
import TicTacToeTestSupport
import XCTest

import AppCore
@testable import AppProcess

/// Signals and shutdown in one place (`Shutdown`): a signal raises the run's stop, the process ends 2 s later on the
/// run's clock with the stop's exit code, and a second signal ends it at once. SIGUSR1 and SIGUSR2 stand in for
/// SIGTERM and SIGINT, so that the test process keeps its own handling of those.
final class ShutdownTests: XCTestCase {
    func testASignalStopsTheRunWhichEndsTwoSecondsLaterAndASecondEndsItAtOnce() async {
        let stop = StopSignal()
        let clock = ManualClock()
        let exits = Recorder<ExitStatus>()
        let shutdown = Shutdown(
            stopping: stop, watchingOutput: false, signals: [(SIGUSR1, .shutdown), (SIGUSR2, .quit)], clock: clock,
            exit: { exits.append($0) })
        // Shutdown returns once its signals are caught: one sent at once is not lost.
        kill(getpid(), SIGUSR1)
        await assertEventually("the stop raised") { stop.raised == .shutdown }
        await assertEventually("the grace period on the run's clock") { clock.sleeping == 1 }
        await clock.advance(by: .milliseconds(1999))
        XCTAssertEqual(exits.all, [], "not before 2 s")
        await clock.advance(by: .milliseconds(1))
        await assertEventually("the end after 2 s") { exits.all == [.terminated] }
        kill(getpid(), SIGUSR2)
        await assertEventually("a second signal ends the run at once") { exits.all == [.terminated, .interrupted] }
        XCTAssertEqual(stop.raised, .shutdown, "the first stop's reason stays")
        withExtendedLifetime(shutdown) {}
    }
}
