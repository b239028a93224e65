import AppCore
import Foundation
import GameProtocol
import GameRules
import MatchPlay
import MatchStatistics
import Series
import TicTacToeTestSupport
import XCTest

@testable import LocalNetworkPrivacy

/// `match --over`'s runner in process: every game a network match between a host and a joiner (the coordinators of
/// `host` and `join`), over loopback only. Where a test needs the local network's rules, its gate treats loopback as
/// the LAN, over a decision in a temporary directory.
final class SeriesNetworkTests: XCTestCase {
    private func runner(
        _ specs: [PlayerSpec], games: Int, seed: UInt64, concurrency: Int = 2, sprt: SPRT? = nil,
        network: SeriesNetwork? = nil
    ) -> SeriesRunner {
        SeriesRunner(
            schedule: SeriesSchedule(players: specs.count, gamesPerPair: games),
            player: SeriesGamePlayer(
                specs: specs, names: SeriesNames.names(specs), seed: seed, scripts: [:],
                engineLogDirectory: Scratch.root, moveTime: .seconds(5), network: network, clock: ContinuousClock()),
            concurrency: concurrency, sprt: sprt)
    }

    /// Each game as `number: moves result`.
    private func play(_ runner: SeriesRunner) async -> (SeriesRunner.Outcome, [String]) {
        var games: [String] = []
        let outcome = await runner.run { record, _ in
            games.append("\(record.game.number): \(record.moves) \(record.result.reason) \(record.board.compactText)")
            return true
        }
        return (outcome, games)
    }

    func testOverLoopbackTheSameSeedPlaysTheSameGamesAsInProcessAndNeedsNoPermission() async throws {
        let gate = try makeGate(.notDetermined)
        let (local, localGames) = await play(runner([.medium, .easy], games: 10, seed: 31))
        for security in [GameSecurity.open, .plaintext] {
            let network = SeriesNetwork(address: "127.0.0.1", security: security, gate: gate)
            let (outcome, games) = await play(runner([.medium, .easy], games: 10, seed: 31, concurrency: 3,
                                                     network: network))
            XCTAssertNil(outcome.failure, "\(security)")
            XCTAssertEqual(outcome.games, 10)
            XCTAssertEqual(games, localGames, "\(security)")
            XCTAssertEqual(outcome.scores, local.scores)
        }
        XCTAssertEqual(gate.store.read(), .notDetermined, "loopback asks nothing")
    }

    func testOverTheLANTheSeriesWaitsForPermissionAndThenPlays() async throws {
        let gate = try makeGate(.notDetermined, loopbackIsLAN: true)
        let network = SeriesNetwork(address: "127.0.0.1", gate: gate)
        let reasons = Recorder<String>()
        let access = Task { try await network.obtainAccess(clock: ContinuousClock()) { reasons.append($0) } }
        let waited = await eventually { !reasons.all.isEmpty }
        XCTAssertTrue(waited, "it says why it waits")
        XCTAssertTrue(reasons.all[0].contains("local network"), "\(reasons.all)")
        try gate.store.write(.allowed)
        try await access.value
        let (outcome, games) = await play(runner([.perfect, .perfect], games: 4, seed: 2, network: network))
        XCTAssertNil(outcome.failure)
        XCTAssertEqual(games.count, 4)
        XCTAssertEqual(outcome.scores[0].draws, 4)
    }

    func testAGameThatCannotBePlayedStopsTheSeriesWithTheHostsExitStatus() async throws {
        // 192.0.2.1 (TEST-NET-1) is no address of this machine: its host cannot listen (nothing is sent anywhere).
        let gate = try makeGate(.allowed)
        let network = SeriesNetwork(address: "192.0.2.1", gate: gate)
        let (outcome, games) = await play(runner([.perfect, .easy], games: 6, seed: 1, network: network))
        XCTAssertEqual(games, [])
        let failure = try XCTUnwrap(outcome.failure)
        XCTAssertEqual(failure.exitStatus, .cannotListen)
        XCTAssertEqual(failure.game, 1)
        XCTAssertNil(failure.player)
        XCTAssertTrue(failure.description.hasPrefix("game 1: the network game over 192.0.2.1 did not finish: cannot listen"),
                      failure.description)
    }

    func testTheSPRTStopsASeriesOverLoopbackAndTheGamesInProgressEnd() async throws {
        let gate = try makeGate(.notDetermined)
        let network = SeriesNetwork(address: "127.0.0.1", gate: gate)
        let sprt = try SPRT(elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05)
        let (outcome, games) = await play(runner([.perfect, .easy], games: 1000, seed: 8, concurrency: 4, sprt: sprt,
                                                 network: network))
        XCTAssertEqual(outcome.decision, .acceptH1)
        XCTAssertLessThan(outcome.games, 1000)
        XCTAssertEqual(games.count, outcome.games)
        XCTAssertNil(outcome.failure, "the games cut short are not failures")
    }

    func testVenues() {
        XCTAssertEqual(SeriesNetwork.address(over: "loopback"), "127.0.0.1")
        XCTAssertEqual(SeriesNetwork.address(over: "LOOPBACK"), "127.0.0.1")
        XCTAssertEqual(SeriesNetwork.address(over: "::1"), "::1")
        for good in ["loopback", "127.0.0.1", "::1", "192.168.1.20", "fe80::1", "10.0.0.1"] {
            XCTAssertNil(SeriesNetwork.addressProblem(good), good)
        }
        for (bad, says) in [("224.0.0.251", "multicast"), ("239.1.2.3", "multicast"), ("ff02::fb", "multicast"),
                            ("0.0.0.0", "every interface"), ("::", "every interface"), ("host.local", "not an IP"),
                            ("", "not an IP"), ("1.2.3", "not an IP")] {
            let problem = SeriesNetwork.addressProblem(bad)
            XCTAssertTrue(problem?.contains(says) == true, "\(bad): \(problem ?? "nil")")
        }
    }
}
