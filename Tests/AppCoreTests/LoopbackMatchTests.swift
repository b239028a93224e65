import AppCore
import AppFiles
import AppProcess
import Foundation
import GameClient
import GameProtocol
import HeadlessUI
import MatchPlay
import TicTacToeTestSupport
import XCTest

@testable import LocalNetworkPrivacy

/// A headless match as `host --headless` and `join --headless` play it, both sides in process on loopback
/// (`hostMatches`, `joinMatch`) and reporting as the command line does (`--json` lines, the text transcript): the
/// rules of a match (alternating first player, every game scored on both sides), what a level or a script plays, and
/// the same seeds giving the same games.
final class LoopbackMatchTests: XCTestCase {
    private let origin = OperationOrigin("loopback match tests")

    /// Plays a match on 127.0.0.1 between a host with `host`'s options and a joiner with `joiner`'s (which follows
    /// the host's games); returns both exit statuses once both have ended.
    private func play(
        host: MatchOptions, _ hostReporter: any MatchReporter, joiner: MatchOptions, _ joinerReporter: any MatchReporter
    ) async throws -> (host: ExitStatus, joiner: ExitStatus) {
        let gate = try makeGate(.notDetermined)  // loopback needs no permission
        let request = HostRequest(target: .address("127.0.0.1"), port: 0, matches: 1, advertise: false, origin: origin)
        let hosting = try await LoopbackHost.start(request, options: host, gate: gate, reporter: hostReporter)
        let join = JoinRequest(
            target: try JoinTarget(parsing: "127.0.0.1:\(hosting.port)"), connectTimeout: .seconds(10), origin: origin)
        let joinerStatus = await joinMatch(join, options: joiner, gate: gate, reporter: joinerReporter)
        return (await hosting.task.value, joinerStatus)
    }

    private func options(_ name: String, _ player: PlayerSpec, seed: UInt64, games: Int? = nil) -> MatchOptions {
        MatchOptions(name: name, player: player, seed: seed, games: games, clock: ContinuousClock())
    }

    func testHundredPerfectGamesAreHundredDrawsSeenAlikeOnBothSides() async throws {
        let (host, joiner) = (JSONSide(), JSONSide())
        let statuses = try await play(
            host: options("host", .perfect, seed: 11, games: 100), host.reporter,
            joiner: options("joiner", .perfect, seed: 12), joiner.reporter)
        XCTAssertEqual(statuses.joiner, .success, "\(joiner.lines.all.suffix(5))")
        XCTAssertEqual(statuses.host, .success, "\(host.lines.all.suffix(5))")
        for side in [host, joiner] {
            let summary = try XCTUnwrap(side.events(named: "summary").last, "\(side.lines.all.suffix(5))")
            XCTAssertEqual(summary["games"] as? Int, 100)
            XCTAssertEqual(summary["draws"] as? Int, 100)
            XCTAssertEqual(summary["wins"] as? Int, 0)
            XCTAssertEqual(summary["losses"] as? Int, 0)
            XCTAssertEqual(side.events(named: "game-over").count, 100)
            XCTAssertEqual(side.events(named: "game-start").count, 100)
        }
        // The first player alternates: the joiner is X in odd games, O in even ones.
        let joinerMarks = joiner.events(named: "game-start").compactMap { $0["you"] as? String }
        XCTAssertEqual(Array(joinerMarks.prefix(4)), ["X", "O", "X", "O"])
        // Both transcripts agree move by move.
        XCTAssertEqual(host.moves, joiner.moves)
        XCTAssertGreaterThanOrEqual(host.moves.count, 900)
    }

    func testPerfectNeverLosesToRandomAsHostOrAsJoiner() async throws {
        for (hostPlayer, joinerPlayer, seed) in [(PlayerSpec.perfect, PlayerSpec.easy, UInt64(3)), (.easy, .perfect, 4)] {
            let (host, joiner) = (JSONSide(), JSONSide())
            let statuses = try await play(
                host: options("host", hostPlayer, seed: seed, games: 40), host.reporter,
                joiner: options("joiner", joinerPlayer, seed: seed * 10 + 1), joiner.reporter)
            XCTAssertEqual(statuses.joiner, .success)
            XCTAssertEqual(statuses.host, .success)
            let perfect = hostPlayer == .perfect ? host : joiner
            let summary = try XCTUnwrap(perfect.events(named: "summary").last)
            XCTAssertEqual(summary["games"] as? Int, 40)
            XCTAssertEqual(summary["losses"] as? Int, 0, "perfect lost as \(hostPlayer == .perfect ? "host" : "joiner")")
            XCTAssertGreaterThan(summary["wins"] as? Int ?? 0, 0, "random should lose some of 40 games")
        }
    }

    func testTheSameSeedsReplayTheSameMatch() async throws {
        var transcripts: [[String]] = []
        for _ in 0..<2 {
            let (host, joiner) = (JSONSide(), JSONSide())
            let statuses = try await play(
                host: options("host", .easy, seed: 99, games: 5), host.reporter,
                joiner: options("joiner", .easy, seed: 100), joiner.reporter)
            XCTAssertEqual(statuses.joiner, .success)
            XCTAssertEqual(statuses.host, .success)
            transcripts.append(joiner.moves)
        }
        XCTAssertEqual(transcripts[0], transcripts[1])
        XCTAssertFalse(transcripts[0].isEmpty)
    }

    func testScriptedPlayersPlayTheirMovesAndTheTextTranscriptSaysSo() async throws {
        let directory = try makeTemporaryDirectory(self)
        // The joiner is X in game 1: X 1, O 4, X 2, O 5, X 3 wins the top row.
        try "# top row\n1\n2, 3\n".write(toFile: directory + "/x.txt", atomically: true, encoding: .utf8)
        try "4 5 # too slow\n".write(toFile: directory + "/o.txt", atomically: true, encoding: .utf8)
        let host = JSONSide()
        let text = Recorder<String>()
        let transcript = TranscriptReporter(
            localName: "scripter", target: "127.0.0.1", write: { text.append($0) }, writeError: { text.append($0) })
        let statuses = try await play(
            host: options("host", .script(path: directory + "/o.txt"), seed: 1, games: 1), host.reporter,
            joiner: options("scripter", .script(path: directory + "/x.txt"), seed: 2), transcript)
        XCTAssertEqual(statuses.joiner, .success, "\(text.all)")
        XCTAssertEqual(statuses.host, .success, "\(host.lines.all)")
        let lines = text.all.joined(separator: "\n")
        for needle in ["Seed ", "you (X) play 1", "plays 4", "you (X) win with 1-2-3", "Summary: 1 game; you 1,"] {
            XCTAssertTrue(lines.contains(needle), "transcript lacks '\(needle)':\n\(lines)")
        }
        XCTAssertTrue(lines.contains(" X | X | X "), lines)
        let over = try XCTUnwrap(host.events(named: "game-over").first)
        XCTAssertEqual(over["line"] as? [Int], [1, 2, 3])
        XCTAssertEqual(over["winner"] as? String, "X")
        XCTAssertEqual(over["board"] as? String, "XXXOO....")
    }

    /// A host's and a joiner's `--json` transcripts of a three-game match, replayed (`tictactoe replay`): each holds
    /// the three games; the default is the last, a game number picks another; both sides replay the same moves.
    func testHostAndJoinTranscriptsReplayEachGameOfTheMatch() async throws {
        let (host, joiner) = (JSONSide(), JSONSide())
        let statuses = try await play(
            host: options("Ada", .perfect, seed: 2, games: 3), host.reporter,
            joiner: options("Bo", .easy, seed: 3), joiner.reporter)
        XCTAssertEqual(statuses.joiner, .success, "\(joiner.lines.all.suffix(5))")
        XCTAssertEqual(statuses.host, .success, "\(host.lines.all.suffix(5))")
        let directory = try makeTemporaryDirectory(self)
        for (name, side) in [("host", host), ("join", joiner)] {
            try (side.lines.all.joined(separator: "\n") + "\n").write(
                toFile: directory + "/\(name).jsonl", atomically: true, encoding: .utf8)
        }
        let moves = host.events(named: "move").map { $0["cell"] as? Int ?? 0 }
        let gameOvers = host.events(named: "game-over")
        XCTAssertEqual(gameOvers.count, 3)
        var replayed: [Int] = []
        for game in 1...3 {
            var seen: [[Int]] = []
            for name in ["host", "join"] {
                let path = directory + "/\(name).jsonl"
                let json = try ReplayReport.load(path: path, game: game).replayJSON(path: path)
                let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                XCTAssertEqual(event["board"] as? String, gameOvers[game - 1]["board"] as? String)
                seen.append(try XCTUnwrap(event["moves"] as? [Int]))
                if name == "host" {
                    // The host knows both names: its own (listening) and the joiner's (connected).
                    XCTAssertEqual(Set([event["x"] as? String, event["o"] as? String]), ["Ada", "Bo"], "\(event)")
                }
            }
            XCTAssertEqual(seen[0], seen[1], "both sides replay game \(game) the same")
            replayed += seen[0]
        }
        XCTAssertEqual(replayed, moves)
        let last = try ReplayReport.load(path: directory + "/host.jsonl", game: nil)
        XCTAssertTrue(
            last.replayText(path: directory + "/host.jsonl").first?.hasPrefix("Game 3 of ") == true, "\(last)")
    }

    /// A joiner whose script runs out mid-game ends with exit 8, saying so; for the host the joiner left, and it
    /// listens again.
    func testAJoinerWhoseScriptRunsOutEndsWith8AndTheHostListensAgain() async throws {
        let directory = try makeTemporaryDirectory(self)
        try "5\n".write(toFile: directory + "/short.txt", atomically: true, encoding: .utf8)
        let gate = try makeGate(.notDetermined)
        let request = HostRequest(target: .address("127.0.0.1"), port: 0, matches: 1, advertise: false, origin: origin)
        let hosting = try await LoopbackHost.start(
            request, options: options("host", .perfect, seed: 1, games: 1), gate: gate)
        let host = hosting.json
        let joiner = JSONSide()
        let join = JoinRequest(target: try JoinTarget(parsing: "127.0.0.1:\(hosting.port)"), origin: origin)
        let status = await joinMatch(
            join, options: options("joiner", .script(path: directory + "/short.txt"), seed: 2), gate: gate,
            reporter: joiner.reporter)
        XCTAssertEqual(status, .scriptError, "\(joiner.lines.all)")
        XCTAssertEqual(status.rawValue, 8)
        let message = joiner.events(named: "error").last?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("no moves left"), message)
        await assertEventually("\(host.lines.all)") { host.events(named: "listening").count == 2 }
        XCTAssertEqual(host.events(named: "match-over").first?["end"] as? String, "peer-left")
        hosting.stop.raise(.quit)
        _ = await hosting.task.value
    }

    /// A script that cannot be read fails the join with exit 8 before anything is connected to.
    func testAnUnreadableScriptFailsBeforeAnyConnection() async throws {
        let joiner = JSONSide()
        let join = JoinRequest(target: try JoinTarget(parsing: "127.0.0.1:9"), origin: origin)
        let status = await joinMatch(
            join, options: options("joiner", .script(path: "/nonexistent/x"), seed: 2), gate: try makeGate(),
            reporter: joiner.reporter)
        XCTAssertEqual(status, .scriptError)
        let message = joiner.events(named: "error").last?["message"] as? String ?? ""
        XCTAssertTrue(message.contains("cannot read script"), message)
        XCTAssertTrue(joiner.events(named: "state").isEmpty, "it connected: \(joiner.lines.all)")
    }

    /// A joiner nobody answers waits (connection refused), asks again until its connect timeout, then fails with
    /// exit 5; its waits are on a clock the test moves on at once.
    func testAJoinerNobodyAnswersWaitsThenFailsWith5() async throws {
        let port = try closedLoopbackPort()
        let clock = ManualClock()
        let driver = clock.keepAdvancing()
        defer { driver.cancel() }
        let joiner = JSONSide()
        let join = JoinRequest(
            target: try JoinTarget(parsing: "127.0.0.1:\(port)"), connectTimeout: .milliseconds(1500), origin: origin)
        var joinerOptions = options("joiner", .perfect, seed: 1)
        joinerOptions.clock = clock
        let status = await joinMatch(join, options: joinerOptions, gate: try makeGate(), reporter: joiner.reporter)
        XCTAssertEqual(status, .unreachable, "\(joiner.lines.all)")
        XCTAssertEqual(status.rawValue, 5)
        let states = joiner.events(named: "state").compactMap { $0["state"] as? String }
        XCTAssertTrue(states.contains("waiting"), "\(states)")
        XCTAssertEqual(states.last, "failed")
        let waiting = try XCTUnwrap(joiner.events(named: "state").first { $0["state"] as? String == "waiting" })
        XCTAssertTrue((waiting["reason"] as? String ?? "").contains("refused"), "\(waiting)")
    }

    /// A joiner started before its host waits for it, and plays once it listens.
    func testAJoinerStartedBeforeItsHostWaitsAndThenPlays() async throws {
        let port = try closedLoopbackPort()
        let gate = try makeGate(.notDetermined)
        let clock = ManualClock()
        let joiner = JSONSide()
        let join = JoinRequest(
            target: try JoinTarget(parsing: "127.0.0.1:\(port)"), connectTimeout: .seconds(20), origin: origin)
        var joinerOptions = options("joiner", .easy, seed: 1)
        joinerOptions.clock = clock
        let joining = Task { await joinMatch(join, options: joinerOptions, gate: gate, reporter: joiner.reporter) }
        await assertEventually("\(joiner.lines.all)") {
            joiner.events(named: "state").contains { $0["state"] as? String == "waiting" }
        }
        let request = HostRequest(
            target: .address("127.0.0.1"), port: port, matches: 1, advertise: false, origin: origin)
        let hosting = try await LoopbackHost.start(request, options: options("host", .perfect, seed: 2, games: 2), gate: gate)
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(2))  // the joiner's wait before asking again, at most
        let status = await joining.value
        XCTAssertEqual(status, .success, "\(joiner.lines.all.suffix(5))")
        let hostStatus = await hosting.task.value
        XCTAssertEqual(hostStatus, .success)
        XCTAssertEqual(joiner.events(named: "summary").last?["games"] as? Int, 2)
    }

    /// A name of 63 bytes in NFC typed decomposed (94 bytes) is taken whole, and sent and shown in NFC.
    func testANameOf63BytesInNFCTypedDecomposedIsSentInNFC() async throws {
        let typed = String(repeating: "e\u{301}", count: 31) + "a"
        let nfc = String(repeating: "\u{E9}", count: 31) + "a"
        let joinerName = String(repeating: "a", count: 63)
        XCTAssertEqual(typed.utf8.count, 94)
        XCTAssertEqual(nfc.utf8.count, 63)
        // Bytes: Swift's `==` treats NFC and NFD as equal, the wire and the daemon do not.
        func bytes(_ text: Any?) -> [UInt8] { Array((text as? String ?? "").utf8) }
        let (host, joiner) = (JSONSide(), JSONSide())
        let statuses = try await play(
            host: options(typed, .perfect, seed: 1, games: 1), host.reporter,
            joiner: options(joinerName, .perfect, seed: 2), joiner.reporter)
        XCTAssertEqual(statuses.joiner, .success, "\(joiner.lines.all)")
        XCTAssertEqual(statuses.host, .success, "\(host.lines.all)")
        XCTAssertEqual(bytes(host.events(named: "listening").first?["name"]), Array(nfc.utf8))
        XCTAssertEqual(bytes(joiner.events(named: "connected").first?["peer"]), Array(nfc.utf8),
                       "the hello carries the NFC name")
        XCTAssertEqual(bytes(host.events(named: "connected").first?["peer"]), Array(joinerName.utf8))
    }
}
