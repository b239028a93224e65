@testable import GamePairing
import XCTest

final class PairingWireTests: XCTestCase {
    let sessionID = bytes("7e4b4791d6a8ef019b936c79fb7f2c57")
    let hostShare = "d6bac480f2c386c394efc7c47adb9925dcd2630b64f240c50f8d0eec482b9157"
    let joinerShare = "3ea7e0b19560d7c0b0f5734f63b955286dfa8232b5ebe63324e2d9e7433f7258"

    func testTheHintIsSidThenShareInLowercaseHex() throws {
        let hint = HostHint(sessionID: sessionID, hostShare: try share(hostShare))
        XCTAssertEqual(hint.encoded, "7e4b4791d6a8ef019b936c79fb7f2c57" + hostShare)
        XCTAssertEqual(hint.encoded.count, HostHint.encodedLength)
        XCTAssertEqual(HostHint.encodedLength, 96)
        XCTAssertLessThanOrEqual(HostHint.encodedLength, 128, "OpenSSL's limit for PSK hints")
        XCTAssertEqual(try HostHint(decoding: hint.encoded), hint)
    }

    func testTheIdentityIsTheShareInLowercaseHex() throws {
        let identity = JoinerIdentity(joinerShare: try share(joinerShare))
        XCTAssertEqual(identity.encoded, joinerShare)
        XCTAssertEqual(JoinerIdentity.encodedLength, 64)
        XCTAssertEqual(try JoinerIdentity(decoding: joinerShare), identity)
    }

    func testMalformedIdentitiesAreRefused() {
        let cases: [(String, PairingWireError)] = [
            ("", .wrongLength(expected: 64, actual: 0)),
            (String(joinerShare.dropLast()), .wrongLength(expected: 64, actual: 63)),
            (joinerShare + "0", .wrongLength(expected: 64, actual: 65)),
            (joinerShare.uppercased(), .notLowercaseHex),
            ("0x" + joinerShare.dropFirst(2), .notLowercaseHex),
            (String(joinerShare.dropLast(2)) + " 8", .notLowercaseHex),
            (String(joinerShare.dropLast(1)) + "g", .notLowercaseHex),
            (String(joinerShare.dropLast(1)) + "é", .notLowercaseHex),
            (String(joinerShare.dropLast(1)) + "\0", .notLowercaseHex),
            (String(repeating: "00", count: 32), .invalidShare),  // the identity
            ("2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c", .invalidShare),  // not canonical
            (String(repeating: "ff", count: 32), .invalidShare),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try JoinerIdentity(decoding: text), text) {
                XCTAssertEqual($0 as? PairingWireError, expected, text)
            }
        }
    }

    func testMalformedHintsAreRefused() {
        let valid = "7e4b4791d6a8ef019b936c79fb7f2c57" + hostShare
        let cases: [(String, PairingWireError)] = [
            (hostShare, .wrongLength(expected: 96, actual: 64)),
            (valid + "00", .wrongLength(expected: 96, actual: 98)),
            ("7E4B" + valid.dropFirst(4), .notLowercaseHex),
            ("7e4b4791d6a8ef019b936c79fb7f2c57" + String(repeating: "00", count: 32), .invalidShare),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try HostHint(decoding: text), text) {
                XCTAssertEqual($0 as? PairingWireError, expected, text)
            }
        }
    }

    func testErrorsSayWhatWasExpected() {
        XCTAssertEqual("\(PairingWireError.wrongLength(expected: 64, actual: 3))", "expected 64 characters, got 3")
        XCTAssertEqual(
            "\(PairingError.malformedHint(.notLowercaseHex))",
            "the host's pairing hint is malformed: expected lowercase hexadecimal digits only")
        XCTAssertEqual(
            "\(PairingError.keyExchange(.invalidPeerShare))",
            "the peer's CPace share is not a valid group element (the key exchange was aborted)")
    }
}
