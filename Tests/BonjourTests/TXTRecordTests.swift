import Bonjour
import XCTest

final class TXTRecordTests: XCTestCase {
    func testWireFormatIsLengthPrefixedKeyValueStrings() {
        XCTAssertEqual(GameService.txtRecord().wire, [7] + Array("proto=1".utf8))
        XCTAssertEqual(TXTRecord(["a": "b", "flag": ""]).wire, [3, 97, 61, 98, 5, 102, 108, 97, 103, 61])
    }

    func testEmptyRecordIsOneEmptyString() {
        XCTAssertEqual(TXTRecord().wire, [0])
        XCTAssertEqual(TXTRecord(wire: [0]).entries, [])
        XCTAssertEqual(TXTRecord(wire: []).entries, [])
    }

    func testParsesWhatAvahiHandsOver() {
        let txt = TXTRecord(wire: [7] + Array("proto=1".utf8) + [4] + Array("bool".utf8) + [3] + Array("k=x".utf8))
        XCTAssertEqual(txt["proto"], "1")
        XCTAssertNil(txt["bool"])
        XCTAssertEqual(txt.entry(forKey: "bool"), .init(key: "bool", value: nil))
        XCTAssertEqual(txt["K"], "x", "keys compare case-insensitively")
        XCTAssertNil(txt["missing"])
    }

    func testFirstOccurrenceOfAKeyWins() {
        let txt = TXTRecord(wire: [7] + Array("proto=1".utf8) + [7] + Array("PROTO=2".utf8))
        XCTAssertEqual(txt["proto"], "1")
    }

    func testToleratesTruncatedAndKeylessStrings() {
        // "=x" has no key (ignored); the last string claims 9 bytes but has 3.
        let txt = TXTRecord(wire: [2] + Array("=x".utf8) + [0] + [7] + Array("proto=1".utf8) + [9, 97, 98, 99])
        XCTAssertEqual(txt.entries.map(\.key), ["proto"])
    }

    func testRoundTrip() {
        let txt = TXTRecord(["proto": "1", "name": "Élodie's"])
        XCTAssertEqual(TXTRecord(wire: txt.wire), txt)
    }
}

final class GameServiceTests: XCTestCase {
    func testOurOwnRecordIsCompatible() {
        XCTAssertEqual(GameService.compatibility(of: GameService.txtRecord()), .compatible)
        XCTAssertEqual(GameService.type, "_tictactoe._tcp")
        XCTAssertEqual(GameService.protocolVersion, 1)
    }

    func testOtherProgramsAndVersionsAreIncompatible() {
        // Apple's iOS sample game and `avahi-publish` without TXT: no version at all.
        guard case .incompatible(let none) = GameService.compatibility(of: TXTRecord()) else {
            return XCTFail("no TXT must be incompatible")
        }
        XCTAssertTrue(none.contains("no protocol version"), none)
        guard case .incompatible(let other) = GameService.compatibility(of: TXTRecord(["proto": "2"])) else {
            return XCTFail("another version must be incompatible")
        }
        XCTAssertEqual(other, "speaks protocol version 2, we speak 1")
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "one"])),
                       .incompatible(reason: "unreadable protocol version"))
        XCTAssertEqual(GameService.compatibility(of: TXTRecord([.init(key: "proto", value: nil)])),
                       .incompatible(reason: "unreadable protocol version"))
    }

    func testInstanceNamesAreCutTo63BytesAtACharacterBoundary() {
        XCTAssertEqual(GameService.instanceName("Bob's game"), "Bob's game")
        let long = String(repeating: "é", count: 40)  // 80 bytes
        let cut = GameService.instanceName(long)
        XCTAssertEqual(cut.utf8.count, 62)
        XCTAssertEqual(cut, String(repeating: "é", count: 31))
        XCTAssertEqual(GameService.instanceName(String(repeating: "a", count: 70)).utf8.count, 63)
    }
}
