import Foundation
import GameClient
import GameProtocol
import GameRules
@testable import TicTacToeApp
import XCTest

/// `JSONLine` writes lines with its own writer (`JSONLineWriter`) instead of `JSONEncoder`: every line must be the
/// bytes the Foundation path (`JSONEncoder`, sorted keys, then the terminal-control escapes) would have written.
final class JSONLineWriterTests: XCTestCase {
    private func assertSameAsFoundation<Value: Encodable>(
        _ value: Value, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(try JSONLine.encode(value), try JSONLine.foundationEncode(value), file: file, line: line)
    }

    private let hostile = "a\"b\\c/d\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1B}[2J\u{1F} \u{7F}\u{80}\u{85}\u{9B}\u{9F}"
        + "\u{A0}é☃😀\u{61C}\u{200E}\u{200F}\u{2028}\u{2029}\u{202A}\u{202E}\u{2066}\u{2069}\u{FEFF}\u{FFFD}e\u{301}"

    /// Every kind of report, with plain and hostile text wherever text from outside goes.
    private func reports(_ text: String) throws -> [MatchReport] {
        let score = MatchSession.Score(localWins: 2, peerWins: 1, draws: 1)
        let board = try XCTUnwrap(Board("XXXOO...."))
        var reports: [MatchReport] = [
            .seed(0), .seed(UInt64.max),
            .listening(host: text, port: 7420, name: text, security: .private,
                       addresses: [JoinAddress(host: "127.0.0.1", port: 7420, kind: .loopback)]),
            .listening(host: "::", port: 0, name: text, security: .plaintext),
            .codeReplaced(reason: text),
            .connectionState(.waiting(.notAllowed(text))), .connectionState(.preparing),
            .connectionState(.ready(peerName: text)), .connectionState(.failed(.unreachable(text))),
            .connected(peerName: text, address: text, role: .joiner, cipher: text),
            .connected(peerName: text, address: "[::1]:1", role: .host),
            .session(.gameStarted(number: 65535, localMark: .o, firstMover: .x)),
            .session(.rematchOffered),
            .session(.matchOver(.peerViolation(code: .unexpectedMessage, text: text), score: score)),
            .session(.matchOver(.completed(by: .local), score: MatchSession.Score())),
            .rejectedBusy(remote: text), .peerFailed(remote: text, error: text),
            .summary(MatchSummary(score: score, seed: 9, roundTripMilliseconds: nil, exit: .peerLeft, end: text)),
            .error(text, .peerLeft), .localMoveRejected(text),
            .discovery(.advertised(name: text, security: .plaintext)), .discovery(.advertisingUnavailable(message: text)),
            .discovery(.withdrawn), .discovery(.noGames), .discovery(.bonjourUnavailable(message: text)),
            .discovery(.bonjourAvailable), .discovery(.resolved(name: text, addresses: [text, "10.0.0.1:7420"])),
            .discovery(.game(GameListing(name: text, notJoinableBecause: text))),
            .discovery(.games([GameListing(name: text, security: .private), GameListing(name: "b", security: .open)])),
            .discovery(.games([])),
        ]
        for cell in 0..<9 {  // every move line (they are made once, in a table)
            for mark in Mark.allCases {
                reports.append(.session(.moved(mark: mark, cell: cell, by: .local)))
                reports.append(.session(.moved(mark: mark, cell: cell, by: .peer)))
            }
        }
        let results: [GameResult] = [
            GameResult(winner: .x, reason: .line([0, 1, 2])), GameResult(winner: nil, reason: .draw),
            GameResult(winner: .x, reason: .resignation(.o)), GameResult(winner: .o, reason: .forfeit(.x)),
            GameResult(winner: .o, reason: .timeout(.x)),
        ]
        for result in results {
            reports.append(.session(.gameOver(number: 3, result: result, board: board, score: score)))
        }
        return reports
    }

    func testEveryEventKindIsWrittenAsJSONEncoderWritesIt() throws {
        for text in ["plain", "", hostile] {
            for report in try reports(text) {
                try assertSameAsFoundation(JSONEvent(report))
                XCTAssertEqual(try JSONEvent.line(report), try JSONLine.foundationEncode(JSONEvent(report)))
            }
        }
    }

    /// Each scalar of the Basic Multilingual Plane's first part (all controls, Latin, the bidi characters) and a few
    /// beyond, alone in a string.
    func testEveryScalarIsEscapedAsBefore() throws {
        var scalars = (0...0x2100).compactMap(Unicode.Scalar.init)
        scalars += [0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF, 0x1F600, 0x10FFFF].compactMap(Unicode.Scalar.init)
        for scalar in scalars {
            try assertSameAsFoundation(JSONEvent(.localMoveRejected("<\(Character(scalar))>")))
        }
    }

    /// Keys sort by their bytes (capitals, `_`, digits and prefixes), as `JSONEncoder`'s `.sortedKeys` sorts them.
    func testKeysSortAsJSONEncoderSortsThem() throws {
        let keys = ["game_connections", "games", "gameZ", "game1", "game10", "game2", "A", "a", "_", "B", "a_b", "ab",
                    "ab_", "éa", "eb", "~", "x\u{7F}", "x\u{202E}", "", "z"]
        var object: [String: Int] = [:]
        for (index, key) in keys.enumerated() { object[key] = index }
        try assertSameAsFoundation(object)
        try assertSameAsFoundation(["nested": object])
    }

    /// Numbers with Foundation's formatting (the round trip in `summary`) go the Foundation way.
    func testFloatingPointNumbersFallBackToJSONEncoder() throws {
        XCTAssertThrowsError(try JSONLineWriter.encode(["rtt": 0.5]))
        for rtt in [0.123456, 2.0, 1e-7, 123_456.789] {
            let summary = MatchSummary(score: MatchSession.Score(draws: 1), seed: 1, roundTripMilliseconds: rtt,
                                       exit: .success, end: "completed")
            try assertSameAsFoundation(JSONEvent(.summary(summary)))
        }
    }
}
