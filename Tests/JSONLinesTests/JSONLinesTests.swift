import AppCore
import Foundation
import GameClient
import GameProtocol
import GameRules
import HeadlessUI
import JSONLines
import TextSupport
import TicTacToeTestSupport
import XCTest

/// The `--json` lines pinned as literal bytes (README: "JSON output"): keys sorted, `/` and non-ASCII text not
/// escaped, absent values written as `null` where the table has the key, integers as integers.
final class JSONLinesTests: XCTestCase {
    private func assertLine(
        _ report: MatchReport, _ expected: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(try JSONEvent.line(report), expected, file: file, line: line)
    }

    private let score = MatchSession.Score(localWins: 2, peerWins: 1, draws: 1)

    func testSeedIsAPlainInteger() throws {
        try assertLine(.seed(42), #"{"event":"seed","seed":42}"#)
        try assertLine(.seed(UInt64.max), #"{"event":"seed","seed":18446744073709551615}"#)
    }

    func testListening() throws {
        try assertLine(
            .listening(host: "0.0.0.0", port: 7420, name: "Ada's game"),
            #"{"addresses":[],"event":"listening","host":"0.0.0.0","name":"Ada's game","port":7420,"private":false,"secure":true}"#)
        try assertLine(
            .listening(host: "::", port: 7420, name: "Bo", security: .private),
            #"{"addresses":[],"event":"listening","host":"::","name":"Bo","port":7420,"private":true,"secure":true}"#)
        try assertLine(
            .listening(host: "127.0.0.1", port: 7420, name: "Cy", security: .plaintext,
                       addresses: [JoinAddress(host: "127.0.0.1", port: 7420, kind: .loopback)]),
            #"{"addresses":["127.0.0.1:7420"],"event":"listening","host":"127.0.0.1","name":"Cy","port":7420,"private":false,"secure":false}"#)
    }

    /// A replaced code is announced with its reason only: the code itself never reaches a transcript.
    func testCodeReplacedCarriesTheReasonAndNoCode() throws {
        try assertLine(
            .codeReplaced(reason: "3 wrong codes in a row"),
            #"{"event":"code-replaced","reason":"3 wrong codes in a row"}"#)
    }

    func testConnectedSaysWhetherTheGameIsEncryptedAndWithWhichCipher() throws {
        try assertLine(
            .connected(peerName: "Bo", address: "127.0.0.1:7420", role: .joiner, cipher: "ECDHE-PSK-CHACHA20-POLY1305"),
            #"{"address":"127.0.0.1:7420","cipher":"ECDHE-PSK-CHACHA20-POLY1305","event":"connected","peer":"Bo","role":"joiner","secure":true}"#)
    }

    func testStates() throws {
        try assertLine(
            .connectionState(.waiting(.notAllowed("local network access is denied (tictactoe privacy grant)"))),
            #"{"event":"state","reason":"local network access is denied (tictactoe privacy grant)","state":"waiting"}"#)
        try assertLine(
            .connectionState(.waiting(.peerUnreachable("connection refused", retryIn: .milliseconds(500)))),
            #"{"event":"state","reason":"connection refused; retrying in 0.5 s","state":"waiting"}"#)
        try assertLine(.connectionState(.preparing), #"{"event":"state","state":"preparing"}"#)
        try assertLine(.connectionState(.ready(peerName: "Bo")), #"{"event":"state","peer":"Bo","state":"ready"}"#)
        try assertLine(
            .connectionState(.failed(.unreachable("127.0.0.1:9/connection refused"))),
            #"{"error":"peer unreachable: 127.0.0.1:9/connection refused","event":"state","state":"failed"}"#)
    }

    func testConnectedKeepsNonASCIIAndEscapesThePeerNameLosslessly() throws {
        try assertLine(
            .connected(peerName: "Zoë ☃ 😀", address: "[::1]:7420", role: .joiner),
            #"{"address":"[::1]:7420","cipher":null,"event":"connected","peer":"Zoë ☃ 😀","role":"joiner","secure":false}"#)
        try assertLine(
            .connected(peerName: "evil\u{1B}[2Jname\u{202E}", address: "127.0.0.1:7420", role: .host),
            #"{"address":"127.0.0.1:7420","cipher":null,"event":"connected","peer":"evil\u001b[2Jname\u202e","role":"host","secure":false}"#)
    }

    /// JSONEncoder escapes only C0: DEL, the C1 controls and the bidi characters get their own pass, as `\u`
    /// escapes that any JSON parser turns back into the very characters the peer sent.
    func testPeerFieldEscapesC1AndBidiAsUnicodeEscapesAndDecodesBack() throws {
        let name = "a\u{85}b\u{9B}2J\u{7F}c\u{202E}d\u{2066}e\u{200F}f\u{61C}"
        let line = try JSONEvent.line(.connected(peerName: name, address: "127.0.0.1:7420", role: .host))
        XCTAssertEqual(
            line,
            #"{"address":"127.0.0.1:7420","cipher":null,"event":"connected","peer":"a\u0085b\u009b2J\u007fc\u202ed\u2066e\u200ff\u061c","role":"host","secure":false}"#)
        XCTAssertFalse(line.unicodeScalars.contains { DisplayText.isControl($0) || DisplayText.isBidiFormatting($0) })
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual((object["peer"] as? String).map { Array($0.unicodeScalars) }, Array(name.unicodeScalars))
        struct Connected: Decodable { var peer: String }
        let decoded = try JSONDecoder().decode(Connected.self, from: Data(line.utf8))
        XCTAssertEqual(Array(decoded.peer.unicodeScalars), Array(name.unicodeScalars))
    }

    /// Every text field takes the same pass (here: a reject text quoted in an error, a Bonjour name).
    func testEveryFieldGetsTheSamePass() throws {
        try assertLine(
            .error("rejected by the host (busy): \u{9B}31m\u{202E}", .rejected),
            #"{"event":"error","exit":4,"message":"rejected by the host (busy): \u009b31m\u202e"}"#)
        try assertLine(
            .discovery(.advertised(name: "x\u{2067}y")),
            #"{"event":"advertised","name":"x\u2067y","private":false,"secure":true}"#)
    }

    func testGameStartAndMove() throws {
        try assertLine(
            .session(.gameStarted(number: 1, localMark: .x, firstMover: .o)),
            #"{"event":"game-start","first":"O","game":1,"you":"X"}"#)
        try assertLine(
            .session(.moved(mark: .x, cell: 0, by: .local)), #"{"by":"local","cell":1,"event":"move","mark":"X"}"#)
        try assertLine(
            .session(.moved(mark: .o, cell: 8, by: .peer)), #"{"by":"peer","cell":9,"event":"move","mark":"O"}"#)
    }

    func testGameOverWithALine() throws {
        let board = try XCTUnwrap(Board("XXXOO...."))
        try assertLine(
            .session(.gameOver(number: 3, result: GameResult(winner: .x, reason: .line([0, 1, 2])), board: board,
                               score: score)),
            #"{"board":"XXXOO....","event":"game-over","game":3,"line":[1,2,3],"reason":"line","#
                + #""score":{"draws":1,"games":4,"losses":1,"wins":2},"winner":"X"}"#)
    }

    func testGameOverDrawHasANullWinner() throws {
        let board = try XCTUnwrap(Board("XOXXOOOXX"))
        try assertLine(
            .session(.gameOver(number: 2, result: GameResult(winner: nil, reason: .draw), board: board,
                               score: MatchSession.Score(draws: 1))),
            #"{"board":"XOXXOOOXX","event":"game-over","game":2,"reason":"draw","#
                + #""score":{"draws":1,"games":1,"losses":0,"wins":0},"winner":null}"#)
    }

    func testGameOverByResignationAndForfeit() throws {
        let board = try XCTUnwrap(Board("X........"))
        try assertLine(
            .session(.gameOver(number: 1, result: GameResult(winner: .x, reason: .resignation(.o)), board: board,
                               score: MatchSession.Score(localWins: 1))),
            #"{"board":"X........","event":"game-over","game":1,"reason":"resignation","resigned":"O","#
                + #""score":{"draws":0,"games":1,"losses":0,"wins":1},"winner":"X"}"#)
        try assertLine(
            .session(.gameOver(number: 1, result: GameResult(winner: .o, reason: .forfeit(.x)), board: board,
                               score: MatchSession.Score(peerWins: 1))),
            #"{"board":"X........","event":"game-over","forfeited":"X","game":1,"reason":"forfeit","#
                + #""score":{"draws":0,"games":1,"losses":1,"wins":0},"winner":"O"}"#)
    }

    func testRematchOffered() throws {
        try assertLine(.session(.rematchOffered), #"{"event":"rematch-offered"}"#)
    }

    func testMatchOver() throws {
        try assertLine(
            .session(.matchOver(.localNetworkOff, score: score)),
            #"{"detail":"local network access was turned off","end":"local-network-off","event":"match-over","#
                + #""score":{"draws":1,"games":4,"losses":1,"wins":2}}"#)
        try assertLine(
            .session(.matchOver(.peerLeft(.quit), score: MatchSession.Score())),
            #"{"detail":"the opponent left (quit)","end":"peer-left","event":"match-over","#
                + #""score":{"draws":0,"games":0,"losses":0,"wins":0}}"#)
    }

    func testSummaryWithAndWithoutRoundTrip() throws {
        try assertLine(
            .summary(MatchSummary(score: score, seed: 7, roundTrip: .nanoseconds(123_456), exit: .success,
                                  end: "completed")),
            #"{"draws":1,"end":"completed","event":"summary","exit":0,"games":4,"losses":1,"rtt_ms":0.123,"#
                + #""seed":7,"wins":2}"#)
        try assertLine(
            .summary(MatchSummary(score: score, seed: 12_345_678_901_234_567_890, roundTrip: .milliseconds(2),
                                  exit: .peerLeft, end: "peer-left")),
            #"{"draws":1,"end":"peer-left","event":"summary","exit":3,"games":4,"losses":1,"rtt_ms":2,"#
                + #""seed":12345678901234567890,"wins":2}"#)
        try assertLine(
            .summary(MatchSummary(score: MatchSession.Score(), seed: 0, roundTrip: nil,
                                  exit: .localNetworkNotAllowed, end: "local-network-off")),
            #"{"draws":0,"end":"local-network-off","event":"summary","exit":12,"games":0,"losses":0,"seed":0,"#
                + #""wins":0}"#)
    }

    func testErrorsAndHostEvents() throws {
        try assertLine(
            .error("cannot listen on 0.0.0.0:7420/tcp: address in use", .cannotListen),
            #"{"event":"error","exit":9,"message":"cannot listen on 0.0.0.0:7420/tcp: address in use"}"#)
        try assertLine(
            .rejectedBusy(remote: "127.0.0.1:50000"), #"{"event":"busy-rejected","remote":"127.0.0.1:50000"}"#)
        try assertLine(
            .peerFailed(remote: "127.0.0.1:50001", error: "handshake timed out"),
            #"{"error":"handshake timed out","event":"peer-failed","remote":"127.0.0.1:50001"}"#)
        try assertLine(.localMoveRejected("cell 5 is taken"), #"{"error":"cell 5 is taken","event":"move-rejected"}"#)
    }

    func testEscapesControlCharactersAndQuotesOnly() throws {
        try assertLine(
            .error("a \"quoted\" back\\slash\ttab\nline \u{1}", .failure),
            #"{"event":"error","exit":1,"message":"a \"quoted\" back\\slash\ttab\nline \u0001"}"#)
    }

    func testDiscoveryEvents() throws {
        try assertLine(.discovery(.advertised(name: "Zoë's game")),
                       #"{"event":"advertised","name":"Zoë's game","private":false,"secure":true}"#)
        try assertLine(.discovery(.advertised(name: "Bo", security: .private)),
                       #"{"event":"advertised","name":"Bo","private":true,"secure":true}"#)
        try assertLine(
            .discovery(.advertisingUnavailable(message: "Bonjour is unavailable")),
            #"{"event":"advertising-unavailable","message":"Bonjour is unavailable"}"#)
        try assertLine(.discovery(.withdrawn), #"{"event":"withdrawn"}"#)
        try assertLine(.discovery(.noGames), #"{"event":"no-games"}"#)
        try assertLine(.discovery(.bonjourAvailable), #"{"event":"bonjour-available"}"#)
        try assertLine(
            .discovery(.bonjourUnavailable(message: "no avahi-daemon")),
            #"{"event":"bonjour-unavailable","message":"no avahi-daemon"}"#)
        try assertLine(
            .discovery(.game(GameListing(name: "Ada", security: .open))),
            #"{"addresses":[],"compatible":true,"event":"game","name":"Ada","playing":false,"private":false,"secure":true,"state":"joinable","this_machine":false,"watch":0}"#)
        try assertLine(
            .discovery(.game(GameListing(name: "Old", notJoinableBecause: "protocol 0"))),
            #"{"addresses":[],"compatible":false,"event":"game","name":"Old","playing":false,"private":false,"reason":"protocol 0","secure":false,"state":"not-joinable","this_machine":false,"watch":0}"#)
    }

    /// `browse --json` marks private games (joining needs the host's code) and says which are encrypted: a protocol
    /// 1 game is joinable (with `--plaintext`) but not secure.
    func testGameEntriesSayPrivateAndSecure() throws {
        try assertLine(
            .discovery(.game(GameListing(name: "Bea", security: .private))),
            #"{"addresses":[],"compatible":true,"event":"game","name":"Bea","playing":false,"private":true,"secure":true,"state":"joinable","this_machine":false,"watch":0}"#)
        try assertLine(
            .discovery(.game(GameListing(name: "Cy", security: .plaintext))),
            #"{"addresses":[],"compatible":true,"event":"game","name":"Cy","playing":false,"private":false,"secure":false,"state":"joinable","this_machine":false,"watch":0}"#)
        try assertLine(
            .discovery(.games([
                GameListing(name: "Bea", security: .private), GameListing(name: "Cy", security: .open),
            ])),
            #"{"event":"games","games":[{"addresses":[],"compatible":true,"name":"Bea","playing":false,"private":true,"secure":true,"state":"joinable","this_machine":false,"watch":0},"#
                + #"{"addresses":[],"compatible":true,"name":"Cy","playing":false,"private":false,"secure":true,"state":"joinable","this_machine":false,"watch":0}]}"#)
    }

    func testGamesListWithAnIncompatibleGame() throws {
        try assertLine(
            .discovery(.games([
                GameListing(name: "Ada", security: .open),
                GameListing(name: "Bö/2", notJoinableBecause: "needs protocol version 3"),
            ])),
            #"{"event":"games","games":[{"addresses":[],"compatible":true,"name":"Ada","playing":false,"private":false,"secure":true,"state":"joinable","this_machine":false,"watch":0},"#
                + #"{"addresses":[],"compatible":false,"name":"Bö/2","playing":false,"private":false,"reason":"needs protocol version 3","#
                + #""secure":false,"state":"not-joinable","this_machine":false,"watch":0}]}"#)
        try assertLine(.discovery(.games([])), #"{"event":"games","games":[]}"#)
    }

    /// A resolved game says where it is; one whose host does not answer says so (and why it cannot be joined now).
    func testGameEntriesSayWhereAndWhetherTheyAnswer() throws {
        try assertLine(
            .discovery(.game(GameListing(
                name: "Ada", state: .joinable(.open), host: "host-a.local.", addresses: ["10.0.0.2"], isThisMachine: true))),
            #"{"addresses":["10.0.0.2"],"compatible":true,"event":"game","host":"host-a.local","name":"Ada","#
                + #""playing":false,"private":false,"secure":true,"state":"joinable","this_machine":true,"watch":0}"#)
        try assertLine(
            .discovery(.game(GameListing(name: "Gone", state: .notAnswering(since: .seconds(4))))),
            #"{"addresses":[],"compatible":false,"event":"game","name":"Gone","playing":false,"private":false,"#
                + #""reason":"not answering","secure":false,"state":"not-answering","this_machine":false,"watch":0}"#)
        // A host playing a match, with room for two spectators.
        var busy = GameListing(name: "Bea", security: .open)
        busy.playing = true
        busy.spectatorRoom = 2
        try assertLine(
            .discovery(.game(busy)),
            #"{"addresses":[],"compatible":true,"event":"game","name":"Bea","playing":true,"private":false,"#
                + #""secure":true,"state":"joinable","this_machine":false,"watch":2}"#)
    }

    func testResolved() throws {
        try assertLine(
            .discovery(.resolved(name: "Ada's game", addresses: ["192.168.1.20:7420", "[fe80::1%eth0]:7420"])),
            #"{"addresses":["192.168.1.20:7420","[fe80::1%eth0]:7420"],"event":"resolved","name":"Ada's game"}"#)
    }

    /// The samples docs/HEADLESS.md shows, keys sorted as written.
    func testWatchAndServiceTypeLinesAsTheDocsShowThem() throws {
        let match = WatchedMatch(
            hostName: "Alice", joinerName: "Bob", game: 2, hostMark: .o, firstMover: .x,
            board: try XCTUnwrap(Board("X...O....")), phase: .playing, hostWins: 1)
        try assertLine(
            .watched(match),
            #"{"board":"X...O....","event":"watch","first":"X","game":2,"host":"Alice","host_mark":"O","joiner":"Bob","#
                + #""phase":"playing","reason":null,"score":{"draws":0,"host":1,"joiner":0},"to_move":"X","winner":null}"#)
        try assertLine(.discovery(.serviceTypeCount(3)), #"{"count":3,"event":"service-types"}"#)
        try assertLine(
            .discovery(.serviceType(name: "_http._tcp", domain: "local.")),
            #"{"domain":"local.","event":"service-type","type":"_http._tcp"}"#)
    }

    func testTheReporterWritesOneLinePerReport() {
        let lines = Recorder<String>()
        let reporter = JSONLinesReporter(write: { lines.append($0) })
        reporter.report(.seed(1))
        reporter.report(.discovery(.withdrawn))
        XCTAssertEqual(lines.all, [#"{"event":"seed","seed":1}"#, #"{"event":"withdrawn"}"#])
    }
}
