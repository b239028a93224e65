@testable import AppCore
import Foundation
import GameClient
import GameProtocol
import GameRules
import GameTransport
import JSONLines
import MatchPlay
import TicTacToeTestSupport
import XCTest

import AppManifest
@testable import LocalNetworkPrivacy

/// An engine that hangs on `genmove` through the app core: a host in process on loopback whose side the engine plays,
/// a raw joiner, and the host's clock a `ManualClock` this test advances (the engine's limit is the host's
/// `--move-timeout`; nothing sleeps through it).
final class EngineTimeoutTests: XCTestCase {
    private let origin = OperationOrigin("engine timeout tests")
    private let limit = Duration.seconds(10)

    func testAnEngineThatHangsOnItsMoveLosesTheGameWhenItsTimeIsUp() async throws {
        let directory = try makeTemporaryDirectory(self)
        let gate = try makeGate()
        let sandbox = try EngineSandbox()
        addTeardownBlock { _ = sandbox }  // the engine's directory lives as long as the test
        let marker = sandbox.path + "/genmove-received"
        // Answers everything but genmove, which it only notes (in a file the test waits for).
        let engine = try sandbox.engine(
            named: "hang.sh",
            overrides: """
                name) printf '=%s hang\\n\\n' "$id" ;;
                genmove) : > '\(marker)' ;;
                """)

        let clock = ManualClock()
        let reports = Recorder<MatchReport>()
        let listeners = Recorder<GameListener>()
        var options = MatchOptions(name: "host", player: .engine(command: "sh \(engine)"), seed: 1, games: 1,
                                   moveTimeout: limit, clock: clock)
        options.engineLogDirectory = directory + "/logs"
        let request = HostRequest(target: .address("127.0.0.1"), port: 0, matches: 1, advertise: false, origin: origin,
                                  security: .plaintext)
        let host = Task {
            await hostMatches(request, options: options, gate: gate, reporter: ClosureReporter { reports.append($0) },
                              onListener: { listeners.append($0) })
        }
        var port = 0
        await assertEventually("the host to listen") {
            for case .listening(_, let listening, _, _, _) in reports.all { port = listening }
            return port != 0
        }

        let connection = GameConnection(to: Endpoint(host: "127.0.0.1", port: port), localName: "joiner",
                                        configuration: .init(clock: ContinuousClock()), gate: gate, origin: origin)
        let frames = try await connection.run { link -> [GameMessage] in
            var frames: [GameMessage] = []
            guard let start = try await link.next() else { return frames }
            frames.append(start)
            // We are X and move first; the engine (O) is asked for its move and does not answer.
            try await link.send(.move(cell: 4))
            await assertEventually("the engine's genmove") { FileManager.default.fileExists(atPath: marker) }
            // Two sleeps: the engine's move limit, and the host's turn timer still armed for our move (it re-arms
            // lazily: our move only made it forget the turn; it fires at the same 10 s and finds nothing to report).
            await clock.waitForSleepers(2)
            await clock.advance(by: .seconds(9))
            XCTAssertTrue(reports.all.allSatisfy { if case .engineFailed = $0 { false } else { true } },
                          "9 s is not yet 10")
            await clock.advance(by: .seconds(1))
            while let frame = try await link.next() { frames.append(frame) }
            return frames
        }
        XCTAssertEqual(frames, [.start(game: 1, joinerMark: .x, firstMover: .x), .resign, .bye(.seriesOver)])

        let failures = reports.all.compactMap { report -> [String]? in
            if case .engineFailed(let game, let engine, let kind, let reason, let log) = report {
                return ["\(game)", engine, kind, reason, log]
            }
            return nil
        }
        XCTAssertEqual(failures.count, 1, "\(reports.all)")
        XCTAssertEqual(failures.first?.prefix(4), ["1", "hang", "timeout", "did not answer genmove within 10.000 s"])
        XCTAssertTrue(failures.first?[4].hasPrefix(directory + "/logs/hang.sh-") ?? false, "\(failures)")
        let line = try JSONEvent.line(try XCTUnwrap(reports.all.first { if case .engineFailed = $0 { true } else { false } }))
        XCTAssertTrue(line.hasPrefix(#"{"engine":"hang","event":"engine-failed","game":1,"kind":"timeout","log":""#), line)
        XCTAssertTrue(line.hasSuffix(#"","reason":"did not answer genmove within 10.000 s"}"#), line)

        listeners.all.last?.stop()
        let status = await host.value
        XCTAssertEqual(status, .success)
    }
}
