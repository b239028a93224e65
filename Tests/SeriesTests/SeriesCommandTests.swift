import AppCore
import AppProcess
import Foundation
import GameProtocol
import MatchPlay
import MatchStatistics
@testable import Series
import TicTacToeTestSupport
import XCTest

/// `tictactoe match` once its arguments are parsed, in process (`SeriesCommand`, its output and errors into files):
/// the text a user reads (seed, a progress line per game, the Elo lines, the tables, the summary line), the JSON lines
/// and their keys, the SPRT's stop, the round robin's standings, the transcripts folder, and a script that fails; over
/// the network (`--over`), a script that fails, the wait for permission on a LAN address and the manifest's refusal
/// of plaintext there.
final class SeriesCommandTests: XCTestCase {
    private struct Run {
        var status: ExitStatus
        var output: [String]
        var errors: String

        /// The output without the last line (the elapsed time).
        var table: [String] { output.filter { !$0.hasPrefix("Finished ") } }

        /// Every output line as a JSON object.
        var events: [[String: Any]] {
            output.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        }

        func events(named name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
    }

    private func match(
        _ players: [PlayerSpec], games: Int, seed: UInt64, concurrency: Int = 1, sprt: SPRT? = nil, json: Bool = false,
        transcripts: String? = nil, network: SeriesNetwork? = nil
    ) async throws -> Run {
        let directory = try makeTemporaryDirectory(self)
        let command = SeriesCommand(
            players: players, gamesPerPair: games, seed: seed, sprt: sprt, concurrency: concurrency,
            moveTime: .seconds(5), gameTime: nil, network: network, json: json, transcripts: transcripts,
            clock: ContinuousClock())
        let outputPath = directory + "/output.txt"
        let errorsPath = directory + "/errors.txt"
        let output = CheckedOutput(
            descriptor: open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600), name: "standard output",
            ownsDescriptor: true)
        let errors = CheckedOutput(
            descriptor: open(errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600), name: "standard error",
            ownsDescriptor: true)
        let status = try await command.run(stop: StopSignal(), output: output, errors: errors)
        output.waitUntilWritten()
        errors.waitUntilWritten()
        let text = try String(contentsOfFile: outputPath, encoding: .utf8)
        return Run(
            status: status, output: text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init),
            errors: try String(contentsOfFile: errorsPath, encoding: .utf8))
    }

    func testASeededMatchGivesTheSameTableWhateverTheConcurrency() async throws {
        let first = try await match([.perfect, .easy], games: 20, seed: 17)
        XCTAssertEqual(first.status, .success, first.errors)
        for concurrency in [4, 7] {
            let other = try await match([.perfect, .easy], games: 20, seed: 17, concurrency: concurrency)
            XCTAssertEqual(other.table, first.table, "concurrency \(concurrency)")
        }
        let lines = first.output
        XCTAssertEqual(lines.first, "Seed: 17 (replay with --seed 17)")
        // A progress line after each game, cutechess-cli's.
        let progress = lines.filter { $0.hasPrefix("Score of perfect vs easy: ") }
        XCTAssertEqual(progress.count, 21, "20 games and the final block")
        XCTAssertTrue(progress[0].hasSuffix("] 1"), progress[0])
        XCTAssertTrue(progress[19].hasSuffix("] 20"), progress[19])
        XCTAssertTrue(progress[19].contains(" - 0 - "), "perfect never loses: \(progress[19])")
        XCTAssertTrue(lines.contains { $0.hasPrefix("Elo difference: ") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("Elo 95% interval: [") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("Pair ") && $0.contains("95% interval") }, "\(lines)")
        let end = try XCTUnwrap(lines.last)
        XCTAssertTrue(end.hasPrefix("Finished 20 of 20 games in ") && end.hasSuffix(" s (seed 17)"), end)
    }

    func testPerfectAgainstPerfectDrawsEveryGameAtEloZero() async throws {
        let run = try await match([.perfect, .perfect], games: 10, seed: 1, json: true)
        XCTAssertEqual(run.status, .success, run.errors)
        let result = try XCTUnwrap(run.events(named: "match-result").first, "\(run.output)")
        XCTAssertEqual(result["first"] as? String, "perfect#1")
        XCTAssertEqual(result["second"] as? String, "perfect#2")
        XCTAssertEqual(result["draws"] as? Int, 10)
        XCTAssertEqual(result["games"] as? Int, 10)
        XCTAssertEqual(result["elo"] as? Double, 0)
        XCTAssertEqual(result["elo_lower"] as? Double, 0)
        XCTAssertEqual(result["elo_upper"] as? Double, 0)
    }

    func testARoundRobinOfThreeRanksPerfectFirst() async throws {
        let players: [PlayerSpec] = [.easy, .perfect, .medium]
        let run = try await match(players, games: 10, seed: 5, concurrency: 2, json: true)
        XCTAssertEqual(run.status, .success, run.errors)
        XCTAssertEqual(run.events(named: "match-game").count, 30)
        XCTAssertEqual(run.events(named: "match-result").map { "\($0["first"]!) vs \($0["second"]!)" },
                       ["easy vs perfect", "easy vs medium", "perfect vs medium"])
        let standings = try XCTUnwrap(run.events(named: "standings").first)
        let ranked = try XCTUnwrap(standings["players"] as? [[String: Any]])
        XCTAssertEqual(ranked.count, 3)
        XCTAssertEqual(ranked.first?["player"] as? String, "perfect")
        XCTAssertEqual(ranked.first?["losses"] as? Int, 0)
        XCTAssertEqual(ranked.map { $0["rank"] as? Int }, [1, 2, 3])
        XCTAssertEqual(ranked.map { $0["games"] as? Int }, [20, 20, 20])
        // The points add up to the games played (a win 1 to one side, a draw ½ to each).
        XCTAssertEqual(ranked.compactMap { $0["points"] as? Double }.reduce(0, +), 30)
        // The text form has the standings table too.
        let text = try await match(players, games: 10, seed: 5)
        XCTAssertEqual(text.status, .success, text.errors)
        let header = try XCTUnwrap(text.output.firstIndex { $0.hasPrefix("Rank  Player") }, "\(text.output)")
        XCTAssertTrue(text.output[header + 1].contains("perfect"), text.output[header + 1])
    }

    func testTheSPRTStopsALopsidedMatchAndSaysWhichHypothesis() async throws {
        let sprt = try SPRT(elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05)
        let text = try await match([.perfect, .easy], games: 1000, seed: 8, sprt: sprt)
        XCTAssertEqual(text.status, .success, text.errors)
        let line = try XCTUnwrap(text.output.first { $0.hasPrefix("SPRT: LLR: ") }, "\(text.output)")
        XCTAssertTrue(line.hasSuffix("[0.00,50.00] - H1 was accepted"), line)
        let end = try XCTUnwrap(text.output.last)
        XCTAssertTrue(end.hasSuffix("; stopped by the SPRT (H1)"), end)
        XCTAssertFalse(end.hasPrefix("Finished 1000 "), end)
        // JSON: the decision and the LLR with its bounds.
        let json = try await match([.perfect, .easy], games: 1000, seed: 8, sprt: sprt, json: true)
        XCTAssertEqual(json.status, .success, json.errors)
        let result = try XCTUnwrap(json.events(named: "match-result").first)
        let fields = try XCTUnwrap(result["sprt"] as? [String: Any])
        XCTAssertEqual(fields["decision"] as? String, "H1")
        XCTAssertGreaterThanOrEqual(fields["llr"] as? Double ?? 0, fields["upper_bound"] as? Double ?? 99)
        XCTAssertEqual(json.events(named: "match-end").first?["end"] as? String, "sprt")
        XCTAssertEqual(json.events(named: "match-game").count, result["games"] as? Int)
    }

    func testJSONLinesHaveTheDocumentedKeysSorted() async throws {
        let run = try await match([.medium, .easy], games: 4, seed: 2, json: true)
        XCTAssertEqual(run.status, .success, run.errors)
        let events = run.events
        XCTAssertEqual(events.count, run.output.count, "every line is a JSON object: \(run.output)")
        XCTAssertEqual(events.map { $0["event"] as? String ?? "" },
                       ["seed"] + Array(repeating: ["match-game", "progress"], count: 4).flatMap { $0 }
                           + ["match-result", "match-end"])
        XCTAssertEqual(events[0]["seed"] as? Int, 2)
        XCTAssertEqual(Set(events[1].keys),
                       ["event", "game", "pair_game", "first", "second", "x", "o", "winner", "result", "reason", "moves",
                        "board"])
        XCTAssertEqual(events[1]["x"] as? String, "medium")
        XCTAssertEqual(events[3]["x"] as? String, "easy", "colours alternate")
        XCTAssertEqual(Set(events[2].keys), ["event", "first", "second", "wins", "losses", "draws", "games", "score"])
        let result = events[events.count - 2]
        XCTAssertEqual(Set(result.keys),
                       ["event", "first", "second", "wins", "losses", "draws", "games", "score", "elo", "elo_lower",
                        "elo_upper", "elo_margin", "los", "draw_ratio"])
        let end = events[events.count - 1]
        XCTAssertEqual(Set(end.keys), ["event", "games", "scheduled", "seed", "exit", "elapsed_ms", "end"])
        XCTAssertEqual(end["exit"] as? Int, 0)
        XCTAssertEqual(end["end"] as? String, "completed")
        // Keys sorted, like every other JSON event.
        for line in run.output {
            let keys = line.split(separator: ",").compactMap { part -> String? in
                guard let open = part.firstIndex(of: "\""), part.first == "{" || part.first == "\"" else { return nil }
                let rest = part[part.index(after: open)...]
                guard let close = rest.firstIndex(of: "\""), rest[close...].dropFirst().first == ":" else { return nil }
                return String(rest[..<close])
            }
            XCTAssertEqual(keys, keys.sorted(), line)
        }
    }

    func testTranscriptsWriteOneFilePerGameInTheNetworkVocabulary() async throws {
        let directory = try makeTemporaryDirectory(self) + "/made/by/the/command"
        let run = try await match([.perfect, .easy], games: 5, seed: 4, transcripts: directory)
        XCTAssertEqual(run.status, .success, run.errors)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        XCTAssertEqual(files, (1...5).map { "game-000\($0).jsonl" })
        for (index, file) in files.enumerated() {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            let events = text.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
            let names = events.map { $0["event"] as? String ?? "" }
            XCTAssertEqual(Array(names.prefix(3)), ["seed", "players", "game-start"], file)
            XCTAssertEqual(names.last, "game-over", file)
            XCTAssertGreaterThanOrEqual(names.filter { $0 == "move" }.count, 5, file)
            XCTAssertEqual(events[1]["x"] as? String, index % 2 == 0 ? "perfect" : "easy", file)
            XCTAssertEqual(events[2]["you"] as? String, index % 2 == 0 ? "X" : "O", file)
            let score = try XCTUnwrap(events.last?["score"] as? [String: Any])
            XCTAssertEqual(score["games"] as? Int, index + 1)
        }
    }

    func testAScriptThatRunsOutOfMovesStopsTheSeriesWithTheScriptErrorStatus() async throws {
        let directory = try makeTemporaryDirectory(self)
        let script = directory + "/short.txt"
        try "5 1\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try await match([.script(path: script), .perfect], games: 4, seed: 1, json: true)
        XCTAssertEqual(run.status, .scriptError, run.errors)
        XCTAssertTrue(run.errors.contains("script error"), run.errors)
        let end = try XCTUnwrap(run.events(named: "match-end").first, "\(run.output)")
        XCTAssertEqual(end["end"] as? String, "script-error")
        XCTAssertEqual(end["exit"] as? Int, 8)
        // An unreadable script: the same status before any game, nothing printed.
        let missing = try await match([.script(path: directory + "/none.txt"), .perfect], games: 4, seed: 1)
        XCTAssertEqual(missing.status, .scriptError, missing.errors)
        XCTAssertTrue(missing.errors.contains("cannot read script"), missing.errors)
        XCTAssertEqual(missing.output, [])
    }

    func testOverLoopbackAScriptThatRunsOutStopsTheSeriesWithTheScriptErrorStatus() async throws {
        let script = try makeTemporaryDirectory(self) + "/short.txt"
        try "5\n".write(toFile: script, atomically: true, encoding: .utf8)
        let network = SeriesNetwork(address: "127.0.0.1", gate: try makeGate(.notDetermined))
        let run = try await match([.script(path: script), .easy], games: 4, seed: 3, network: network)
        XCTAssertEqual(run.status, .scriptError, run.errors)
        XCTAssertTrue(run.errors.contains("game 1: script error: script:\(script): "), run.errors)
    }

    func testOverALANAddressItWaitsForPermissionSayingWhyAndThenPlaysThereOrSaysWhyNot() async throws {
        // 192.0.2.1 (TEST-NET-1) is no address of this machine: nothing is sent to it; the permission comes first.
        let undecided = SeriesNetwork(
            address: "192.0.2.1", gate: try makeGate(.notDetermined), waitTimeout: .milliseconds(100))
        let waiting = try await match([.perfect, .easy], games: 2, seed: 1, network: undecided)
        XCTAssertEqual(waiting.status, .localNetworkWaitTimedOut, waiting.errors)
        XCTAssertTrue(waiting.errors.contains("tictactoe: waiting for local network permission: "), waiting.errors)
        XCTAssertTrue(waiting.errors.contains("--wait-timeout"), waiting.errors)
        XCTAssertFalse(waiting.output.contains { $0.hasPrefix("Score of ") }, "no game was played")
        // Allowed: the game's host cannot listen there, and says so with host's exit status.
        let allowed = SeriesNetwork(address: "192.0.2.1", gate: try makeGate(.allowed))
        let refused = try await match([.perfect, .easy], games: 2, seed: 1, network: allowed)
        XCTAssertEqual(refused.status, .cannotListen, refused.errors)
        XCTAssertTrue(refused.errors.contains(
            "game 1: the network game over 192.0.2.1 did not finish: cannot listen on 192.0.2.1"), refused.errors)
    }

    func testPlaintextOverTheLANFollowsTheManifestsTransportSecurityBeforeAnyPrompt() async throws {
        // Undecided: a refusal comes at once, without asking or waiting (the wait timeout only ends a test that fails).
        let network = SeriesNetwork(
            address: "192.0.2.1", security: .plaintext, gate: try makeGate(.notDetermined), waitTimeout: .seconds(30))
        let run = try await match([.perfect, .easy], games: 2, seed: 1, network: network)
        XCTAssertEqual(run.status, .transportSecurityRefused, run.errors)
        XCTAssertTrue(run.errors.contains("cannot play unencrypted games (--plaintext) over 192.0.2.1: "), run.errors)
        XCTAssertFalse(run.errors.contains("waiting"), run.errors)
    }

    /// A series that cannot get the network ends with the error's own code, and a wait cancelled by a stop as that
    /// stop (143 for SIGTERM, 130 for Ctrl-C), through the one mapping (`ExitStatus(failure:stop:)`).
    func testNoAccessEndsWithTheErrorsOwnCodeOrTheStop() {
        XCTAssertEqual(SeriesCommand.noAccess(CancellationError(), over: "192.0.2.1", stop: .shutdown).status, .terminated)
        XCTAssertEqual(SeriesCommand.noAccess(CancellationError(), over: "192.0.2.1", stop: .quit).status, .interrupted)
        XCTAssertEqual(SeriesCommand.noAccess(CancellationError(), over: "192.0.2.1", stop: nil).status, .failure)
        XCTAssertEqual(SeriesCommand.noAccess(CancellationError(), over: "192.0.2.1", stop: .quit).message,
                       "stopped before the series began")
        let timedOut = LocalNetworkAccessError.timedOut(after: .seconds(1), reason: "not determined")
        XCTAssertEqual(SeriesCommand.noAccess(timedOut, over: "192.0.2.1", stop: .quit).status, .localNetworkWaitTimedOut)
        XCTAssertEqual(SeriesCommand.noAccess(timedOut, over: "192.0.2.1", stop: nil).message, "\(timedOut)")
    }
}
