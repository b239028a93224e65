import GameWire
import GameProtocol
import NIOCore
import NIOEmbedded
import XCTest

/// Frames the decoder refuses, each with the exact `GameProtocolError` (and so the `error` frame code).
final class DecoderRejectionTests: XCTestCase {
    private func assertDecodeThrows(
        _ bytes: [UInt8],
        _ expected: GameProtocolError,
        decoder: GameMessageDecoder = GameMessageDecoder(),
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        var decoder = decoder
        var input = buffer(bytes)
        XCTAssertThrowsError(try decoder.decode(buffer: &input), file: file, line: line) { error in
            XCTAssertEqual(error as? GameProtocolError, expected, file: file, line: line)
        }
    }

    // MARK: Length header

    func testHTTPRequestIsRejectedAtItsFirstTwoBytes() {
        // "GE" of "GET / HTTP/1.1" reads as a length of 0x4745 = 18245.
        assertDecodeThrows([0x47, 0x45], .frameTooLong(length: 0x4745, maximum: 512))
        assertDecodeThrows(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), .frameTooLong(length: 18245, maximum: 512))
    }

    func testOversizeHeaderFailsBeforeAnyBodyIsBuffered() {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(GameMessageDecoder()))
        // One byte is not a header yet: nothing happens.
        XCTAssertNoThrow(try channel.writeInbound(buffer([0xFF])))
        XCTAssertNil(try channel.readInbound(as: GameMessage.self))
        // The second byte completes the header: the frame is refused at once, without waiting for 65535 bytes.
        XCTAssertThrowsError(try channel.writeInbound(buffer([0xFF]))) { error in
            XCTAssertEqual(error as? GameProtocolError, .frameTooLong(length: 65535, maximum: 512))
        }
        XCTAssertNil(try channel.readInbound(as: GameMessage.self))
        _ = try? channel.finish()
    }

    func testLengthAtTheMaximumIsBufferedAndOneAboveIsNot() throws {
        var decoder = GameMessageDecoder()
        var atMaximum = buffer([0x02, 0x00, 0x01])  // 512: wait for the body
        XCTAssertNil(try decoder.decode(buffer: &atMaximum))
        XCTAssertEqual(atMaximum.readableBytes, 3)
        assertDecodeThrows([0x02, 0x01], .frameTooLong(length: 513, maximum: 512))
    }

    func testCustomMaximumFrameLength() throws {
        let decoder = GameMessageDecoder(maximumFrameLength: 2)
        XCTAssertEqual(decoder.maximumFrameLength, 2)
        var copy = decoder
        var move = buffer(frame(.move(cell: 1)))
        XCTAssertEqual(try copy.decode(buffer: &move), .move(cell: 1))
        assertDecodeThrows(frame(.ping(1)), .frameTooLong(length: 9, maximum: 2), decoder: decoder)
        assertDecodeThrows(frame(.hello(version: 1, name: "A")), .frameTooLong(length: 4, maximum: 2), decoder: decoder)
        XCTAssertEqual(GameMessageDecoder().maximumFrameLength, GameFrame.defaultMaximumLength)
    }

    func testZeroLengthFrameIsRejected() {
        assertDecodeThrows([0x00, 0x00], .emptyFrame)
        assertDecodeThrows([0x00, 0x00, 0x12], .emptyFrame)
    }

    // MARK: Type byte

    func testUnknownTypeBytesAreRejected() {
        for type: UInt8 in [0x00, 0x04, 0x13, 0x23, 0x32, 0x41, 0x7E, 0x80, 0xFF] {
            assertDecodeThrows([0x00, 0x01, type], .unknownMessageType(type))
        }
        assertDecodeThrows([0x00, 0x03, 0x05, 0x01, 0x02], .unknownMessageType(0x05))
    }

    // MARK: Truncation at EOF

    func testTruncatedFrameAtEOFViaDecodeLast() {
        var decoder = GameMessageDecoder()
        var input = buffer([0x00, 0x06, 0x01, 0x01])
        XCTAssertThrowsError(try decoder.decodeLast(buffer: &input, seenEOF: true)) { error in
            XCTAssertEqual(error as? GameProtocolError, .truncatedFrame(bufferedBytes: 4))
        }
        XCTAssertEqual(input.readableBytes, 0, "the truncated bytes are consumed")
    }

    func testHalfAHeaderAtEOFIsTruncated() {
        var decoder = GameMessageDecoder()
        var input = buffer([0x00])
        XCTAssertThrowsError(try decoder.decodeLast(buffer: &input, seenEOF: true)) { error in
            XCTAssertEqual(error as? GameProtocolError, .truncatedFrame(bufferedBytes: 1))
        }
    }

    func testTruncatedFrameWhenTheChannelCloses() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(GameMessageDecoder()))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        var input = ByteBuffer()
        input.writeGameMessage(.move(cell: 4))
        input.writeBytes([0x00, 0x09, 0x30, 0x01, 0x02])  // a ping cut after 2 of its 8 value bytes
        try channel.writeInbound(input)
        XCTAssertEqual(try channel.readInbound(as: GameMessage.self), .move(cell: 4))
        XCTAssertThrowsError(try channel.finish()) { error in
            XCTAssertEqual(error as? GameProtocolError, .truncatedFrame(bufferedBytes: 5))
        }
    }

    func testCleanCloseBetweenFramesIsNotAnError() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(GameMessageDecoder()))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(buffer(frame(.bye(.seriesOver))))
        XCTAssertEqual(try channel.readInbound(as: GameMessage.self), .bye(.seriesOver))
        XCTAssertTrue(try channel.finish().isClean)
    }

    // MARK: Error codes

    func testEachRejectionMapsToItsErrorCode() {
        XCTAssertEqual(GameProtocolError.frameTooLong(length: 600, maximum: 512).errorCode, .badFrameLength)
        XCTAssertEqual(GameProtocolError.emptyFrame.errorCode, .badFrameLength)
        XCTAssertEqual(GameProtocolError.unknownMessageType(9).errorCode, .unknownMessage)
        XCTAssertEqual(GameProtocolError.malformedPayload(type: 1, why: "x").errorCode, .malformedFrame)
        XCTAssertEqual(GameProtocolError.truncatedFrame(bufferedBytes: 3).errorCode, .malformedFrame)
    }

    func testRejectionDescriptions() {
        XCTAssertEqual(
            "\(GameProtocolError.frameTooLong(length: 18245, maximum: 512))",
            "frame of 18245 bytes exceeds the maximum of 512"
        )
        XCTAssertEqual("\(GameProtocolError.emptyFrame)", "empty frame (length 0)")
        XCTAssertEqual("\(GameProtocolError.unknownMessageType(0xAB))", "unknown message type 0xab")
        XCTAssertEqual(
            "\(GameProtocolError.malformedPayload(type: 0x10, why: "missing game number"))",
            "malformed message of type 0x10: missing game number"
        )
        XCTAssertEqual(
            "\(GameProtocolError.truncatedFrame(bufferedBytes: 5))",
            "connection closed in the middle of a frame (5 bytes buffered)"
        )
    }
}
