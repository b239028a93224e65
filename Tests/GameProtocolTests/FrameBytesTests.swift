import GameWire
import GameProtocol
import GameRules
import NIOCore
import NIOEmbedded
import XCTest

/// The exact bytes of every message: if one of these fails, the wire format changed (bump the protocol version).
final class FrameBytesTests: XCTestCase {
    func testEveryMessageKindHasAPinnedSample() {
        let covered = Set(WireSamples.all.map { $0.message.kind })
        XCTAssertEqual(covered, Set(GameMessage.Kind.allCases))
    }

    func testTypeBytes() {
        let expected: [GameMessage.Kind: UInt8] = [
            .hello: 0x01, .accept: 0x02, .reject: 0x03,
            .start: 0x10, .move: 0x11, .resign: 0x12,
            .rematchOffer: 0x20, .rematchAccept: 0x21, .rematchDecline: 0x22,
            .ping: 0x30, .pong: 0x31, .bye: 0x40, .watch: 0x50, .error: 0x7F,
        ]
        XCTAssertEqual(expected.count, GameMessage.Kind.allCases.count)
        for kind in GameMessage.Kind.allCases {
            XCTAssertEqual(kind.rawValue, expected[kind], "\(kind)")
        }
    }

    func testWriteGameMessageProducesThePinnedBytes() {
        for (message, expected) in WireSamples.all {
            var buffer = ByteBuffer()
            let written = buffer.writeGameMessage(message)
            XCTAssertEqual(buffer.bytes, expected, "\(message)")
            XCTAssertEqual(written, expected.count, "bytes reported written for \(message)")
        }
    }

    func testLengthHeaderIsTheBodyLengthBigEndian() {
        for (message, expected) in WireSamples.all {
            let length = Int(expected[0]) << 8 | Int(expected[1])
            XCTAssertEqual(length, expected.count - GameFrame.headerLength, "\(message)")
            XCTAssertEqual(expected[2], message.kind.rawValue, "\(message)")
        }
    }

    func testWriteGameMessageBodyOmitsTheLengthHeader() {
        for (message, expected) in WireSamples.all {
            var buffer = ByteBuffer()
            let written = buffer.writeGameMessageBody(message)
            XCTAssertEqual(buffer.bytes, Array(expected.dropFirst(GameFrame.headerLength)), "\(message)")
            XCTAssertEqual(written, expected.count - GameFrame.headerLength, "\(message)")
        }
    }

    func testEveryPinnedBodyReadsBackAsItsMessage() throws {
        for (message, expected) in WireSamples.all {
            var body = buffer(Array(expected.dropFirst(GameFrame.headerLength)))
            XCTAssertEqual(try body.readGameMessageBody(), message)
            XCTAssertEqual(body.readableBytes, 0, "\(message) left bytes behind")
        }
    }

    func testRoundTripThroughWriteAndRead() throws {
        for (message, _) in WireSamples.all {
            var buffer = ByteBuffer()
            buffer.writeGameMessage(message)
            let length = buffer.readInteger(as: UInt16.self)
            XCTAssertEqual(length.map(Int.init), buffer.readableBytes)
            XCTAssertEqual(try buffer.readGameMessageBody(), message)
        }
    }

    func testNonASCIINamesSurviveTheRoundTrip() throws {
        let names = ["Zoë", "Léa 🎲", "Ølaf", "山田", "👩🏽‍💻", "e\u{301}"]
        for name in names {
            var buffer = ByteBuffer()
            buffer.writeGameMessageBody(.hello(version: 1, name: name))
            XCTAssertEqual(buffer.getInteger(at: 2, as: UInt8.self).map(Int.init), name.utf8.count)
            XCTAssertEqual(try buffer.readGameMessageBody(), .hello(version: 1, name: name))
        }
    }

    func testEncoderHandlerWritesOneFramePerMessage() throws {
        let channel = EmbeddedChannel(handler: MessageToByteHandler(GameMessageEncoder()))
        defer { _ = try? channel.finish() }
        for (message, expected) in WireSamples.all {
            try channel.writeOutbound(message)
            let written = try channel.readOutbound(as: ByteBuffer.self)
            XCTAssertEqual(written?.bytes, expected, "\(message)")
        }
        XCTAssertNil(try channel.readOutbound(as: ByteBuffer.self))
    }

    func testConstants() {
        XCTAssertEqual(GameFrame.headerLength, 2)
        XCTAssertEqual(GameFrame.defaultMaximumLength, 512)
        XCTAssertEqual(GameFrame.maximumStringLength, 255)
        XCTAssertEqual(GameMessage.plaintextProtocolVersion, 1)
        XCTAssertEqual(GameMessage.encryptedProtocolVersion, 2)
    }

    func testOnlyHellosOfVersion2AndLaterHaveTheRoleByte() {
        XCTAssertEqual((0...255).filter { GameMessage.helloHasRole(version: UInt8($0)) }.first, 2)
        XCTAssertFalse(GameMessage.helloHasRole(version: 0))
        XCTAssertFalse(GameMessage.helloHasRole(version: 1))
        XCTAssertTrue(GameMessage.helloHasRole(version: 2))
        XCTAssertTrue(GameMessage.helloHasRole(version: 255))
    }

    func testAV1HelloIsAPlayersAndItsBytesAreUnchangedByVersion2() throws {
        // Version 1 has no role on the wire: whatever role the message holds, the frame is the v1 frame, and it reads
        // back as a player's hello.
        let v1Frame: [UInt8] = [0x00, 0x06, 0x01, 0x01, 0x03, 0x41, 0x6E, 0x6E]
        for role in [PeerRole.player, .spectator, PeerRole(rawValue: 9)] {
            XCTAssertEqual(frame(.hello(version: 1, name: "Ann", role: role)), v1Frame, "\(role)")
        }
        var body = buffer(Array(v1Frame.dropFirst(GameFrame.headerLength)))
        XCTAssertEqual(try body.readGameMessageBody(), .hello(version: 1, name: "Ann", role: .player))
    }

    func testTheLargestHelloIsAV2HelloAndFitsLikeTheLargestError() {
        let longest = String(repeating: "x", count: 1000)
        let hello = frame(.hello(version: 2, name: longest, role: .spectator))
        XCTAssertEqual(hello.count - GameFrame.headerLength, 1 + 1 + 1 + 255 + 1)
        XCTAssertEqual(hello.last, 0x01)
        XCTAssertEqual(hello.count, frame(.error(code: .malformedFrame, text: longest)).count)
    }

    func testTheLargestMessageFitsTheDefaultMaximum() {
        let longest = String(repeating: "x", count: 1000)
        for message in [
            GameMessage.hello(version: 1, name: longest), .hello(version: 2, name: longest, role: .spectator),
            .accept(version: 1, name: longest),
            .reject(reason: .busy, text: longest), .error(code: .malformedFrame, text: longest),
        ] {
            let bytes = frame(message)
            XCTAssertLessThanOrEqual(bytes.count - GameFrame.headerLength, GameFrame.defaultMaximumLength)
        }
    }
}
