import AppCore
import Foundation
import GameClient
import GameProtocol
import GameRules
import JSONLines
import XCTest

/// Records as the versions before one `RecordEvent` type wrote them, pinned as literal lines: they still replay, and
/// what the app writes for a game is still these bytes.
final class RecordSamplesTests: XCTestCase {
    /// A host's `host --json` transcript of a two-game match (the host is O in game 1, X in game 2).
    static let hostTranscript = [
        #"{"event":"seed","seed":5}"#,
        #"{"addresses":["127.0.0.1:32857"],"event":"listening","host":"127.0.0.1","name":"Ada ☃","port":32857,"private":false,"secure":true}"#,
        #"{"address":"127.0.0.1:44880","cipher":"ECDHE-PSK-CHACHA20-POLY1305","event":"connected","peer":"Bo","role":"host","secure":true}"#,
        #"{"event":"game-start","first":"X","game":1,"you":"O"}"#,
        #"{"by":"peer","cell":7,"event":"move","mark":"X"}"#,
        #"{"by":"local","cell":4,"event":"move","mark":"O"}"#,
        #"{"by":"peer","cell":8,"event":"move","mark":"X"}"#,
        #"{"by":"local","cell":6,"event":"move","mark":"O"}"#,
        #"{"by":"peer","cell":2,"event":"move","mark":"X"}"#,
        #"{"by":"local","cell":1,"event":"move","mark":"O"}"#,
        #"{"by":"peer","cell":9,"event":"move","mark":"X"}"#,
        #"{"board":"OX.O.OXXX","event":"game-over","game":1,"line":[7,8,9],"reason":"line","score":{"draws":0,"games":1,"losses":1,"wins":0},"winner":"X"}"#,
        #"{"event":"game-start","first":"X","game":2,"you":"X"}"#,
        #"{"by":"local","cell":1,"event":"move","mark":"X"}"#,
        #"{"by":"peer","cell":4,"event":"move","mark":"O"}"#,
        #"{"by":"local","cell":3,"event":"move","mark":"X"}"#,
        #"{"by":"peer","cell":2,"event":"move","mark":"O"}"#,
        #"{"by":"local","cell":6,"event":"move","mark":"X"}"#,
        #"{"by":"peer","cell":8,"event":"move","mark":"O"}"#,
        #"{"by":"local","cell":9,"event":"move","mark":"X"}"#,
        #"{"board":"XOXO.X.OX","event":"game-over","game":2,"line":[3,6,9],"reason":"line","score":{"draws":0,"games":2,"losses":1,"wins":1},"winner":"X"}"#,
        #"{"detail":"completed","end":"completed","event":"match-over","score":{"draws":0,"games":2,"losses":1,"wins":1}}"#,
        #"{"draws":0,"end":"completed","event":"summary","exit":0,"games":2,"losses":1,"seed":5,"wins":1}"#,
    ]

    /// The joiner's side of the same match: no `listening`, so its own name is "you".
    static let joinTranscript = [
        #"{"event":"seed","seed":9}"#,
        #"{"event":"state","state":"preparing"}"#,
        #"{"event":"state","peer":"Ada ☃","state":"ready"}"#,
        #"{"address":"127.0.0.1:32857","cipher":"ECDHE-PSK-CHACHA20-POLY1305","event":"connected","peer":"Ada ☃","role":"joiner","secure":true}"#,
        #"{"event":"game-start","first":"X","game":1,"you":"X"}"#,
        #"{"by":"local","cell":7,"event":"move","mark":"X"}"#,
        #"{"by":"peer","cell":4,"event":"move","mark":"O"}"#,
        #"{"by":"local","cell":8,"event":"move","mark":"X"}"#,
        #"{"by":"peer","cell":6,"event":"move","mark":"O"}"#,
        #"{"by":"local","cell":2,"event":"move","mark":"X"}"#,
        #"{"by":"peer","cell":1,"event":"move","mark":"O"}"#,
        #"{"by":"local","cell":9,"event":"move","mark":"X"}"#,
        #"{"board":"OX.O.OXXX","event":"game-over","game":1,"line":[7,8,9],"reason":"line","score":{"draws":0,"games":1,"losses":0,"wins":1},"winner":"X"}"#,
        #"{"event":"rematch-offered"}"#,
        #"{"event":"game-start","first":"X","game":2,"you":"O"}"#,
        #"{"by":"peer","cell":1,"event":"move","mark":"X"}"#,
        #"{"by":"local","cell":4,"event":"move","mark":"O"}"#,
        #"{"by":"peer","cell":3,"event":"move","mark":"X"}"#,
        #"{"by":"local","cell":2,"event":"move","mark":"O"}"#,
        #"{"by":"peer","cell":6,"event":"move","mark":"X"}"#,
        #"{"by":"local","cell":8,"event":"move","mark":"O"}"#,
        #"{"by":"peer","cell":9,"event":"move","mark":"X"}"#,
        #"{"board":"XOXO.X.OX","event":"game-over","game":2,"line":[3,6,9],"reason":"line","score":{"draws":0,"games":2,"losses":1,"wins":1},"winner":"X"}"#,
        #"{"detail":"the opponent ended it","end":"completed","event":"match-over","score":{"draws":0,"games":2,"losses":1,"wins":1}}"#,
        #"{"event":"state","state":"cancelled"}"#,
        #"{"draws":0,"end":"completed","event":"summary","exit":0,"games":2,"losses":1,"seed":9,"wins":1}"#,
    ]

    /// A `match --transcripts` file: game 4 of a round robin, the second of its pair (a draw).
    static let matchTranscript = [
        #"{"event":"seed","seed":7}"#,
        #"{"event":"players","local":"perfect","o":"perfect","peer":"easy#2","series_game":4,"x":"easy#2"}"#,
        #"{"event":"game-start","first":"X","game":2,"you":"O"}"#,
        #"{"by":"peer","cell":8,"event":"move","mark":"X"}"#,
        #"{"by":"local","cell":2,"event":"move","mark":"O"}"#,
        #"{"by":"peer","cell":6,"event":"move","mark":"X"}"#,
        #"{"by":"local","cell":7,"event":"move","mark":"O"}"#,
        #"{"by":"peer","cell":3,"event":"move","mark":"X"}"#,
        #"{"by":"local","cell":9,"event":"move","mark":"O"}"#,
        #"{"by":"peer","cell":5,"event":"move","mark":"X"}"#,
        #"{"by":"local","cell":4,"event":"move","mark":"O"}"#,
        #"{"by":"peer","cell":1,"event":"move","mark":"X"}"#,
        #"{"board":"XOXOXXOXO","event":"game-over","game":2,"reason":"draw","score":{"draws":1,"games":2,"losses":0,"wins":1},"winner":null}"#,
    ]

    /// A game the terminal UI saved (`GameRecord.jsonLines`): a resignation, no seed.
    static let savedGame = [
        #"{"event":"players","local":"Ada","o":"computer (perfect)","peer":"computer (perfect)","x":"Ada"}"#,
        #"{"event":"game-start","first":"X","game":3,"you":"X"}"#,
        #"{"by":"local","cell":5,"event":"move","mark":"X"}"#,
        #"{"by":"peer","cell":1,"event":"move","mark":"O"}"#,
        #"{"by":"local","cell":9,"event":"move","mark":"X"}"#,
        #"{"board":"O...X...X","event":"game-over","game":3,"reason":"resignation","resigned":"X","#
            + #""score":{"draws":0,"games":2,"losses":1,"wins":1},"winner":"O"}"#,
    ]

    /// `listening` and `connected` as protocol 1 wrote them, before `addresses`, `secure`, `private` and `cipher`.
    static let protocolOneTranscript = [
        #"{"event":"seed","seed":1}"#,
        #"{"event":"listening","host":"0.0.0.0","name":"Ada","port":7420}"#,
        #"{"address":"127.0.0.1:50000","event":"connected","peer":"Bo","role":"host"}"#,
        #"{"event":"game-start","first":"O","game":1,"you":"X"}"#,
        #"{"by":"peer","cell":5,"event":"move","mark":"O"}"#,
        #"{"board":"....O....","event":"game-over","game":1,"forfeited":"X","reason":"forfeit","#
            + #""score":{"draws":0,"games":1,"losses":1,"wins":0},"winner":"O"}"#,
    ]

    private func parse(_ lines: [String]) throws -> [GameRecord] {
        try GameRecord.parse(lines.joined(separator: "\n") + "\n")
    }

    func testAHostTranscriptStillReplays() throws {
        let games = try parse(Self.hostTranscript)
        XCTAssertEqual(games.map(\.number), [1, 2])
        XCTAssertEqual(games[0].cells, [6, 3, 7, 5, 1, 0, 8])
        XCTAssertEqual(games[0].marks, [.x, .o, .x, .o, .x, .o, .x])
        XCTAssertEqual(games[0].result, GameResult(winner: .x, reason: .line([6, 7, 8])))
        XCTAssertEqual([games[0].xName, games[0].oName], ["Bo", "Ada ☃"])
        XCTAssertEqual(games[0].localMark, .o)
        XCTAssertEqual(games[0].line, 4)
        XCTAssertEqual(games[0].endLine, 12)
        XCTAssertEqual(games[1].cells, [0, 3, 2, 1, 5, 7, 8])
        XCTAssertEqual(games[1].result, GameResult(winner: .x, reason: .line([2, 5, 8])))
        XCTAssertEqual([games[1].xName, games[1].oName], ["Ada ☃", "Bo"])
    }

    func testAJoinTranscriptStillReplays() throws {
        let games = try parse(Self.joinTranscript)
        XCTAssertEqual(games.map(\.number), [1, 2])
        XCTAssertEqual([games[0].xName, games[0].oName], ["you", "Ada ☃"])
        XCTAssertEqual([games[1].xName, games[1].oName], ["Ada ☃", "you"])
        XCTAssertEqual(games[1].cells, [0, 3, 2, 1, 5, 7, 8])
        XCTAssertTrue(games.allSatisfy(\.isFinished))
    }

    func testAMatchTranscriptStillReplays() throws {
        let game = try XCTUnwrap(try parse(Self.matchTranscript).first)
        XCTAssertEqual(game.number, 2)
        XCTAssertEqual([game.xName, game.oName], ["easy#2", "perfect"])
        XCTAssertEqual(game.cells, [7, 1, 5, 6, 2, 8, 4, 3, 0])
        XCTAssertEqual(game.result, GameResult(winner: nil, reason: .draw))
        XCTAssertEqual(game.positions.last?.compactText, "XOXOXXOXO")
    }

    func testASavedGameStillReplaysAndIsWrittenTheSame() throws {
        let game = try XCTUnwrap(try parse(Self.savedGame).first)
        XCTAssertEqual(game.cells, [4, 0, 8])
        XCTAssertEqual(game.result, GameResult(winner: .o, reason: .resignation(.x)))
        XCTAssertEqual([game.xName, game.oName], ["Ada", "computer (perfect)"])
        XCTAssertEqual(game.score, MatchSession.Score(localWins: 1, peerWins: 1, draws: 0))
        XCTAssertEqual(try game.jsonLines(), Self.savedGame, "written back the same, score included")
    }

    func testAProtocolOneTranscriptStillReplays() throws {
        let game = try XCTUnwrap(try parse(Self.protocolOneTranscript).first)
        XCTAssertEqual([game.xName, game.oName], ["Ada", "Bo"])
        XCTAssertEqual(game.result, GameResult(winner: .o, reason: .forfeit(.x)))
    }

    /// A record event names what it lacks or holds wrongly; fields a replay does not need may be missing.
    func testARecordEventNamesWhatIsWrong() throws {
        func problem(_ line: String) -> String? {
            do {
                _ = try JSONDecoder().decode(RecordEvent.self, from: Data(line.utf8))
                return nil
            } catch {
                return (error as? RecordEvent.Problem)?.description ?? "\(error)"
            }
        }
        XCTAssertEqual(problem(#"{"event":"game-start","first":"X"}"#), #"game-start has no "game""#)
        XCTAssertEqual(problem(#"{"event":"game-start","first":"x","game":1}"#),
                       #"game-start's "first" is "x", not X or O"#)
        XCTAssertEqual(problem(#"{"event":"game-over","game":1,"reason":"boredom","winner":null}"#),
                       #"game-over's reason "boredom" is not one of line, draw, resignation, forfeit, timeout"#)
        XCTAssertEqual(problem(#"{"event":"game-over","game":1,"reason":"timeout","winner":"O"}"#),
                       #"game-over has no "timed_out""#)
        XCTAssertEqual(problem(#"{"event":"players","o":"b","x":"a"}"#), #"players has no "local""#)
        XCTAssertNil(problem(#"{"event":"listening","name":"Ada"}"#))
        XCTAssertNil(problem(#"{"event":"connected","peer":"Bo"}"#))
        XCTAssertNil(problem(#"{"event":"game-over","game":1,"reason":"draw","winner":null}"#), "no board, no score")
        XCTAssertNil(problem(#"{"event":"summary","wins":"not read"}"#), "another event's fields are its own")
    }

    /// What a network game writes for its record's events is still the host's lines, byte for byte.
    func testTheHostsRecordEventsAreWrittenTheSame() throws {
        let board = try XCTUnwrap(Board("OX.O.OXXX"))
        let reports: [MatchReport] = [
            .seed(5),
            .listening(host: "127.0.0.1", port: 32857, name: "Ada ☃", security: .open,
                       addresses: [JoinAddress(host: "127.0.0.1", port: 32857, kind: .loopback)]),
            .connected(peerName: "Bo", address: "127.0.0.1:44880", role: .host, cipher: "ECDHE-PSK-CHACHA20-POLY1305"),
            .session(.gameStarted(number: 1, localMark: .o, firstMover: .x)),
            .session(.moved(mark: .x, cell: 6, by: .peer)),
            .session(.moved(mark: .o, cell: 3, by: .local)),
        ]
        XCTAssertEqual(try reports.map(JSONEvent.line), Array(Self.hostTranscript.prefix(6)))
        let over = MatchReport.session(.gameOver(
            number: 1, result: GameResult(winner: .x, reason: .line([6, 7, 8])), board: board,
            score: MatchSession.Score(peerWins: 1)))
        XCTAssertEqual(try JSONEvent.line(over), Self.hostTranscript[11])
    }
}
