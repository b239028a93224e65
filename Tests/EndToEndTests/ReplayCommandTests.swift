import Foundation
import TicTacToeTestSupport
import XCTest

/// `tictactoe replay` as a user runs it: headless on a transcript the binary wrote (`match --transcripts`), and its
/// errors (exit 65, naming the file and the line). The games the full-screen UI saves and the viewer:
/// TerminalUITests.SavedGamesTests.
final class ReplayCommandTests: ProcessTestCase {
    private func temporaryDirectory() -> String {
        let path = Scratch.path("tictactoe-replay-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (TicTacToeProcess, Int32?) {
        let process = track(try TicTacToeProcess(arguments, environment: environment))
        return (process, process.waitForExit(timeout: 60))
    }

    /// A seeded two-game match's transcripts, and its `--json` game lines (the moves to compare with).
    private func matchTranscripts() throws -> (directory: String, games: [[String: Any]]) {
        let directory = temporaryDirectory() + "/games"
        let arguments = ["match", "--player", "perfect", "--player", "easy", "--games", "2", "--seed", "4"]
        let (match, status) = try run(arguments + ["--transcripts", directory])
        XCTAssertEqual(status, 0, match.standardError)
        let (json, jsonStatus) = try run(arguments + ["--json"])
        XCTAssertEqual(jsonStatus, 0, json.standardError)
        return (directory, json.events(named: "match-game"))
    }

    func testHeadlessReplayOfAMatchTranscriptShowsTheMovesTheBoardAndTheResult() throws {
        let (directory, games) = try matchTranscripts()
        XCTAssertEqual(games.count, 2)
        let file = directory + "/game-0002.jsonl"
        let (replay, status) = try run(["replay", "--headless", file])
        XCTAssertEqual(status, 0, replay.standardError)
        let lines = replay.output
        XCTAssertEqual(lines.first, "Game 2 of \(file): X easy · O perfect", "\(lines)")
        let moves = try XCTUnwrap(games[1]["moves"] as? [Int])
        let moveLines = lines.filter { $0.hasPrefix("Move ") }
        XCTAssertEqual(moveLines.count, moves.count, "\(lines)")
        for (index, cell) in moves.enumerated() {
            XCTAssertTrue(moveLines[index].hasPrefix("Move \(index + 1) of \(moves.count): "), moveLines[index])
            XCTAssertTrue(moveLines[index].hasSuffix(" in cell \(cell)"), moveLines[index])
        }
        // The final board, as the match's game line has it, drawn in rows.
        let board = try XCTUnwrap(games[1]["board"] as? String)
        // (│ in a UTF-8 locale, | otherwise.)
        let drawn = lines.map { $0.replacingOccurrences(of: "│", with: "|") }
            .filter { $0.hasPrefix(" ") && $0.contains("|") }
            .map { $0.replacingOccurrences(of: " ", with: "").split(separator: "|").joined() }
            .joined()
        XCTAssertEqual(drawn.map { $0.isNumber ? "." : String($0) }.joined(), board, "\(lines)")
        let winner = games[1]["winner"] as? String
        let last = try XCTUnwrap(lines.last)
        XCTAssertEqual(last.hasPrefix("Draw"), winner == nil, last)
        if let winner { XCTAssertTrue(last.contains("(\(winner)) wins"), last) }

        // --json: one line, the same game.
        let (json, jsonStatus) = try run(["replay", "--json", file])
        XCTAssertEqual(jsonStatus, 0, json.standardError)
        XCTAssertEqual(json.output.count, 1, "\(json.output)")
        let event = try XCTUnwrap(json.events(named: "replay").first)
        XCTAssertEqual(event["moves"] as? [Int], moves)
        XCTAssertEqual(event["board"] as? String, board)
        XCTAssertEqual(event["x"] as? String, "easy")
        XCTAssertEqual(event["game"] as? Int, 2)
    }

    func testACorruptedOrTruncatedRecordExits65NamingTheFileAndTheLine() throws {
        let (directory, _) = try matchTranscripts()
        let text = try String(contentsOfFile: directory + "/game-0001.jsonl", encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        let broken = directory + "/broken.jsonl"

        try (lines.joined(separator: "\n").dropLast(10)).write(toFile: broken, atomically: true, encoding: .utf8)
        var (replay, status) = try run(["replay", "--headless", broken])
        XCTAssertEqual(status, 65, replay.standardError)
        XCTAssertEqual(replay.standardError, "tictactoe: \(broken):\(lines.count): the record is truncated: its "
                        + "last line stops in the middle of an object\n")
        XCTAssertTrue(replay.output.isEmpty)

        lines[3] = "garbage"
        try (lines.joined(separator: "\n") + "\n").write(toFile: broken, atomically: true, encoding: .utf8)
        (replay, status) = try run(["replay", "--headless", broken])
        XCTAssertEqual(status, 65, replay.standardError)
        XCTAssertEqual(replay.standardError,
                       "tictactoe: \(broken):4: not a JSON object (is this a --json transcript?)\n")

        // Only the start of the game: no finished game.
        try (lines.prefix(3).joined(separator: "\n") + "\n").write(toFile: broken, atomically: true, encoding: .utf8)
        (replay, status) = try run(["replay", "--headless", broken])
        XCTAssertEqual(status, 65, replay.standardError)
        XCTAssertTrue(replay.standardError.hasPrefix("tictactoe: \(broken): no finished game in the record: game 1 "),
                      replay.standardError)

        (replay, status) = try run(["replay", "--headless", directory + "/missing.jsonl"])
        XCTAssertEqual(status, 65, replay.standardError)
        XCTAssertTrue(replay.standardError.hasPrefix(
            "tictactoe: \(directory)/missing.jsonl: no such file (saved games are in "), replay.standardError)

        (replay, status) = try run(["replay", "--headless", "--game", "0", broken])
        XCTAssertEqual(status, 64, replay.standardError)
    }

    func testADirectoryAFIFOAndADeviceAreNamedAndRefusedAtOnceWithExit65() throws {
        let directory = temporaryDirectory()
        let fifo = directory + "/pipe.jsonl"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let notARecord = "not a game record (a game the full-screen UI saved, or a --json transcript)"
        for (path, what) in [
            (directory, "is a directory, \(notARecord); name one of its .jsonl files"),
            (fifo, "is a named pipe (FIFO), \(notARecord)"), ("/dev/zero", "is a device, \(notARecord)"),
        ] {
            // Promptly: a FIFO without a writer, or /dev/zero, must not be waited on or read.
            let process = track(try TicTacToeProcess(["replay", "--headless", path]))
            let status = process.waitForExit(timeout: 10)
            XCTAssertEqual(status, 65, "\(path): \(process.standardError)")
            XCTAssertEqual(process.standardError, "tictactoe: \(path) \(what)\n")
            XCTAssertEqual(process.output, [])
        }
    }

    /// A host's and a joiner's `--json` transcripts of a real three-game match over loopback: each holds the three
    /// games; the default is the last, --game picks another; both sides replay the same moves.
    func testHostAndJoinTranscriptsReplayEachGameOfTheMatch() throws {
        let (host, port) = try startHost(["--player", "perfect", "--games", "3", "--seed", "2", "--name", "Ada"])
        _ = track(host)
        let joiner = track(try TicTacToeProcess(
            ["join", "127.0.0.1:\(port)", "--headless", "--json", "--player", "easy", "--seed", "3", "--name", "Bo"]))
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        let directory = temporaryDirectory()
        for (name, side) in [("host", host), ("join", joiner)] {
            try (side.output.joined(separator: "\n") + "\n").write(
                toFile: directory + "/\(name).jsonl", atomically: true, encoding: .utf8)
        }
        let moves = host.events(named: "move").map { $0["cell"] as? Int ?? 0 }
        let gameOvers = host.events(named: "game-over")
        XCTAssertEqual(gameOvers.count, 3)
        var replayed: [Int] = []
        for game in 1...3 {
            var seen: [[Int]] = []
            for name in ["host", "join"] {
                let (replay, status) = try run(["replay", "--json", "--game", String(game), directory + "/\(name).jsonl"])
                XCTAssertEqual(status, 0, replay.standardError)
                let event = try XCTUnwrap(replay.events(named: "replay").first, "\(replay.output)")
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
        let (last, status) = try run(["replay", "--headless", directory + "/host.jsonl"])
        XCTAssertEqual(status, 0, last.standardError)
        XCTAssertTrue(last.output.first?.hasPrefix("Game 3 of ") == true, "\(last.output)")
    }
}
