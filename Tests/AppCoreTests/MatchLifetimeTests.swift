@testable import AppCore
import GameProtocol
@testable import GameTransport
import MatchPlay
import NIOCore
import TicTacToeTestSupport
import XCTest

@testable import LocalNetworkPrivacy

/// A host that serves joiner after joiner (a bot tournament's, all night) keeps nothing of a match once it is over:
/// each match's connection, and with it the match's driver, timer and pipeline, is released.
final class MatchLifetimeTests: XCTestCase {
    private let origin = OperationOrigin("match lifetime tests")

    /// A served match's connection, held weakly.
    private struct Served: Sendable {
        weak var channel: (any Channel)?
    }

    /// The host's side of each match runs as `hostMatches` runs it (an open game's listener, a `MatchRunner` on the
    /// link it hands over); in-process joiners play one game each.
    func testAHostServingManyMatchesHoldsNoneOfTheirConnectionsAfterwards() async throws {
        let matches = 5
        let gate = try makeGate(.notDetermined)  // loopback: never asked
        guard case .granted(let capability) = gate.listen(on: .address("127.0.0.1"), for: origin) else {
            return XCTFail("loopback was not cleared")
        }
        let listener = GameListener(capability: capability, port: 0, hostName: "host",
                                    security: .tlsPSK(.pairing(code: .open)), clock: ContinuousClock())
        let options = MatchOptions(name: "host", player: .perfect, seed: 1, games: 1, clock: ContinuousClock())
        let served = Recorder<Served>()
        let events = Recorder<GameListener.Event>()
        let hosting = Task {
            try await listener.run(onEvent: { events.append($0) }, onMatch: { link in
                served.append(Served(channel: link.channel))
                guard let controller = try? options.controller(moveTime: nil) else { return .stop }
                var runner = MatchRunner(role: .host, controller: controller, policy: options.policy,
                                         reporter: ClosureReporter { _ in }, clock: options.clock)
                _ = await runner.run(&link)
                return .keepListening
            })
        }
        func bound() -> Int? {
            for case .listening(_, let bound) in events.all { return bound }
            return nil
        }
        _ = await eventually { bound() != nil }
        guard let port = bound() else {
            listener.stop()
            return XCTFail("the host did not listen")
        }
        for seed in 1...matches {
            let request = JoinRequest(target: try JoinTarget(parsing: "127.0.0.1:\(port)"), origin: origin)
            let options = MatchOptions(
                name: "joiner \(seed)", player: .perfect, seed: UInt64(seed), games: nil, clock: ContinuousClock())
            let status = await joinMatch(request, options: options, gate: gate, reporter: ClosureReporter { _ in })
            XCTAssertEqual(status, .success, "joiner \(seed)")
        }
        listener.stop()
        try await hosting.value
        XCTAssertEqual(served.all.count, matches)
        // Released as each connection's close completes on its event loop: waited for, never timed.
        _ = await eventually { !served.all.contains(where: { $0.channel != nil }) }
        let held = served.all.filter { $0.channel != nil }.count
        XCTAssertEqual(held, 0, "the host still holds \(held) of the \(matches) connections it served")
    }
}
