import Bonjour
import GameProtocol
import XCTest

final class TXTRecordTests: XCTestCase {
    func testWireFormatIsLengthPrefixedKeyValueStrings() {
        XCTAssertEqual(GameService.txtRecord(security: .plaintext).wire, [7] + Array("proto=1".utf8))
        XCTAssertEqual(GameService.txtRecord(security: .open).wire,
                       [7] + Array("proto=2".utf8) + [8] + Array("sec=open".utf8))
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
    /// What each kind of host advertises: `proto=2 sec=open`, `proto=2 sec=private`, `proto=1` (no `sec`).
    func testTheTXTRecordSaysTheProtocolVersionAndTheSecurity() {
        XCTAssertEqual(GameService.txtRecord(security: .open), TXTRecord(["proto": "2", "sec": "open"]))
        XCTAssertEqual(GameService.txtRecord(security: .private), TXTRecord(["proto": "2", "sec": "private"]))
        XCTAssertEqual(GameService.txtRecord(security: .plaintext), TXTRecord(["proto": "1"]))
        XCTAssertNil(GameService.txtRecord(security: .plaintext).entry(forKey: "sec"))
        XCTAssertEqual(GameService.type, "_tictactoe._tcp")
        XCTAssertEqual(GameService.versionKey, "proto")
        XCTAssertEqual(GameService.securityKey, "sec")
    }

    /// Our own records, read back from the wire, are compatible with the security they advertise.
    func testOurOwnRecordsAreCompatibleWithTheirSecurity() {
        for security in GameSecurity.allCases {
            let txt = TXTRecord(wire: GameService.txtRecord(security: security).wire)
            XCTAssertEqual(GameService.compatibility(of: txt), .compatible(security), "\(security)")
            XCTAssertEqual(GameService.compatibility(of: txt).security, security)
            XCTAssertTrue(GameService.compatibility(of: txt).isCompatible)
        }
        // Keys compare case-insensitively (RFC 6763 §6.4); the values are exact.
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["PROTO": "2", "Sec": "private"])),
                       .compatible(.private))
    }

    /// A protocol 1 game is joinable as plaintext (only with --plaintext: the join decides), whatever `sec` says.
    func testAProtocol1GameIsPlaintext() {
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "1"])), .compatible(.plaintext))
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "1", "sec": "private"])),
                       .compatible(.plaintext))
    }

    /// A protocol 2 game without a security mode is not assumed open, nor private: it is not joinable.
    func testAProtocol2GameWithoutSecurityIsIncompatible() {
        let reason = Compatibility.incompatible(reason: "no security mode advertised")
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "2"])), reason)
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "2", "sec": ""])), reason)
        XCTAssertEqual(
            GameService.compatibility(of: TXTRecord([.init(key: "proto", value: Array("2".utf8)),
                                                     .init(key: "sec", value: nil)])),
            reason)
        XCTAssertNil(reason.security)
        XCTAssertFalse(reason.isCompatible)
    }

    /// A security mode this version does not know is a newer variant: the reason names it and says what to do.
    func testAnUnknownSecurityModeIsANewerVariant() {
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "2", "sec": "quantum"])),
                       .incompatible(reason: "uses security 'quantum' this version does not know; update tictactoe"))
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "2", "sec": "Open"])),
                       .incompatible(reason: "uses security 'Open' this version does not know; update tictactoe"))
        // Plaintext is protocol 1's; a protocol 2 record claiming it is not ours.
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "2", "sec": "plaintext"])),
                       .incompatible(reason: "uses security 'plaintext' this version does not know; update tictactoe"))
    }

    func testOtherProgramsAndVersionsAreIncompatible() {
        // Apple's iOS sample game and `avahi-publish` without TXT: no version at all.
        guard case .incompatible(let none) = GameService.compatibility(of: TXTRecord()) else {
            return XCTFail("no TXT must be incompatible")
        }
        XCTAssertTrue(none.contains("no protocol version"), none)
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "3", "sec": "open"])),
                       .incompatible(reason: "speaks protocol version 3, we speak 1 and 2"))
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "0"])),
                       .incompatible(reason: "speaks protocol version 0, we speak 1 and 2"))
        XCTAssertEqual(GameService.compatibility(of: TXTRecord(["proto": "one"])),
                       .incompatible(reason: "unreadable protocol version"))
        XCTAssertEqual(GameService.compatibility(of: TXTRecord([.init(key: "proto", value: nil)])),
                       .incompatible(reason: "unreadable protocol version"))
    }

    /// A resolved game carries what its record says: the security the join must bring, or nil when not joinable.
    func testAResolvedGameCarriesItsSecurity() {
        func resolved(_ txt: TXTRecord) -> ResolvedGame {
            ResolvedGame(name: "g", hostTarget: "host-a.local.", port: 7878, txt: txt, endpoints: [])
        }
        XCTAssertEqual(resolved(GameService.txtRecord(security: .private)).security, .private)
        XCTAssertEqual(resolved(GameService.txtRecord(security: .open)).security, .open)
        XCTAssertEqual(resolved(GameService.txtRecord(security: .plaintext)).security, .plaintext)
        XCTAssertNil(resolved(TXTRecord(["proto": "2"])).security)
        XCTAssertEqual(resolved(TXTRecord(["proto": "2"])).compatibility,
                       .incompatible(reason: "no security mode advertised"))
    }

    func testInstanceNamesAreCutTo63BytesAtACharacterBoundary() {
        XCTAssertEqual(GameService.instanceName("Bob's game"), "Bob's game")
        let long = String(repeating: "é", count: 40)  // 80 bytes
        let cut = GameService.instanceName(long)
        XCTAssertEqual(cut.utf8.count, 62)
        XCTAssertEqual(cut, String(repeating: "é", count: 31))
        XCTAssertEqual(GameService.instanceName(String(repeating: "a", count: 70)).utf8.count, 63)
        // Advertised in NFC, as the hello sends it: "Zoë" typed decomposed is registered precomposed.
        XCTAssertEqual(Array(GameService.instanceName("Zoe\u{308}'s game").utf8), Array("Zo\u{EB}'s game".utf8))
    }
}
