@testable import GamePairing
import XCTest
import PairingCode

/// The host/joiner pairing as the TLS handshake will run it: hint → identity and PSK → the host's PSK.
final class PairingTests: XCTestCase {
    func testTheChoicesArePinned() {
        XCTAssertEqual(Pairing.channelIdentifier, bytes("0b746963746163746f652f3204686f7374066a6f696e6572"))
        XCTAssertEqual(Pairing.hostAssociatedData, [])
        XCTAssertEqual(Pairing.joinerAssociatedData, [])
        XCTAssertEqual(Pairing.pskInfo, "tictactoe v2 tls-psk")
        XCTAssertEqual(Pairing.sessionIDByteCount, 16)
        XCTAssertEqual(try GameCode(parsing: "012345").password, Array("012345".utf8))
        XCTAssertEqual(GameCode.open.password, Array("tictactoe open game".utf8))
    }

    /// HKDF-SHA256(IKM = the draft's ISK_IR vector, no salt, info "tictactoe v2 tls-psk", 32 bytes), computed
    /// independently (Python's hmac and hashlib, RFC 5869's extract and expand).
    func testThePreSharedKeyDerivationIsPinned() {
        let isk = SecretBytes(copying: bytes("""
            b69effbf61b51d56401c0f65601abe428de8206feaaf0e32198896dc
            ae7b35cd2b38950a39dfd5d4a79164614c2984f7daa460b588c1e80c
            3fa2068af7900447
            """))
        let psk = Pairing.preSharedKey(from: isk)
        XCTAssertEqual(psk.count, 32)
        XCTAssertEqual(array(psk), bytes("60eb5e40914687797b0588359a9d78a3e83241d4531870c5be3c330cdb738da5"))
    }

    func testTheSameCodeGivesBothSidesTheSamePreSharedKey() throws {
        let code = GameCode.random()
        var host = try HostPairing(code: code)
        XCTAssertEqual(host.identityHint.count, 96)
        let typed = try GameCode(parsing: XCTUnwrap(code.revealed))
        let joiner = try JoinerPairing.respond(code: typed, identityHint: host.identityHint)
        XCTAssertEqual(joiner.identity.count, 64)
        let hostKey = try host.preSharedKey(forIdentity: joiner.identity)
        XCTAssertEqual(hostKey.count, 32)
        XCTAssertEqual(hostKey, joiner.preSharedKey)
    }

    func testOpenGamesPairOnThePublicCode() throws {
        var host = try HostPairing(code: .open)
        let joiner = try JoinerPairing.respond(code: .open, identityHint: host.identityHint)
        XCTAssertEqual(try host.preSharedKey(forIdentity: joiner.identity), joiner.preSharedKey)
    }

    func testAWrongCodeGivesDifferentKeysAndNoError() throws {
        var host = try HostPairing(code: try GameCode(parsing: "111111"))
        let joiner = try JoinerPairing.respond(code: try GameCode(parsing: "111112"), identityHint: host.identityHint)
        XCTAssertNotEqual(try host.preSharedKey(forIdentity: joiner.identity), joiner.preSharedKey)

        var openHost = try HostPairing(code: .open)
        let privateJoiner = try JoinerPairing.respond(
            code: try GameCode(parsing: "111111"), identityHint: openHost.identityHint)
        XCTAssertNotEqual(try openHost.preSharedKey(forIdentity: privateJoiner.identity), privateJoiner.preSharedKey)
    }

    func testEachConnectionHasItsOwnSessionAndShares() throws {
        let code = try GameCode(parsing: "123456")
        let first = try HostPairing(code: code)
        let second = try HostPairing(code: code)
        XCTAssertNotEqual(first.hint.sessionID, second.hint.sessionID)
        XCTAssertNotEqual(first.hint.hostShare, second.hint.hostShare)
        let answerOne = try JoinerPairing.respond(code: code, identityHint: first.identityHint)
        let answerTwo = try JoinerPairing.respond(code: code, identityHint: first.identityHint)
        XCTAssertNotEqual(answerOne.identity, answerTwo.identity)
        XCTAssertNotEqual(answerOne.preSharedKey, answerTwo.preSharedKey)
    }

    func testTheHintAndIdentityRevealNeitherCodeNorSessionStructure() throws {
        let code = try GameCode(parsing: "123456")
        let host = try HostPairing(code: code, sessionID: bytes("00112233445566778899aabbccddeeff"))
        XCTAssertTrue(host.identityHint.hasPrefix("00112233445566778899aabbccddeeff"))
        XCTAssertFalse(host.identityHint.contains("123456"))
        let joiner = try JoinerPairing.respond(code: code, identityHint: host.identityHint)
        XCTAssertFalse(joiner.identity.contains("123456"))
        XCTAssertEqual("\(joiner.preSharedKey)", "SecretBytes(32 bytes, redacted)")
    }

    func testTheHostRefusesMalformedIdentitiesAndFinishesOnce() throws {
        var host = try HostPairing(code: .open)
        XCTAssertThrowsError(try host.preSharedKey(forIdentity: "not hex")) {
            XCTAssertEqual($0 as? PairingError, .malformedIdentity(.notLowercaseHex))
        }
        XCTAssertThrowsError(try host.preSharedKey(forIdentity: String(repeating: "0", count: 64))) {
            XCTAssertEqual($0 as? PairingError, .malformedIdentity(.invalidShare))
        }
        // A malformed identity did not consume the host's run; a valid one does.
        let joiner = try JoinerPairing.respond(code: .open, identityHint: host.identityHint)
        XCTAssertEqual(try host.preSharedKey(forIdentity: joiner.identity), joiner.preSharedKey)
        XCTAssertThrowsError(try host.preSharedKey(forIdentity: joiner.identity)) {
            XCTAssertEqual($0 as? PairingError, .keyExchange(.alreadyFinished))
        }
    }

    func testTheJoinerRefusesMalformedHints() throws {
        let valid = try HostPairing(code: .open).identityHint
        let cases: [(String, PairingWireError)] = [
            ("", .wrongLength(expected: 96, actual: 0)),
            (String(valid.dropLast(2)), .wrongLength(expected: 96, actual: 94)),
            (valid + "00", .wrongLength(expected: 96, actual: 98)),
            (valid.uppercased(), .notLowercaseHex),
            (String(repeating: "0", count: 96), .invalidShare),
            (valid.prefix(32) + "2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c", .invalidShare),
        ]
        for (hint, expected) in cases {
            XCTAssertThrowsError(try JoinerPairing.respond(code: .open, identityHint: hint), hint) {
                XCTAssertEqual($0 as? PairingError, .malformedHint(expected), hint)
            }
        }
    }

    /// Not a speed check (speed is measured in `make bench`, never asserted): one full pairing on both sides, CPace
    /// plus HKDF, timed and printed while each run's keys are checked.
    func testFullPairingsAgreeAndTheirTimeIsPrinted() throws {
        let code = try GameCode(parsing: "123456")
        let runs = 200
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0..<runs {
                var host = try HostPairing(code: code)
                let joiner = try JoinerPairing.respond(code: code, identityHint: host.identityHint)
                XCTAssertEqual(try host.preSharedKey(forIdentity: joiner.identity), joiner.preSharedKey)
            }
        }
        print("GamePairing: one full pairing (both sides: CPace + HKDF) took \(elapsed / runs) on average over \(runs)")
    }
}
