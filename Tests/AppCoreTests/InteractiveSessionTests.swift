@testable import AppCore
import Foundation
import GameClient
import GameProtocol
import TicTacToeTestSupport
import XCTest

import AppManifest
@testable import LocalNetworkPrivacy

/// The full-screen app's sessions through the app core, on loopback.
final class InteractiveSessionTests: XCTestCase {
    /// A host who leaves the Host screen tells its spectators it went away, not that it is done.
    func testAHostThatLeavesTellsItsSpectatorsItWentAway() async throws {
        let gate = try makeGate(.allowed)
        let hostReports = Recorder<MatchReport>(), watchReports = Recorder<MatchReport>()
        let host = InteractiveSession.host(
            name: "Host", port: 0, spectators: 1, advertise: false, gate: gate, clock: ContinuousClock(),
            report: { hostReports.append($0) }, finished: { _ in })
        var port: Int?
        await assertEventually("the host to listen") {
            for case .listening(_, let listening, _, _, _) in hostReports.all { port = listening }
            return port != nil
        }
        guard let port else { return }
        let watch = InteractiveSession.watch(
            name: "Watcher", target: try JoinTarget(parsing: "127.0.0.1:\(port)"), gate: gate,
            clock: ContinuousClock(),
            report: { watchReports.append($0) }, finished: { _ in })
        await assertEventually("the watcher to see the host's board") {
            watchReports.all.contains { if case .watched = $0 { return true } else { return false } }
        }
        host.cancel()
        await assertEventually("the watch to end") {
            watchReports.all.contains { if case .watchEnded = $0 { return true } else { return false } }
        }
        let ends = watchReports.all.compactMap { report -> MatchSession.End? in
            if case .watchEnded(let end) = report { return end }
            return nil
        }
        XCTAssertEqual(ends, [.peerLeft(.quit)])
        watch.cancel()
    }
}
