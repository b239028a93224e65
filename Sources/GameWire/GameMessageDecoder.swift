import GameProtocol
import NIOCore

/// Splits inbound bytes into frames and parses each into a `GameMessage`.
///
/// The length header is checked before any of the body is buffered: a header above `maximumFrameLength` (or zero)
/// fails at once, so a peer cannot make us hold megabytes. Any violation throws a `GameProtocolError`; the
/// pipeline then answers with an `error` frame and closes (see `GameFrameHandler` in GameTransport).
public struct GameMessageDecoder: NIOSingleStepByteToMessageDecoder {
    public typealias InboundOut = GameMessage

    /// The largest accepted frame body (type byte + payload), in bytes.
    public let maximumFrameLength: Int

    public init(maximumFrameLength: Int = GameFrame.defaultMaximumLength) {
        precondition(maximumFrameLength >= 1 && maximumFrameLength <= Int(UInt16.max))
        self.maximumFrameLength = maximumFrameLength
    }

    public mutating func decode(buffer: inout ByteBuffer) throws -> GameMessage? {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt16.self) else { return nil }
        guard length > 0 else { throw GameProtocolError.emptyFrame }
        guard Int(length) <= self.maximumFrameLength else {
            throw GameProtocolError.frameTooLong(length: Int(length), maximum: self.maximumFrameLength)
        }
        guard var body = buffer.readLengthPrefixedSlice(as: UInt16.self) else { return nil }
        return try body.readGameMessageBody()
    }

    public mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> GameMessage? {
        if let message = try self.decode(buffer: &buffer) { return message }
        if seenEOF && buffer.readableBytes > 0 {
            let bytes = buffer.readableBytes
            buffer.moveReaderIndex(forwardBy: bytes)
            throw GameProtocolError.truncatedFrame(bufferedBytes: bytes)
        }
        return nil
    }
}

/// Writes each outbound `GameMessage` as one frame.
public struct GameMessageEncoder: MessageToByteEncoder, Sendable {
    public typealias OutboundIn = GameMessage

    public init() {}

    public func encode(data: GameMessage, out: inout ByteBuffer) throws {
        out.writeGameMessage(data)
    }
}
