import AppCore
import AppFiles
import AppManifest
import Foundation
import GameClient
import GameProtocol
import GameRules
import HeadlessUI
import JSONLines
import MatchPlay
import MatchStatistics
import Series
import TicTacToeTestSupport
import XCTest

/// Replays: the record parser (`GameRecord.parse`) reads back what the app's own writers wrote (a match's
/// transcripts, a network game's `--json` lines, a saved game), names the line of a corrupted or truncated record,
/// and the archive of saved games keeps the newest 100.
final class ReplayTests: XCTestCase {
    // MARK: Round trips

    /// The games of `match --player perfect --player easy --games N --seed S`, each with its transcript (what
    /// `--transcripts` writes into `game-000N.jsonl`).
    private func seededMatch(games: Int, seed: UInt64) async throws -> [(record: SeriesGameRecord, transcript: String)] {
        let specs: [PlayerSpec] = [.perfect, .easy]
        let schedule = SeriesSchedule(players: 2, gamesPerPair: games)
        let names = SeriesNames.names(specs)
        let report = SeriesReport(names: names, schedule: schedule, seed: seed, sprt: nil)
        let runner = SeriesRunner(
            schedule: schedule,
            player: SeriesGamePlayer(
                specs: specs, names: names, seed: seed, scripts: [:], engineLogDirectory: Scratch.root,
                moveTime: .seconds(5), clock: ContinuousClock()),
            concurrency: 1, sprt: nil)
        var played: [(SeriesGameRecord, [MatchScore])] = []
        _ = await runner.run { record, scores in
            played.append((record, scores))
            return true
        }
        return try played.map { record, scores in
            (record, try report.transcript(record, scores: scores).joined(separator: "\n") + "\n")
        }
    }

    func testMatchTranscriptsParseBackIntoTheSameGames() async throws {
        let played = try await seededMatch(games: 6, seed: 11)
        let names = SeriesNames.names([.perfect, .easy])
        XCTAssertEqual(played.count, 6)
        for (record, text) in played {
            let games = try GameRecord.parse(text)
            XCTAssertEqual(games.count, 1, text)
            let game = try XCTUnwrap(games.first)
            XCTAssertEqual(game.number, record.game.pairGame)
            XCTAssertEqual(game.cells, record.moves, text)
            XCTAssertEqual(game.marks, record.moves.indices.map { $0 % 2 == 0 ? Mark.x : .o })
            XCTAssertEqual(game.result, record.result, text)
            XCTAssertEqual(game.positions.last, record.board)
            XCTAssertEqual(game.xName, names[record.game.x])
            XCTAssertEqual(game.oName, names[record.game.o])
            XCTAssertEqual(game.line, 3, "seed, players, then game-start")
        }
    }

    /// `tictactoe replay --headless` and `--json` of a match's transcript: the players, each move, the final board
    /// as the match's last line has it, and the result.
    func testAMatchTranscriptReplaysItsMovesBoardAndResultAsTextAndJSON() async throws {
        let played = try await seededMatch(games: 2, seed: 4)
        XCTAssertEqual(played.count, 2)
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/game-0002.jsonl"
        try played[1].transcript.write(toFile: file, atomically: true, encoding: .utf8)
        let matchLines = played[1].transcript.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let over = try XCTUnwrap(matchLines.last { $0["event"] as? String == "game-over" })
        let board = try XCTUnwrap(over["board"] as? String)
        let moves = played[1].record.moves.map { $0 + 1 }

        let game = try ReplayReport.load(path: file, game: nil)
        let lines = game.replayText(path: file)
        XCTAssertEqual(lines.first, "Game 2 of \(file): X easy · O perfect", "\(lines)")
        let moveLines = lines.filter { $0.hasPrefix("Move ") }
        XCTAssertEqual(moveLines.count, moves.count, "\(lines)")
        for (index, cell) in moves.enumerated() {
            XCTAssertTrue(moveLines[index].hasPrefix("Move \(index + 1) of \(moves.count): "), moveLines[index])
            XCTAssertTrue(moveLines[index].hasSuffix(" in cell \(cell)"), moveLines[index])
        }
        let drawn = lines.filter { $0.hasPrefix(" ") && $0.contains("|") }
            .map { $0.replacingOccurrences(of: " ", with: "").split(separator: "|").joined() }
            .joined()
        XCTAssertEqual(drawn.map { $0.isNumber ? "." : String($0) }.joined(), board, "\(lines)")
        let winner = over["winner"] as? String
        let last = try XCTUnwrap(lines.last)
        XCTAssertEqual(last.hasPrefix("Draw"), winner == nil, last)
        if let winner { XCTAssertTrue(last.contains("(\(winner)) wins"), last) }

        let json = try game.replayJSON(path: file)
        XCTAssertFalse(json.contains("\n"), "one line")
        let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(event["event"] as? String, "replay")
        XCTAssertEqual(event["moves"] as? [Int], moves)
        XCTAssertEqual(event["board"] as? String, board)
        XCTAssertEqual(event["x"] as? String, "easy")
        XCTAssertEqual(event["game"] as? Int, 2)
    }

    /// A record `replay` cannot use ends it with exit 65 (EX_DATAERR), the file and the line named.
    func testABrokenRecordIsNamedWithItsFileAndLineAndExits65() async throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = try await seededMatch(games: 1, seed: 4)[0].transcript
        var lines = text.split(separator: "\n").map(String.init)
        let broken = directory + "/broken.jsonl"
        func failure(_ path: String) -> ReplayReport.Failure? {
            do throws(ReplayReport.Failure) {
                _ = try ReplayReport.load(path: path, game: nil)
                return nil
            } catch {
                return error
            }
        }

        try String(lines.joined(separator: "\n").dropLast(10)).write(toFile: broken, atomically: true, encoding: .utf8)
        XCTAssertEqual(failure(broken)?.exitStatus, .dataError)
        XCTAssertEqual(failure(broken)?.exitStatus.rawValue, 65)
        XCTAssertEqual(failure(broken)?.description, "\(broken):\(lines.count): the record is truncated: its last line "
                        + "stops in the middle of an object")

        lines[3] = "garbage"
        try (lines.joined(separator: "\n") + "\n").write(toFile: broken, atomically: true, encoding: .utf8)
        XCTAssertEqual(failure(broken)?.exitStatus, .dataError)
        XCTAssertEqual(failure(broken)?.description, "\(broken):4: not a JSON object (is this a --json transcript?)")

        // Only the start of the game: no finished game.
        try (lines.prefix(3).joined(separator: "\n") + "\n").write(toFile: broken, atomically: true, encoding: .utf8)
        XCTAssertEqual(failure(broken)?.exitStatus, .dataError)
        let unfinished = failure(broken)?.description ?? ""
        XCTAssertTrue(unfinished.hasPrefix("\(broken): no finished game in the record: game 1 "), unfinished)

        let missing = failure(directory + "/missing.jsonl")
        XCTAssertEqual(missing?.exitStatus, .dataError)
        XCTAssertTrue(missing?.description.hasPrefix(
            "\(directory)/missing.jsonl: no such file (saved games are in ") == true, "\(String(describing: missing))")
    }

    /// A directory, a FIFO without a writer and a device are named and refused at once (exit 65), never read.
    func testADirectoryAFIFOAndADeviceAreNamedAndRefusedAtOnceWithExit65() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fifo = directory + "/pipe.jsonl"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let notARecord = "not a game record (a game the full-screen UI saved, or a --json transcript)"
        for (path, what) in [
            (directory, "is a directory, \(notARecord); name one of its .jsonl files"),
            (fifo, "is a named pipe (FIFO), \(notARecord)"), ("/dev/zero", "is a device, \(notARecord)"),
        ] {
            XCTAssertThrowsError(try ReplayReport.load(path: path, game: nil)) { error in
                XCTAssertEqual("\(error)", "\(path) \(what)")
                XCTAssertEqual(ExitStatus(failure: error), .dataError, path)
            }
        }
    }

    func testASavedGameParsesBackTheSame() throws {
        for result in [
            GameResult(winner: .o, reason: .resignation(.x)), GameResult(winner: .x, reason: .forfeit(.o)),
            GameResult(winner: .o, reason: .timeout(.x)),
        ] {
            let saved = GameRecord(
                number: 3, line: 0, xName: "Ada", oName: "computer (perfect)", localMark: .x, firstMover: .x,
                cells: [4, 0, 8], marks: [.x, .o, .x], result: result,
                score: MatchSession.Score(localWins: 1, peerWins: 1, draws: 0))
            let text = try saved.jsonLines().joined(separator: "\n") + "\n"
            let games = try GameRecord.parse(text)
            XCTAssertEqual(games.count, 1)
            let game = try XCTUnwrap(games.first)
            XCTAssertEqual(game.number, 3)
            XCTAssertEqual(game.cells, [4, 0, 8])
            XCTAssertEqual(game.marks, [.x, .o, .x])
            XCTAssertEqual(game.result, result)
            XCTAssertEqual(game.xName, "Ada")
            XCTAssertEqual(game.oName, "computer (perfect)")
            XCTAssertEqual(game.localMark, .x)
            XCTAssertEqual(game.endLine, 6, "players, game-start, three moves, game-over")
        }
    }

    /// A host's `--json` transcript of a two-game match: the events around the games are skipped, the names come
    /// from `listening` (ours) and `connected` (the peer's), and a replay picks the last finished game by default.
    private func hostTranscript() throws -> String {
        var reports: [MatchReport] = [
            .seed(5),
            .listening(host: "0.0.0.0", port: 7878, name: "Ada"),
            .connected(peerName: "Bo", address: "127.0.0.1:50000", role: .host),
            .session(.gameStarted(number: 1, localMark: .x, firstMover: .x)),
        ]
        for (index, cell) in [0, 3, 1, 4, 2].enumerated() {
            let mark: Mark = index % 2 == 0 ? .x : .o
            reports.append(.session(.moved(mark: mark, cell: cell, by: mark == .x ? .local : .peer)))
        }
        var board = Board("XXXOO....")!
        reports.append(.session(.gameOver(
            number: 1, result: GameResult(winner: .x, reason: .line([0, 1, 2])), board: board,
            score: MatchSession.Score(localWins: 1))))
        reports.append(.session(.rematchOffered))
        reports.append(.session(.gameStarted(number: 2, localMark: .o, firstMover: .x)))
        for (index, cell) in [4, 0].enumerated() {
            let mark: Mark = index % 2 == 0 ? .x : .o
            reports.append(.session(.moved(mark: mark, cell: cell, by: mark == .o ? .local : .peer)))
        }
        board = Board("O...X....")!
        reports.append(.session(.gameOver(
            number: 2, result: GameResult(winner: .x, reason: .resignation(.o)), board: board,
            score: MatchSession.Score(localWins: 1, peerWins: 1))))
        reports.append(.session(.matchOver(.completed(by: .local), score: MatchSession.Score(localWins: 1, peerWins: 1))))
        return try reports.map(JSONEvent.line).joined(separator: "\n") + "\n"
    }

    func testAHostTranscriptHoldsEachGameOfTheMatch() throws {
        let text = try hostTranscript()
        let games = try GameRecord.parse(text)
        XCTAssertEqual(games.map(\.number), [1, 2])
        XCTAssertEqual(games[0].cells, [0, 3, 1, 4, 2])
        XCTAssertEqual(games[0].result, GameResult(winner: .x, reason: .line([0, 1, 2])))
        XCTAssertEqual([games[0].xName, games[0].oName], ["Ada", "Bo"])
        XCTAssertEqual([games[1].xName, games[1].oName], ["Bo", "Ada"], "the host is O in game 2")
        XCTAssertEqual(games[1].result, GameResult(winner: .x, reason: .resignation(.o)))
        XCTAssertEqual(try ReplayReport.choose(in: text, path: "t.jsonl", game: nil).number, 2)
        XCTAssertEqual(try ReplayReport.choose(in: text, path: "t.jsonl", game: 1).cells, [0, 3, 1, 4, 2])
        XCTAssertThrowsError(try ReplayReport.choose(in: text, path: "t.jsonl", game: 7)) { error in
            XCTAssertEqual("\(error)", "t.jsonl: no game 7 in the record (its games: 1, 2)")
        }
    }

    func testTheHeadlessTextAndJSON() throws {
        let game = try ReplayReport.choose(in: try hostTranscript(), path: "t.jsonl", game: 1)
        XCTAssertEqual(game.replayText(path: "t.jsonl"), [
            "Game 1 of t.jsonl: X Ada · O Bo",
            "Move 1 of 5: Ada (X) in cell 1",
            "Move 2 of 5: Bo (O) in cell 4",
            "Move 3 of 5: Ada (X) in cell 2",
            "Move 4 of 5: Bo (O) in cell 5",
            "Move 5 of 5: Ada (X) in cell 3",
            "",
            " X | X | X",
            "---+---+---",
            " O | O | 6",
            "---+---+---",
            " 7 | 8 | 9",
            "",
            "Ada (X) wins: a line 1-2-3",
        ])
        XCTAssertEqual(
            try game.replayJSON(path: "t.jsonl"),
            #"{"board":"XXXOO....","event":"replay","file":"t.jsonl","finished":true,"game":1,"line":[1,2,3],"#
                + #""moves":[1,4,2,5,3],"o":"Bo","reason":"line","winner":"X","x":"Ada"}"#)
    }

    // MARK: Corrupted and truncated records

    private func failure(_ text: String) -> GameRecordError? {
        do {
            _ = try GameRecord.parse(text)
            return nil
        } catch {
            return error
        }
    }

    func testATruncatedLastLineIsNamed() throws {
        let text = try hostTranscript()
        let cut = String(text.dropLast(20))  // inside the last line (match-over)
        let lines = cut.split(separator: "\n").count
        let error = try XCTUnwrap(failure(cut))
        XCTAssertEqual(error.line, lines)
        XCTAssertTrue(error.problem.contains("truncated"), error.problem)
        // Cut inside a move line of game 2.
        let all = text.split(separator: "\n").map(String.init)
        let moveLine = try XCTUnwrap(all.lastIndex { $0.contains(#""event":"move""#) })
        let inMove = all[..<moveLine].joined(separator: "\n") + "\n" + all[moveLine].prefix(15)
        XCTAssertEqual(failure(inMove), GameRecordError(
            line: moveLine + 1, problem: "the record is truncated: its last line stops in the middle of an object"))
    }

    func testACorruptedLineIsNamedWithWhatIsWrong() throws {
        var lines = try hostTranscript().split(separator: "\n").map(String.init)
        let move = try XCTUnwrap(lines.firstIndex { $0.contains(#""event":"move""#) })
        func corrupt(_ line: String) -> GameRecordError? {
            var copy = lines
            copy[move] = line
            return failure(copy.joined(separator: "\n") + "\n")
        }
        XCTAssertEqual(corrupt("hello"), GameRecordError(
            line: move + 1, problem: "not a JSON object (is this a --json transcript?)"))
        XCTAssertEqual(corrupt(#"{"by":"local","cell":"one","event":"move","mark":"X"}"#),
                       GameRecordError(line: move + 1, problem: #""cell" has the wrong type"#))
        XCTAssertEqual(corrupt(#"{"by":"local","cell":12,"event":"move","mark":"X"}"#),
                       GameRecordError(line: move + 1, problem: "cell 12 is not a cell (1-9)"))
        XCTAssertEqual(corrupt(#"{"by":"local","cell":1,"event":"move","mark":"Z"}"#),
                       GameRecordError(line: move + 1, problem: #"move's "mark" is "Z", not X or O"#))
        XCTAssertEqual(corrupt(#"{"by":"local","cell":1,"event":"move"}"#),
                       GameRecordError(line: move + 1, problem: #"move has no "mark""#))
        XCTAssertEqual(corrupt(#"{"cell":1}"#)?.line, move + 1)
        // The second move in the first move's cell.
        lines[move + 1] = #"{"by":"peer","cell":1,"event":"move","mark":"O"}"#
        let occupied = try XCTUnwrap(failure(lines.joined(separator: "\n")))
        XCTAssertEqual(occupied.line, move + 2)
        XCTAssertTrue(occupied.problem.hasPrefix("O in cell 1 is not a legal move of game 1"), occupied.problem)
    }

    func testAGameOverThatDisagreesWithTheMovesIsNamed() throws {
        var lines = try hostTranscript().split(separator: "\n").map(String.init)
        let over = try XCTUnwrap(lines.firstIndex { $0.contains(#""event":"game-over""#) })
        lines[over] = lines[over].replacingOccurrences(of: "XXXOO....", with: "XXXOOO...")
        let error = try XCTUnwrap(failure(lines.joined(separator: "\n")))
        XCTAssertEqual(error.line, over + 1)
        XCTAssertTrue(error.problem.contains("not the position the moves reached (XXXOO....)"), error.problem)
        lines[over] = lines[over].replacingOccurrences(of: #""winner":"X""#, with: #""winner":"O""#)
            .replacingOccurrences(of: "XXXOOO...", with: "XXXOO....")
        XCTAssertEqual(failure(lines.joined(separator: "\n"))?.problem, "game-over's winner O is not the moves' (X)")
    }

    func testARecordWithNoFinishedGameSaysSo() throws {
        let lines = try hostTranscript().split(separator: "\n").map(String.init)
        let text = lines.prefix(6).joined(separator: "\n") + "\n"  // seed … the second move of game 1
        let games = try GameRecord.parse(text)
        XCTAssertEqual(games.count, 1)
        XCTAssertFalse(games[0].isFinished)
        XCTAssertEqual(games[0].resultText, "Unfinished: the record stops after move 2")
        XCTAssertThrowsError(try ReplayReport.choose(in: text, path: "r.jsonl", game: nil)) { error in
            XCTAssertEqual("\(error)", "r.jsonl: no finished game in the record: game 1 stops after 2 moves at line 6 "
                            + "(--game 1 shows it)")
        }
        XCTAssertEqual(try ReplayReport.choose(in: text, path: "r.jsonl", game: 1).cells, [0, 3])
        XCTAssertThrowsError(try ReplayReport.choose(in: "{\"event\":\"seed\",\"seed\":1}\n", path: "s", game: nil)) {
            XCTAssertEqual("\($0)", "s: no game in the record (no game-start line)")
        }
    }

    func testAnUnreadableFileIsNamed() {
        XCTAssertThrowsError(try ReplayReport.load(path: "/nonexistent/record.jsonl", game: nil)) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/record.jsonl: no such file (saved games are in "),
                          "\(error)")
        }
    }

    // MARK: The archive of saved games

    private func temporaryDirectory() throws -> String {
        let path = Scratch.path("replay-tests-" + UUID().uuidString)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testFileNamesSortByTheTimeTheyWereSaved() {
        XCTAssertEqual(GameArchive.fileName(date: Date(timeIntervalSince1970: 1_764_103_632), process: 42, sequence: 7),
                       "game-20251125-204712-0000042-0007.jsonl")
        XCTAssertEqual(GameArchive.fileName(date: Date(timeIntervalSince1970: 0), process: 1, sequence: 1),
                       "game-19700101-000000-0000001-0001.jsonl")
        XCTAssertEqual(GameArchive.fileName(date: Date(timeIntervalSince1970: 951_825_600), process: 1, sequence: 1),
                       "game-20000229-120000-0000001-0001.jsonl", "a leap day")
    }

    func testTheArchiveKeepsTheNewestAndDeletesTheOldest() throws {
        let directory = try temporaryDirectory()
        let archive = GameArchive(directory: directory, keep: 100)
        let record = GameRecord(
            number: 1, line: 0, xName: "Ada", oName: "Bo", localMark: .x, cells: [0, 3, 1, 4, 2],
            marks: [.x, .o, .x, .o, .x], result: GameResult(winner: .x, reason: .line([0, 1, 2])))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("mine".utf8))
        var paths: [String] = []
        for index in 0..<105 {
            paths.append(try archive.save(record, at: Date(timeIntervalSince1970: 1_764_000_000 + Double(index)),
                                          sequence: index + 1))
        }
        let kept = archive.list()
        XCTAssertEqual(kept.count, 100)
        XCTAssertEqual(kept, Array(paths.suffix(100)), "the five oldest were deleted")
        for path in paths.prefix(5) { XCTAssertFalse(FileManager.default.fileExists(atPath: path)) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/notes.txt"), "not ours: untouched")
        let text = try String(contentsOfFile: try XCTUnwrap(kept.last), encoding: .utf8)
        XCTAssertEqual(try GameRecord.parse(text).first?.cells, [0, 3, 1, 4, 2])
    }

    func testASaveFailureIsAWarningNotACrash() throws {
        let directory = try temporaryDirectory()
        // The games directory's place is taken by a file: nothing can be saved there.
        _ = FileManager.default.createFile(atPath: directory, contents: Data())
        let client = GameArchiveClient.live(GameArchive(directory: directory + "/games"))
        let warning = try XCTUnwrap(client.save(GameRecord(number: 1, line: 0)))
        XCTAssertTrue(warning.hasPrefix("the game could not be saved in \(directory)/games: "), warning)
    }

    func testTheDataDirectoryFollowsXDG() {
        XCTAssertEqual(AppDirectories.games(environment: ["HOME": "/home/you"]),
                       "/home/you/.local/share/tictactoe/games")
        XCTAssertEqual(AppDirectories.games(environment: ["HOME": "/home/you", "XDG_DATA_HOME": "/data"]),
                       "/data/tictactoe/games")
        XCTAssertEqual(AppDirectories.games(environment: ["HOME": "/home/you", "XDG_DATA_HOME": "rel"]),
                       "/home/you/.local/share/tictactoe/games", "a relative XDG_DATA_HOME is ignored")
    }
}
