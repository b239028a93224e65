@testable import GamePairing
import XCTest

/// CPace with random scalars: agreement exactly when the inputs match, aborts on invalid shares, one run per party,
/// and nothing secret in what prints.
final class CPaceTests: XCTestCase {
    let channelIdentifier = Array("test channel".utf8)
    let sessionID = bytes("00112233445566778899aabbccddeeff")

    private func run(
        initiatorPassword: String, responderPassword: String,
        initiatorSessionID: [UInt8]? = nil, responderSessionID: [UInt8]? = nil
    ) throws -> (initiator: SecretBytes, responder: SecretBytes) {
        var initiator = try CPace.Initiator(
            password: Array(initiatorPassword.utf8), channelIdentifier: channelIdentifier,
            sessionID: initiatorSessionID ?? sessionID, associatedData: Array("A".utf8))
        var responder = try CPace.Responder(
            password: Array(responderPassword.utf8), channelIdentifier: channelIdentifier,
            sessionID: responderSessionID ?? sessionID, associatedData: Array("B".utf8))
        let responderKey = try responder.finish(
            initiatorShare: initiator.share, initiatorAssociatedData: Array("A".utf8))
        let initiatorKey = try initiator.finish(
            responderShare: responder.share, responderAssociatedData: Array("B".utf8))
        return (initiatorKey, responderKey)
    }

    func testTheSameCodeGivesTheSameKeyOnBothSides() throws {
        let keys = try run(initiatorPassword: "123456", responderPassword: "123456")
        XCTAssertEqual(keys.initiator.count, 64)
        XCTAssertEqual(keys.initiator, keys.responder)
        XCTAssertEqual(array(keys.initiator), array(keys.responder))
    }

    func testADifferentCodeGivesDifferentKeysWithoutAnError() throws {
        let keys = try run(initiatorPassword: "123456", responderPassword: "123457")
        XCTAssertNotEqual(keys.initiator, keys.responder)
    }

    func testDifferentSessionIDsGiveDifferentKeys() throws {
        let mismatched = try run(
            initiatorPassword: "123456", responderPassword: "123456",
            initiatorSessionID: sessionID, responderSessionID: bytes("ffeeddccbbaa99887766554433221100"))
        XCTAssertNotEqual(mismatched.initiator, mismatched.responder)
        // Two agreeing runs with different sids agree on different keys (and so do two runs with one sid: fresh
        // scalars each time).
        let first = try run(initiatorPassword: "123456", responderPassword: "123456")
        let second = try run(
            initiatorPassword: "123456", responderPassword: "123456",
            initiatorSessionID: bytes("ffeeddccbbaa99887766554433221100"),
            responderSessionID: bytes("ffeeddccbbaa99887766554433221100"))
        XCTAssertEqual(second.initiator, second.responder)
        XCTAssertNotEqual(first.initiator, second.initiator)
    }

    func testDifferentAssociatedDataOrChannelGivesDifferentKeys() throws {
        var initiator = try CPace.Initiator(
            password: Array("123456".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
        var responder = try CPace.Responder(
            password: Array("123456".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
        XCTAssertNotEqual(
            try initiator.finish(responderShare: responder.share, responderAssociatedData: Array("x".utf8)),
            try responder.finish(initiatorShare: initiator.share))

        var otherChannel = try CPace.Initiator(
            password: Array("123456".utf8), channelIdentifier: Array("elsewhere".utf8), sessionID: sessionID)
        var responder2 = try CPace.Responder(
            password: Array("123456".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
        XCTAssertNotEqual(
            try otherChannel.finish(responderShare: responder2.share),
            try responder2.finish(initiatorShare: otherChannel.share))
    }

    func testSharesAreFreshValidElementsThatRevealNothingFixed() throws {
        let first = try CPace.Initiator(
            password: Array("123456".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
        let second = try CPace.Initiator(
            password: Array("123456".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
        XCTAssertTrue(first.share.isValidGroupElement)
        XCTAssertTrue(second.share.isValidGroupElement)
        XCTAssertNotEqual(first.share, second.share, "each party samples a fresh scalar")
    }

    func testInvalidPeerSharesAbort() throws {
        // From the draft's vectors: Y_i1 is not a valid encoding, Y_i2 is the identity G.I.
        let invalid = [
            try share("2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c"),
            try share(String(repeating: "00", count: 32)),
            try share(String(repeating: "ff", count: 32)),  // not canonical (above the field prime)
        ]
        for peerShare in invalid {
            XCTAssertFalse(peerShare.isValidGroupElement)
            var initiator = try CPace.Initiator(
                password: Array("123456".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
            XCTAssertThrowsError(try initiator.finish(responderShare: peerShare)) {
                XCTAssertEqual($0 as? CPaceError, .invalidPeerShare)
            }
            // The abort ends the run: the scalar is gone.
            XCTAssertThrowsError(try initiator.finish(responderShare: initiator.share)) {
                XCTAssertEqual($0 as? CPaceError, .alreadyFinished)
            }
            var responder = try CPace.Responder(
                password: Array("123456".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
            XCTAssertThrowsError(try responder.finish(initiatorShare: peerShare)) {
                XCTAssertEqual($0 as? CPaceError, .invalidPeerShare)
            }
        }
    }

    func testSharesOfTheWrongLengthAreRefused() {
        for count in [0, 31, 33, 64] {
            XCTAssertThrowsError(try CPace.Share(bytes: [UInt8](repeating: 1, count: count))) {
                XCTAssertEqual($0 as? CPaceError, .malformedShare(byteCount: count))
            }
        }
    }

    func testAPartyFinishesOnce() throws {
        var initiator = try CPace.Initiator(
            password: Array("123456".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
        let responder = try CPace.Responder(
            password: Array("123456".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
        XCTAssertEqual(initiator.description, "CPace.Initiator(awaiting the responder's share)")
        _ = try initiator.finish(responderShare: responder.share)
        XCTAssertEqual(initiator.description, "CPace.Initiator(finished)")
        XCTAssertThrowsError(try initiator.finish(responderShare: responder.share)) {
            XCTAssertEqual($0 as? CPaceError, .alreadyFinished)
        }
    }

    func testNothingSecretPrints() throws {
        let secret = SecretBytes(copying: Array("123456".utf8) + [0xde, 0xad])
        for text in ["\(secret)", String(reflecting: secret), dumped(secret)] {
            XCTAssertFalse(text.contains("123456"), text)
            XCTAssertFalse(text.lowercased().contains("dead"), text)
            XCTAssertFalse(text.contains("222"), text)
        }
        XCTAssertEqual("\(secret)", "SecretBytes(8 bytes, redacted)")

        let initiator = try CPace.Initiator(
            password: Array("424242".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
        let responder = try CPace.Responder(
            password: Array("424242".utf8), channelIdentifier: channelIdentifier, sessionID: sessionID)
        for text in ["\(initiator)", dumped(initiator), "\(responder)", dumped(responder)] {
            XCTAssertFalse(text.contains("424242"), text)
            XCTAssertFalse(text.contains("scalar"), text)
            XCTAssertFalse(text.contains("SecretBytes"), text)
        }
    }

    func testSecretBytesCompareByValue() {
        XCTAssertEqual(SecretBytes(copying: [1, 2, 3]), SecretBytes(copying: [1, 2, 3]))
        XCTAssertNotEqual(SecretBytes(copying: [1, 2, 3]), SecretBytes(copying: [1, 2, 4]))
        XCTAssertNotEqual(SecretBytes(copying: [1, 2, 3]), SecretBytes(copying: [1, 2]))
        XCTAssertEqual(SecretBytes(copying: []), SecretBytes(copying: []))
        XCTAssertEqual(array(SecretBytes(copying: [])), [])
    }

    private func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}
