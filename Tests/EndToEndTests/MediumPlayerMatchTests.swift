import Foundation
import TicTacToeTestSupport
import XCTest

/// `--player medium` in real processes over loopback: seeded (the same seed, the same match), stronger than easy,
/// never better than perfect.
final class MediumPlayerMatchTests: ProcessTestCase {
    /// A headless match of `games` games, the host playing `hostPlayer`: both summaries and the joiner's moves.
    private func match(host hostPlayer: String, join joinerPlayer: String, games: Int, seeds: (String, String))
        throws -> (host: [String: Any], joiner: [String: Any], moves: [String])
    {
        let (host, port) = try startHost(["--player", hostPlayer, "--games", "\(games)", "--seed", seeds.0])
        processes.append(host)
        let joiner = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json", "--player",
                                           joinerPlayer, "--seed", seeds.1])
        processes.append(joiner)
        XCTAssertEqual(joiner.waitForExit(timeout: 120), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        let hostSummary = try XCTUnwrap(host.events(named: "summary").last, host.standardError)
        let joinerSummary = try XCTUnwrap(joiner.events(named: "summary").last, joiner.standardError)
        XCTAssertEqual(hostSummary["games"] as? Int, games)
        return (hostSummary, joinerSummary, joiner.events(named: "move").map { "\($0["mark"]!)\($0["cell"]!)" })
    }

    func testMediumReplaysWithItsSeedBeatsEasyMoreOftenAndNeverBeatsPerfect() throws {
        let first = try match(host: "medium", join: "easy", games: 40, seeds: ("5", "6"))
        let second = try match(host: "medium", join: "random", games: 40, seeds: ("5", "6"))  // random: easy's alias
        XCTAssertEqual(first.moves, second.moves, "the same seeds, another match")
        XCTAssertFalse(first.moves.isEmpty)
        let mediumWins = first.host["wins"] as? Int ?? 0
        let easyWins = first.host["losses"] as? Int ?? 0
        XCTAssertGreaterThan(mediumWins, easyWins, "medium won \(mediumWins), easy \(easyWins) of 40")

        let perfect = try match(host: "perfect", join: "medium", games: 40, seeds: ("7", "8"))
        XCTAssertEqual(perfect.host["losses"] as? Int, 0, "perfect lost to medium")
        XCTAssertEqual(perfect.joiner["wins"] as? Int, 0)
    }
}
