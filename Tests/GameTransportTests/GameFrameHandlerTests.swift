import GameProtocol
@testable import GameTransport
import GameWire
import NIOCore
import NIOEmbedded
import XCTest

/// The frame handler reads frames where they lie in the bytes read and keeps only a frame cut across two reads, in a
/// buffer of its own: the buffer it was handed is not held (the TLS handler below reuses its buffer for the next read,
/// and copies all of it when someone else still holds it).
final class GameFrameHandlerTests: XCTestCase {
    private func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(GameFrameHandler(timeouts: .default, stats: ConnectionStats()))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 7878)).wait()
        return channel
    }

    /// Where `buffer`'s bytes are: a write into a buffer whose storage someone else holds moves them (copy on write).
    private func address(_ buffer: ByteBuffer) -> UnsafeRawPointer? {
        buffer.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) }
    }

    func testTheBufferReadIsNotHeldAndAFrameCutAcrossReadsArrivesWhole() throws {
        let channel = try channel()
        var bytes = ByteBuffer()
        bytes.writeGameMessage(.hello(version: 1, name: "Ann"))
        var move = ByteBuffer()
        move.writeGameMessage(.move(cell: 4))
        let cut = move.readableBytes - 1
        bytes.writeBytes(move.readableBytesView.prefix(cut))

        try channel.writeInbound(bytes)
        XCTAssertEqual(try channel.readInbound(as: GameMessage.self), .hello(version: 1, name: "Ann"))
        XCTAssertNil(try channel.readInbound(as: GameMessage.self), "the move is not all there yet")
        let before = address(bytes)
        bytes.setInteger(UInt8(0xEE), at: bytes.readerIndex)  // would copy if the handler still held the buffer
        XCTAssertEqual(address(bytes), before, "the handler kept the buffer it was handed")

        try channel.writeInbound(ByteBuffer(bytes: move.readableBytesView.suffix(1)))
        XCTAssertEqual(try channel.readInbound(as: GameMessage.self), .move(cell: 4))
        XCTAssertNil(try channel.readInbound(as: GameMessage.self))
        XCTAssertNoThrow(try channel.finish())
    }

    /// A handler taken out of its pipeline (its connection closed) lets go of the sink it was diverted to: a match's
    /// sink leads back to the match, which holds the handler to write through (`LoopFrameWriter`), and neither would
    /// ever be released.
    func testAHandlerRemovedFromItsPipelineLetsGoOfItsSink() throws {
        final class Match {}
        let handler = GameFrameHandler(timeouts: .default, stats: ConnectionStats())
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 7878)).wait()
        weak var released: Match?
        do {
            let match = Match()
            released = match
            _ = handler.divert { _ in _ = match }
        }
        XCTAssertNotNil(released, "the sink is held while the connection is open")
        XCTAssertNoThrow(try channel.finish())
        XCTAssertNil(released, "the sink outlived its connection")
        withExtendedLifetime(handler) {}
    }

    func testAFrameCutShortByTheEndIsAProtocolError() throws {
        let channel = try channel()
        var bytes = ByteBuffer()
        bytes.writeGameMessage(.hello(version: 1, name: "Ann"))
        bytes.moveWriterIndex(to: bytes.writerIndex - 1)
        try channel.writeInbound(bytes)
        XCTAssertNil(try channel.readInbound(as: GameMessage.self))
        // The connection ends: the application hears of the frame cut short (there is no connection left for an
        // `error` frame).
        XCTAssertThrowsError(try channel.finish()) {
            XCTAssertEqual($0 as? GameProtocolError, .truncatedFrame(bufferedBytes: bytes.readableBytes))
        }
    }
}
