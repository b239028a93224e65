import GameProtocol
@testable import GameTransport
import GameWire
import NIOCore
import NIOEmbedded
import XCTest

/// The handshake deadline of a connection that has not sent its first frame, on an `EmbeddedChannel` whose clock
/// the test advances: to the nanosecond, without sleeping.
final class HandshakeDeadlineTests: XCTestCase {
    private let timeout = GameMessage.error(code: .handshakeTimeout, text: "no handshake from the peer within 5 s")

    /// A connected channel with the game pipeline's framing and liveness (5 s handshake deadline).
    private func connectedChannel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        let operations = channel.pipeline.syncOperations
        try operations.addHandler(GameFrameHandler(timeouts: .default, stats: ConnectionStats()))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 7878)).wait()
        return channel
    }

    /// The frames the channel wrote since the last call.
    private func written(_ channel: EmbeddedChannel) throws -> [GameMessage] {
        var decoder = GameMessageDecoder()
        var messages: [GameMessage] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            while let message = try decoder.decode(buffer: &buffer) { messages.append(message) }
        }
        return messages
    }

    private func hello() -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeGameMessage(.hello(version: 1, name: "Ann"))
        return buffer
    }

    func testSilenceUntilTheDeadlineEndsTheConnection() throws {
        let channel = try connectedChannel()
        channel.embeddedEventLoop.advanceTime(by: .nanoseconds(5_000_000_000 - 1))
        XCTAssertEqual(try written(channel), [])
        XCTAssertTrue(channel.isActive, "closed before the deadline")
        channel.embeddedEventLoop.advanceTime(by: .nanoseconds(1))
        XCTAssertEqual(try written(channel), [timeout])
        XCTAssertFalse(channel.isActive)
        XCTAssertThrowsError(try channel.throwIfErrorCaught()) {
            XCTAssertEqual($0 as? LivenessError, .handshakeTimeout(.seconds(5)))
        }
    }

    func testAHelloTrickledAByteASecondDoesNotMoveTheDeadline() throws {
        let channel = try connectedChannel()
        let bytes = Array(hello().readableBytesView)
        for byte in bytes.prefix(4) {  // 4 of its 8 bytes, one a second
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        }
        XCTAssertEqual(try written(channel), [])
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertEqual(try written(channel), [timeout])
        XCTAssertFalse(channel.isActive)
        XCTAssertNil(try channel.readInbound(as: GameMessage.self))
    }

    func testPingsBeforeTheHelloAreAnsweredButDoNotCount() throws {
        let channel = try connectedChannel()
        var ping = ByteBuffer()
        ping.writeGameMessage(.ping(7))
        channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        try channel.writeInbound(ping)
        XCTAssertEqual(try written(channel), [.pong(7)])
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        XCTAssertEqual(try written(channel), [timeout])
    }

    func testAHelloBeforeTheDeadlineEndsIt() throws {
        let channel = try connectedChannel()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(4900))
        try channel.writeInbound(hello())
        XCTAssertEqual(try channel.readInbound(as: GameMessage.self), .hello(version: 1, name: "Ann"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        XCTAssertFalse(try written(channel).contains(timeout), "the deadline still ran after the hello")
        XCTAssertTrue(channel.isActive)
        _ = try channel.finish(acceptAlreadyClosed: true)
    }
}
