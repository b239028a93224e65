@testable import AppCore
import Foundation
import GameClient
import GameProtocol
import GameRules
@testable import HeadlessUI
@testable import JSONLines
import TextSupport
import TicTacToeTestSupport
import XCTest

/// Every JSON line goes through `JSONEncoder` and one escaping pass: text from outside stays lossless, and nothing in
/// a line can act on a terminal (C0 controls, DEL, the C1 controls and the bidi formatting characters are `\u`
/// escapes); record events read back as the very events that were written.
final class JSONEscapingTests: XCTestCase {
    private let hostile = "a\"b\\c/d\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1B}[2J\u{1F} \u{7F}\u{80}\u{85}\u{9B}\u{9F}"
        + "\u{A0}é☃😀\u{61C}\u{200E}\u{200F}\u{2028}\u{2029}\u{202A}\u{202E}\u{2066}\u{2069}\u{FEFF}\u{FFFD}e\u{301}"

    /// What a line may never hold raw: C0, DEL, C1, the bidi formatting characters (the sanitizer's rule, spelled
    /// out here), and the line and paragraph separators, which some readers split lines on.
    private func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Every kind of report, with `text` wherever text from outside goes.
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
            .rejectedBusy(remote: text), .peerFailed(remote: text, error: text),
            .summary(MatchSummary(score: score, seed: 9, roundTrip: .microseconds(250), exit: .peerLeft, end: text)),
            .error(text, .peerLeft), .localMoveRejected(text),
            .discovery(.advertised(name: text, security: .plaintext)), .discovery(.advertisingUnavailable(message: text)),
            .discovery(.resolved(name: text, addresses: [text, "10.0.0.1:7420"])),
            .discovery(.game(GameListing(name: text, notJoinableBecause: text))),
            .discovery(.games([GameListing(name: text, security: .private), GameListing(name: "b", security: .open)])),
            .engineStarted(name: text, pid: 42, log: text),
            .engineFailed(game: 1, engine: text, kind: "exited", reason: text, log: text),
            .spectator(name: text, address: text, joined: true, watching: 1),
        ]
        for (cell, mark) in zip(0..<9, [Mark.x, .o, .x, .o, .x, .o, .x, .o, .x]) {
            reports.append(.session(.moved(mark: mark, cell: cell, by: cell % 2 == 0 ? .local : .peer)))
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

    /// A JSON value as `JSONDecoder` reads it back: only its strings matter here.
    private enum Value: Decodable {
        case string(String)
        case array([Value])
        case object([String: Value])
        case other

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if let text = try? single.decode(String.self) { self = .string(text) }
            else if let array = try? single.decode([Value].self) { self = .array(array) }
            else if let object = try? single.decode([String: Value].self) { self = .object(object) }
            else { self = .other }
        }

        var strings: [String] {
            switch self {
            case .string(let text): return [text]
            case .array(let values): return values.flatMap(\.strings)
            case .object(let fields): return fields.values.flatMap(\.strings)
            case .other: return []
            }
        }
    }

    func testEveryEventKeepsHostileTextLosslessAndNothingRawThatATerminalActsOn() throws {
        for report in try reports(hostile) {
            let line = try JSONEvent.line(report)
            XCTAssertFalse(line.unicodeScalars.contains(where: isUnsafe), line)
            let value = try JSONDecoder().decode([String: Value].self, from: Data(line.utf8))
            guard case .string = value["event"] else { return XCTFail("no event: \(line)") }
            if line.contains(#"a\"b"#) {
                // Every hostile field reads back whole (some after a prefix of our own: "peer unreachable: ").
                let written = Array(hostile.unicodeScalars)
                XCTAssertTrue(Value.object(value).strings.contains {
                    Array($0.unicodeScalars.suffix(written.count)) == written
                }, "the text read back whole: \(line)")
            }
        }
    }

    /// Each scalar of the first part of the Basic Multilingual Plane and a few beyond, alone in a string: the unsafe
    /// ones as `\u` escapes (C0's short forms `\b \t \n \f \r` too), every other one as itself (`"` and `\` escaped).
    func testEveryScalarIsEscapedByTheSanitizersRule() throws {
        var scalars = (0...0x2100).compactMap(Unicode.Scalar.init)
        scalars += [0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF, 0x1F600, 0x10FFFF].compactMap(Unicode.Scalar.init)
        let short: [UInt32: String] = [0x8: #"\b"#, 0x9: #"\t"#, 0xA: #"\n"#, 0xC: #"\f"#, 0xD: #"\r"#,
                                       0x22: #"\""#, 0x5C: #"\\"#]
        for scalar in scalars {
            let line = try JSONLine.encode(["text": String(Character(scalar))])
            let expected: String
            if let escape = short[scalar.value] {
                expected = escape
            } else if isUnsafe(scalar) {
                expected = "\\u" + hex(scalar.value)
            } else {
                expected = String(Character(scalar))
            }
            XCTAssertEqual(line, #"{"text":""# + expected + #""}"#, "U+\(hex(scalar.value))")
            let decoded = try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
            XCTAssertEqual(decoded["text"].map { Array($0.unicodeScalars) }, [scalar])
        }
    }

    /// A record's events read back as the events written, hostile names included.
    func testRecordEventsReadBackAsWritten() throws {
        var events: [RecordEvent] = try reports(hostile).compactMap(RecordEvent.init)
        events.append(.players(RecordEvent.Players(seriesGame: 4, x: hostile, o: "O", local: hostile, peer: "O")))
        events.append(.players(RecordEvent.Players(x: "Ada", o: hostile, local: hostile, peer: "Ada")))
        XCTAssertEqual(events.count, 4 + 1 + 9 + 5 + 2)
        for event in events {
            let line = try JSONLine.encode(event)
            XCTAssertEqual(try JSONDecoder().decode(RecordEvent.self, from: Data(line.utf8)), event, line)
        }
        let seed = try JSONEvent.line(.seed(3))
        XCTAssertEqual(try JSONDecoder().decode(RecordEvent.self, from: Data(seed.utf8)), .other("seed"))
    }

    /// A move's line comes from a table the encoder wrote once: the same bytes as encoding the move.
    func testEveryMoveLineIsTheEncodersLine() throws {
        for side in [MatchSession.Side.local, .peer] {
            for mark in Mark.allCases {
                for cell in 0..<Board.cellCount {
                    let report = MatchReport.session(.moved(mark: mark, cell: cell, by: side))
                    XCTAssertEqual(try JSONEvent.line(report), try JSONLine.encode(JSONEvent(report)))
                }
            }
        }
        XCTAssertEqual(try JSONEvent.line(.session(.moved(mark: .o, cell: 8, by: .peer))),
                       #"{"by":"peer","cell":9,"event":"move","mark":"O"}"#)
    }

    /// Keys are sorted by their bytes (capitals, `_`, digits and prefixes).
    func testKeysAreSorted() throws {
        let keys = ["game_connections", "games", "gameZ", "game1", "game10", "game2", "A", "a", "_", "B", "a_b", "ab"]
        var object: [String: Int] = [:]
        for (index, key) in keys.enumerated() { object[key] = index }
        XCTAssertEqual(
            try JSONLine.encode(object),
            #"{"A":6,"B":9,"_":8,"a":7,"a_b":10,"ab":11,"game1":3,"game10":4,"game2":5,"gameZ":2,"game_connections":0,"#
                + #""games":1}"#)
    }

    /// A number JSON cannot hold is refused, not written as `{}` (no report carries one: a round trip is a
    /// `Duration`, made a number of milliseconds only here).
    func testANonFiniteNumberIsRefused() throws {
        XCTAssertThrowsError(try JSONLine.encode(["rtt": Double.nan]))
        XCTAssertThrowsError(try JSONLine.encode(["rtt": Double.infinity]))
    }
}
