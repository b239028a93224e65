import GameWire
import GameProtocol
import NIOCore
import NIOEmbedded
import XCTest

/// Bodies whose type byte is known but whose payload is not that message's: `malformedPayload` with the reason.
final class MalformedPayloadTests: XCTestCase {
    private func assertBodyThrows(
        _ body: [UInt8],
        _ expected: GameProtocolError,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        var input = buffer(body)
        XCTAssertThrowsError(try input.readGameMessageBody(), file: file, line: line) { error in
            XCTAssertEqual(error as? GameProtocolError, expected, file: file, line: line)
        }
        // The same body inside a frame fails the same way in the decoder.
        var decoder = GameMessageDecoder()
        var framed = ByteBuffer()
        framed.writeInteger(UInt16(body.count))
        framed.writeBytes(body)
        XCTAssertThrowsError(try decoder.decode(buffer: &framed), file: file, line: line) { error in
            XCTAssertEqual(error as? GameProtocolError, expected, file: file, line: line)
        }
    }

    private func malformed(_ type: UInt8, _ why: String) -> GameProtocolError {
        .malformedPayload(type: type, why: why)
    }

    func testEmptyBody() {
        var input = ByteBuffer()
        XCTAssertThrowsError(try input.readGameMessageBody()) { error in
            XCTAssertEqual(error as? GameProtocolError, .emptyFrame)
        }
    }

    // MARK: Missing fields

    func testHelloMissingFields() {
        assertBodyThrows([0x01], malformed(0x01, "missing version"))
        assertBodyThrows([0x01, 0x01], malformed(0x01, "name is cut short"))
        assertBodyThrows([0x01, 0x01, 0x05, 0x41, 0x42, 0x43], malformed(0x01, "name is cut short"))
    }

    func testAV2HelloWithoutItsRoleByteIsMalformed() {
        // Version 2's hello ends with the role: a v2 hello in version 1's shape is cut short.
        assertBodyThrows([0x01, 0x02, 0x03, 0x41, 0x6E, 0x6E], malformed(0x01, "missing role"))
        assertBodyThrows([0x01, 0x02, 0x00], malformed(0x01, "missing role"))
        assertBodyThrows([0x01, 0x07, 0x00], malformed(0x01, "missing role"))
        assertBodyThrows([0x01, 0x02, 0x02, 0x41], malformed(0x01, "name is cut short"))
    }

    func testAV1HelloWithARoleByteIsMalformed() {
        // Version 1's hello ends with the name: a role byte after it is a trailing byte, never an optional field, so
        // every hello body parses one way only.
        assertBodyThrows([0x01, 0x01, 0x03, 0x41, 0x6E, 0x6E, 0x00], malformed(0x01, "1 unexpected trailing bytes"))
        assertBodyThrows([0x01, 0x01, 0x03, 0x41, 0x6E, 0x6E, 0x01], malformed(0x01, "1 unexpected trailing bytes"))
        assertBodyThrows([0x01, 0x00, 0x00, 0x00], malformed(0x01, "1 unexpected trailing bytes"))
        // Time limits are exactly 8 bytes: 7 are trailing bytes, and so is a ninth.
        assertBodyThrows(
            [0x01, 0x01, 0x03, 0x41, 0x6E, 0x6E, 0, 0, 0, 1, 0, 0, 0], malformed(0x01, "7 unexpected trailing bytes"))
        assertBodyThrows(
            [0x02, 0x02, 0x03, 0x42, 0x6F, 0x62, 0, 0, 0, 1, 0, 0, 0, 2, 9],
            malformed(0x02, "1 unexpected trailing bytes"))
        // And a v2 hello has exactly one role byte.
        assertBodyThrows(
            [0x01, 0x02, 0x03, 0x41, 0x6E, 0x6E, 0x00, 0x00], malformed(0x01, "1 unexpected trailing bytes"))
    }

    func testAcceptAndRejectMissingFields() {
        assertBodyThrows([0x02], malformed(0x02, "missing version"))
        assertBodyThrows([0x02, 0x01, 0x01], malformed(0x02, "name is cut short"))
        assertBodyThrows([0x03], malformed(0x03, "missing reason"))
        assertBodyThrows([0x03, 0x01], malformed(0x03, "text is cut short"))
    }

    func testStartMissingFields() {
        assertBodyThrows([0x10], malformed(0x10, "missing game number"))
        assertBodyThrows([0x10, 0x00], malformed(0x10, "missing game number"))
        assertBodyThrows([0x10, 0x00, 0x01], malformed(0x10, "missing joiner mark"))
        assertBodyThrows([0x10, 0x00, 0x01, 0x01], malformed(0x10, "missing first mover"))
    }

    func testMoveMissingCell() {
        assertBodyThrows([0x11], malformed(0x11, "missing cell"))
    }

    func testPingPongMissingOrShortValue() {
        assertBodyThrows([0x30], malformed(0x30, "missing value"))
        assertBodyThrows([0x30, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07], malformed(0x30, "missing value"))
        assertBodyThrows([0x31, 0x00, 0x00, 0x00, 0x01], malformed(0x31, "missing value"))
    }

    func testByeAndErrorMissingFields() {
        assertBodyThrows([0x40], malformed(0x40, "missing reason"))
        assertBodyThrows([0x7F], malformed(0x7F, "missing code"))
        assertBodyThrows([0x7F, 0x00], malformed(0x7F, "missing code"))
        assertBodyThrows([0x7F, 0x00, 0x01], malformed(0x7F, "text is cut short"))
        assertBodyThrows([0x7F, 0x00, 0x01, 0x02, 0x41], malformed(0x7F, "text is cut short"))
    }

    // MARK: Trailing bytes

    func testTrailingBytesAreRejected() {
        assertBodyThrows([0x11, 0x04, 0x00], malformed(0x11, "1 unexpected trailing bytes"))
        assertBodyThrows([0x12, 0x00], malformed(0x12, "1 unexpected trailing bytes"))
        assertBodyThrows([0x20, 0xAA, 0xBB], malformed(0x20, "2 unexpected trailing bytes"))
        assertBodyThrows([0x21, 0x00], malformed(0x21, "1 unexpected trailing bytes"))
        assertBodyThrows([0x22, 0x00], malformed(0x22, "1 unexpected trailing bytes"))
        assertBodyThrows([0x40, 0x00, 0x00], malformed(0x40, "1 unexpected trailing bytes"))
        assertBodyThrows(
            [0x01, 0x01, 0x01, 0x41, 0x42, 0x43, 0x44],
            malformed(0x01, "3 unexpected trailing bytes")
        )
        assertBodyThrows(
            [0x10, 0x00, 0x01, 0x01, 0x01, 0x01],
            malformed(0x10, "1 unexpected trailing bytes")
        )
        assertBodyThrows(
            [0x30, 0, 0, 0, 0, 0, 0, 0, 1, 0xFF],
            malformed(0x30, "1 unexpected trailing bytes")
        )
    }

    // MARK: Invalid values

    func testInvalidUTF8InANameIsRejected() {
        // C3 28: a lead byte followed by a non-continuation byte.
        assertBodyThrows([0x01, 0x01, 0x02, 0xC3, 0x28], malformed(0x01, "name is not valid UTF-8"))
        // A lone continuation byte.
        assertBodyThrows([0x02, 0x01, 0x01, 0x80], malformed(0x02, "name is not valid UTF-8"))
        // An overlong encoding of "/".
        assertBodyThrows([0x01, 0x01, 0x02, 0xC0, 0xAF], malformed(0x01, "name is not valid UTF-8"))
        // A UTF-16 surrogate (U+D800) encoded as UTF-8.
        assertBodyThrows([0x03, 0x01, 0x03, 0xED, 0xA0, 0x80], malformed(0x03, "text is not valid UTF-8"))
        // A 4-byte character cut in half by the string length.
        assertBodyThrows([0x7F, 0x00, 0x01, 0x02, 0xF0, 0x9F], malformed(0x7F, "text is not valid UTF-8"))
    }

    func testInvalidMarkBytesInStartAreRejected() {
        assertBodyThrows(
            [0x10, 0x00, 0x01, 0x03, 0x01],
            malformed(0x10, "joiner mark 3 is neither X (1) nor O (2)")
        )
        assertBodyThrows(
            [0x10, 0x00, 0x01, 0x00, 0x01],
            malformed(0x10, "joiner mark 0 is neither X (1) nor O (2)")
        )
        assertBodyThrows(
            [0x10, 0x00, 0x01, 0x01, 0x00],
            malformed(0x10, "first mover 0 is neither X (1) nor O (2)")
        )
        assertBodyThrows(
            [0x10, 0x00, 0x01, 0x02, 0xFF],
            malformed(0x10, "first mover 255 is neither X (1) nor O (2)")
        )
    }

    func testUnknownReasonAndErrorCodesAreKept() throws {
        var reject = buffer([0x03, 0x09, 0x00])
        XCTAssertEqual(try reject.readGameMessageBody(), .reject(reason: RejectReason(rawValue: 9), text: ""))
        var bye = buffer([0x40, 0x07])
        XCTAssertEqual(try bye.readGameMessageBody(), .bye(ByeReason(rawValue: 7)))
        var error = buffer([0x7F, 0x03, 0xE7, 0x00])
        XCTAssertEqual(try error.readGameMessageBody(), .error(code: ProtocolErrorCode(rawValue: 999), text: ""))
        XCTAssertEqual("\(RejectReason(rawValue: 9))", "reason-9")
        XCTAssertEqual("\(ByeReason(rawValue: 7))", "reason-7")
        XCTAssertEqual("\(ProtocolErrorCode(rawValue: 999))", "error-999")
    }

    func testMalformedPayloadInAChannelIsReportedAsAnError() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(GameMessageDecoder()))
        let input = buffer([0x00, 0x02, 0x11, 0x04] + [0x00, 0x02, 0x12, 0x00])
        XCTAssertThrowsError(try channel.writeInbound(input)) { error in
            XCTAssertEqual(
                error as? GameProtocolError, .malformedPayload(type: 0x12, why: "1 unexpected trailing bytes")
            )
        }
        // The good frame in front of the bad one still went through.
        XCTAssertEqual(try channel.readInbound(as: GameMessage.self), .move(cell: 4))
        _ = try? channel.finish()
    }
}
