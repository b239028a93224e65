import GameWire
import GameProtocol
import NIOCore
import XCTest

/// Strings are a UInt8 length then UTF-8; the encoder cuts longer ones at a character boundary.
final class StringEncodingTests: XCTestCase {
    private func wireName(_ name: String) throws -> String {
        var buffer = ByteBuffer()
        buffer.writeGameMessage(.hello(version: 1, name: name))
        XCTAssertEqual(buffer.readInteger(as: UInt16.self).map(Int.init), buffer.readableBytes)
        guard case .hello(_, let decoded, _, _) = try buffer.readGameMessageBody() else {
            XCTFail("not a hello")
            return ""
        }
        return decoded
    }

    func testStringOfExactly255BytesIsKept() throws {
        let name = String(repeating: "a", count: 255)
        XCTAssertEqual(try wireName(name), name)
        XCTAssertEqual(frame(.hello(version: 1, name: name)).count, 2 + 1 + 1 + 1 + 255)
    }

    func testASCIIStringIsCutTo255Bytes() throws {
        let name = String(repeating: "b", count: 300)
        XCTAssertEqual(try wireName(name), String(repeating: "b", count: 255))
    }

    func testTwoByteCharacterCrossingTheLimitIsDroppedWhole() throws {
        // 254 + 2 = 256 bytes: the é would straddle byte 255.
        let name = String(repeating: "a", count: 254) + "é"
        let decoded = try wireName(name)
        XCTAssertEqual(decoded, String(repeating: "a", count: 254))
        XCTAssertEqual(decoded.utf8.count, 254)
    }

    func testFourByteEmojiCrossingTheLimitIsDroppedWhole() throws {
        let name = String(repeating: "a", count: 253) + "🎲" + "z"
        XCTAssertEqual(try wireName(name), String(repeating: "a", count: 253))
    }

    func testGraphemeClusterIsNotSplitIntoItsScalars() throws {
        // "e" + U+0301 COMBINING ACUTE ACCENT is one Character of 3 bytes; keeping only the "e" would change the text.
        let name = String(repeating: "a", count: 253) + "e\u{301}"
        XCTAssertEqual(name.utf8.count, 256)
        XCTAssertEqual(try wireName(name), String(repeating: "a", count: 253))
    }

    func testMultiByteStringFillingTheLimitExactly() throws {
        // 85 × "€" (3 bytes each) = 255 bytes.
        let name = String(repeating: "€", count: 85)
        XCTAssertEqual(try wireName(name), name)
        XCTAssertEqual(try wireName(name + "€"), name)
    }

    func testTruncationAppliesToEveryStringField() throws {
        let long = String(repeating: "ü", count: 200)  // 400 bytes
        let cut = String(repeating: "ü", count: 127)  // 254 bytes: a 128th would make 256
        let messages: [(GameMessage, GameMessage)] = [
            (.accept(version: 1, name: long), .accept(version: 1, name: cut)),
            (.reject(reason: .busy, text: long), .reject(reason: .busy, text: cut)),
            (.error(code: .malformedFrame, text: long), .error(code: .malformedFrame, text: cut)),
        ]
        for (sent, expected) in messages {
            var buffer = ByteBuffer()
            buffer.writeGameMessageBody(sent)
            XCTAssertEqual(try buffer.readGameMessageBody(), expected)
        }
    }

    func testGameWireTruncated() {
        XCTAssertEqual("".gameWireTruncated(), "")
        XCTAssertEqual("abc".gameWireTruncated(maxBytes: 3), "abc")
        XCTAssertEqual("abcd".gameWireTruncated(maxBytes: 3), "abc")
        XCTAssertEqual("aé".gameWireTruncated(maxBytes: 2), "a")
        XCTAssertEqual("🎲🎲".gameWireTruncated(maxBytes: 7), "🎲")
        XCTAssertEqual("🎲".gameWireTruncated(maxBytes: 3), "")
        XCTAssertEqual("Zoë".gameWireTruncated(maxBytes: 0), "")
    }
}
