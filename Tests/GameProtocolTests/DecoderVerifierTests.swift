import GameWire
import GameProtocol
import GameRules
import NIOCore
import NIOEmbedded
import NIOTestUtils
import XCTest

/// `GameMessageDecoder` fed byte by byte, frame by frame and all at once (NIOTestUtils' verifier).
final class DecoderVerifierTests: XCTestCase {
    func testVerifierWithEveryMessageKind() throws {
        let pairs = WireSamples.all.map { (buffer($0.frame), [$0.message]) }
        XCTAssertNoThrow(
            try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: pairs) { GameMessageDecoder() }
        )
    }

    func testVerifierWithSeveralFramesPerInput() throws {
        let match: [GameMessage] = [
            .start(game: 1, joinerMark: .x, firstMover: .x), .move(cell: 4), .ping(7), .move(cell: 0),
        ]
        let ending: [GameMessage] = [.resign, .rematchOffer, .rematchDecline, .bye(.seriesOver)]
        var first = ByteBuffer()
        match.forEach { first.writeGameMessage($0) }
        var second = ByteBuffer()
        ending.forEach { second.writeGameMessage($0) }
        XCTAssertNoThrow(
            try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: [(first, match), (second, ending)]) {
                GameMessageDecoder()
            }
        )
    }

    func testVerifierWithTheLongestStrings() throws {
        let name = String(repeating: "ß", count: 127) + "x"  // 255 bytes
        let pairs: [(ByteBuffer, [GameMessage])] = [
            (buffer(frame(.hello(version: 1, name: name))), [.hello(version: 1, name: name)]),
            (
                buffer(frame(.hello(version: 2, name: name, role: .spectator))),
                [.hello(version: 2, name: name, role: .spectator)]
            ),
            (buffer(frame(.error(code: .gameOver, text: name))), [.error(code: .gameOver, text: name)]),
        ]
        XCTAssertNoThrow(
            try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: pairs) { GameMessageDecoder() }
        )
    }

    func testVerifierWithV1AndV2HellosAndTheirAccepts() throws {
        // Every way of splitting: the v2 hello's last byte (its role) must not be taken for the end of a v1 hello.
        let hellos: [GameMessage] = [
            .hello(version: 2, name: "Ann", role: .player), .accept(version: 2, name: "Bob"),
            .hello(version: 2, name: "Zoë", role: .spectator), .hello(version: 1, name: "Ann"),
            .accept(version: 1, name: "Bob"), .hello(version: 2, name: "", role: PeerRole(rawValue: 0xFF)),
        ]
        var all = ByteBuffer()
        hellos.forEach { all.writeGameMessage($0) }
        let pairs: [(ByteBuffer, [GameMessage])] = hellos.map { (buffer(frame($0)), [$0]) } + [(all, hellos)]
        XCTAssertNoThrow(
            try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: pairs) { GameMessageDecoder() }
        )
    }

    func testPartialV2HelloWaitsForItsRoleByte() throws {
        var decoder = GameMessageDecoder()
        let bytes: [UInt8] = [0x00, 0x07, 0x01, 0x02, 0x03, 0x41, 0x6E, 0x6E, 0x01]
        var input = buffer(Array(bytes.dropLast()))
        XCTAssertNil(try decoder.decode(buffer: &input))
        input.writeInteger(bytes.last!)
        XCTAssertEqual(try decoder.decode(buffer: &input), .hello(version: 2, name: "Ann", role: .spectator))
        XCTAssertEqual(input.readableBytes, 0)
    }

    func testPartialFrameWaitsForMoreBytes() throws {
        var decoder = GameMessageDecoder()
        let bytes = frame(.accept(version: 1, name: "Bob"))
        var input = ByteBuffer()
        for byte in bytes.dropLast() {
            input.writeInteger(byte)
            XCTAssertNil(try decoder.decode(buffer: &input))
        }
        input.writeInteger(bytes.last!)
        XCTAssertEqual(try decoder.decode(buffer: &input), .accept(version: 1, name: "Bob"))
        XCTAssertEqual(input.readableBytes, 0)
    }

    func testDecodeLeavesTheNextFrameInTheBuffer() throws {
        var decoder = GameMessageDecoder()
        var input = buffer(frame(.move(cell: 3)) + frame(.resign) + [0x00])
        XCTAssertEqual(try decoder.decode(buffer: &input), .move(cell: 3))
        XCTAssertEqual(try decoder.decode(buffer: &input), .resign)
        XCTAssertNil(try decoder.decode(buffer: &input))
        XCTAssertEqual(input.bytes, [0x00])
    }

    func testDecodeLastDeliversCompleteFramesAndIgnoresAnEmptyBuffer() throws {
        var decoder = GameMessageDecoder()
        var input = buffer(frame(.bye(.quit)))
        XCTAssertEqual(try decoder.decodeLast(buffer: &input, seenEOF: true), .bye(.quit))
        XCTAssertNil(try decoder.decodeLast(buffer: &input, seenEOF: true))
    }

    func testDecodeLastWithoutEOFKeepsAPartialFrame() throws {
        var decoder = GameMessageDecoder()
        var input = buffer([0x00, 0x06, 0x01])
        XCTAssertNil(try decoder.decodeLast(buffer: &input, seenEOF: false))
        XCTAssertEqual(input.readableBytes, 3)
    }

    func testByteToMessageHandlerPassesMessagesOn() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(GameMessageDecoder()))
        var input = ByteBuffer()
        WireSamples.all.forEach { input.writeGameMessage($0.message) }
        try channel.writeInbound(input)
        for (message, _) in WireSamples.all {
            XCTAssertEqual(try channel.readInbound(as: GameMessage.self), message)
        }
        XCTAssertNil(try channel.readInbound(as: GameMessage.self))
        XCTAssertTrue(try channel.finish().isClean)
    }
}
