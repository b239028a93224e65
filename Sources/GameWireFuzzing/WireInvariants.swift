import GameProtocol
import GameRules
import GameWire
import NIOCore

/// What the frame decoder and the message parser must do with any bytes at all, checked input by input: by the
/// libFuzzer target (Fuzz/, `make fuzz`) and by the bounded pass `make test` runs (GameProtocolTests). Not part of the
/// app.
///
/// As a stream (frames back to back, as a peer sends them), fed whole, byte by byte and in chunks of random sizes:
/// - every message decoded re-encodes to exactly the bytes of its frame, and that frame decodes to the same message;
/// - the decoder only waits for a frame it will accept: when it asks for more bytes, what it holds is less than one
///   frame of the maximum size (header included), and a header it has read announces 1...maximum bytes;
/// - a header announcing 0 or more than the maximum is refused as soon as its two bytes are there, before any body;
/// - asking for more moves nothing; the only errors are `GameProtocolError`s; bytes left at the end of the stream are
///   reported as a truncated frame of exactly that many bytes;
/// - all three ways of feeding give the same messages and the same verdict.
///
/// As one frame body (type byte and payload): it parses to a message whose body is exactly those bytes, or fails with a
/// `GameProtocolError`.
///
/// "Exactly those bytes" holds for hellos of both versions because the version byte alone decides the hello's shape:
/// versions 0 and 1 end with the name, 2 and later with one role byte after it. A v1 hello followed by a byte is
/// trailing bytes (an error), never a v1 hello with a role, so no two bodies parse to the same message. (The other
/// way round is not checked and does not hold: a v1 hello holding a role other than `player` is written without it
/// and reads back as a player's.)
public enum WireInvariants {
    /// A broken invariant: which, and on what.
    public struct Violation: Error, CustomStringConvertible {
        public let description: String
    }

    /// What a stream gave.
    public struct StreamOutcome: Sendable, Hashable {
        /// The messages decoded, in order.
        public var messages: [GameMessage]
        /// Why decoding stopped (the pipeline answers with an `error` frame and closes), if it did; a truncated frame
        /// at the end of the stream counts.
        public var error: GameProtocolError?

        public init(messages: [GameMessage] = [], error: GameProtocolError? = nil) {
            self.messages = messages
            self.error = error
        }
    }

    /// Checks `bytes` as a stream and as a frame body; returns what the stream gave.
    @discardableResult
    public static func check(
        _ bytes: [UInt8], maximumFrameLength: Int = GameFrame.defaultMaximumLength
    ) throws(Violation) -> StreamOutcome {
        try checkBody(bytes)
        let whole = try checkStream(bytes, chunks: [bytes.count], maximumFrameLength: maximumFrameLength)
        let byteByByte = try checkStream(
            bytes, chunks: Array(repeating: 1, count: bytes.count), maximumFrameLength: maximumFrameLength)
        let randomly = try checkStream(bytes, chunks: randomChunks(of: bytes), maximumFrameLength: maximumFrameLength)
        guard whole == byteByByte, whole == randomly else {
            throw Violation(
                description: "the way the bytes arrive changes the result: whole \(whole), byte by byte \(byteByByte), "
                    + "in random chunks \(randomly), for \(hex(bytes))")
        }
        return whole
    }

    /// Parses `bytes` as one frame body: a message whose body is exactly `bytes`, or a `GameProtocolError`.
    public static func checkBody(_ bytes: [UInt8]) throws(Violation) {
        var buffer = ByteBuffer(bytes: bytes)
        let message: GameMessage
        do {
            message = try buffer.readGameMessageBody()
        } catch is GameProtocolError {
            return
        } catch {
            throw Violation(description: "parsing a body threw \(error), not a GameProtocolError, for \(hex(bytes))")
        }
        var written = ByteBuffer()
        written.writeGameMessageBody(message)
        guard Array(written.readableBytesView) == bytes else {
            throw Violation(
                description: "body \(hex(bytes)) parses to \(message), which is written back as "
                    + hex(Array(written.readableBytesView)))
        }
    }

    /// Feeds `bytes` to a decoder in chunks of the given sizes (their sum is `bytes.count`), checking each step.
    public static func checkStream(
        _ bytes: [UInt8], chunks: [Int], maximumFrameLength: Int = GameFrame.defaultMaximumLength
    ) throws(Violation) -> StreamOutcome {
        var decoder = GameMessageDecoder(maximumFrameLength: maximumFrameLength)
        var buffer = ByteBuffer()
        var outcome = StreamOutcome()
        var offset = 0
        let byteByByte = chunks.allSatisfy { $0 == 1 }
        for size in chunks {
            buffer.writeBytes(bytes[offset..<offset + size])
            offset += size
            while true {
                let frameStart = buffer.readerIndex
                let held = Array(buffer.readableBytesView)
                let result: Result<GameMessage?, GameProtocolError>
                do {
                    result = .success(try decoder.decode(buffer: &buffer))
                } catch let error as GameProtocolError {
                    result = .failure(error)
                } catch {
                    throw Violation(
                        description: "the decoder threw \(error), not a GameProtocolError, for \(hex(bytes))")
                }
                switch result {
                case .success(let message?):
                    let consumed = buffer.readerIndex - frameStart
                    try checkDecoded(
                        message, frame: Array(held.prefix(consumed)), maximumFrameLength: maximumFrameLength)
                    outcome.messages.append(message)
                case .success(nil):
                    guard buffer.readerIndex == frameStart, buffer.readableBytes == held.count else {
                        throw Violation(description: "asking for more bytes moved the buffer, for \(hex(bytes))")
                    }
                    try checkWaiting(held, maximumFrameLength: maximumFrameLength, input: bytes)
                case .failure(let error):
                    try checkRefusal(error, held: held, byteByByte: byteByByte, maximumFrameLength: maximumFrameLength,
                                     input: bytes)
                    outcome.error = error
                    return outcome
                }
                if case .success(nil) = result { break }
            }
        }
        // The end of the stream: what is left is a truncated frame.
        let left = buffer.readableBytes
        do {
            if let message = try decoder.decodeLast(buffer: &buffer, seenEOF: true) {
                throw Violation(description: "decodeLast found \(message) the decoder had not, for \(hex(bytes))")
            }
            guard left == 0 else {
                throw Violation(description: "\(left) bytes left at the end were not reported, for \(hex(bytes))")
            }
        } catch let error as GameProtocolError {
            guard error == .truncatedFrame(bufferedBytes: left), left > 0 else {
                throw Violation(description: "at the end, \(error) with \(left) bytes left, for \(hex(bytes))")
            }
            outcome.error = error
        } catch let violation as Violation {
            throw violation
        } catch {
            throw Violation(description: "decodeLast threw \(error), for \(hex(bytes))")
        }
        return outcome
    }

    /// A message and the frame it came from: the frame is the message's encoding, within the limit, and decodes back.
    private static func checkDecoded(
        _ message: GameMessage, frame: [UInt8], maximumFrameLength: Int
    ) throws(Violation) {
        guard frame.count >= GameFrame.headerLength + 1, frame.count <= GameFrame.headerLength + maximumFrameLength
        else {
            throw Violation(description: "\(message) came from a frame of \(frame.count) bytes: \(hex(frame))")
        }
        var written = ByteBuffer()
        written.writeGameMessage(message)
        let encoded = Array(written.readableBytesView)
        guard encoded == frame else {
            throw Violation(description: "frame \(hex(frame)) decodes to \(message), which encodes as \(hex(encoded))")
        }
        var decoder = GameMessageDecoder(maximumFrameLength: maximumFrameLength)
        let again = try? decoder.decode(buffer: &written)
        guard again == message, written.readableBytes == 0 else {
            throw Violation(description: "\(message) re-encoded decodes to \(String(describing: again))")
        }
    }

    /// The decoder asked for more while holding `held`: it must be waiting for one acceptable frame.
    private static func checkWaiting(_ held: [UInt8], maximumFrameLength: Int, input: [UInt8]) throws(Violation) {
        guard held.count < GameFrame.headerLength + maximumFrameLength else {
            throw Violation(
                description: "waiting for more while holding \(held.count) bytes (a whole maximum frame is "
                    + "\(GameFrame.headerLength + maximumFrameLength)), for \(hex(input))")
        }
        guard held.count >= GameFrame.headerLength else { return }
        let announced = Int(held[0]) << 8 | Int(held[1])
        guard (1...maximumFrameLength).contains(announced), held.count < GameFrame.headerLength + announced else {
            throw Violation(
                description: "waiting for more on a header announcing \(announced) bytes with \(held.count) held, "
                    + "for \(hex(input))")
        }
    }

    /// The decoder refused what it held: a header of 0 or over the maximum is refused from its two bytes alone.
    private static func checkRefusal(
        _ error: GameProtocolError, held: [UInt8], byteByByte: Bool, maximumFrameLength: Int, input: [UInt8]
    ) throws(Violation) {
        guard held.count >= GameFrame.headerLength else {
            throw Violation(description: "\(error) with only \(held.count) bytes held, for \(hex(input))")
        }
        let announced = Int(held[0]) << 8 | Int(held[1])
        switch error {
        case .frameTooLong(let length, let maximum):
            guard length == announced, length > maximumFrameLength, maximum == maximumFrameLength else {
                throw Violation(description: "\(error) on a header announcing \(announced), for \(hex(input))")
            }
        case .emptyFrame where announced == 0:
            break
        case .emptyFrame, .unknownMessageType, .malformedPayload:
            guard (1...maximumFrameLength).contains(announced), held.count >= GameFrame.headerLength + announced else {
                throw Violation(
                    description: "\(error) before its whole frame (\(announced) bytes) was there, for \(hex(input))")
            }
        case .truncatedFrame:
            throw Violation(description: "\(error) before the end of the stream, for \(hex(input))")
        }
        if byteByByte, announced == 0 || announced > maximumFrameLength, held.count != GameFrame.headerLength {
            throw Violation(
                description: "a header announcing \(announced) was refused only once \(held.count) bytes were "
                    + "held, for \(hex(input))")
        }
    }

    /// Chunk sizes for `bytes`, random but the same for the same bytes (seeded with their FNV-1a hash).
    static func randomChunks(of bytes: [UInt8]) -> [Int] {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var random = SplitMix64(seed: hash)
        var chunks: [Int] = []
        var left = bytes.count
        while left > 0 {
            let size = min(left, Int.random(in: 1...16, using: &random))
            chunks.append(size)
            left -= size
        }
        return chunks
    }

    /// `bytes` in hex, cut after 64 of them.
    static func hex(_ bytes: [UInt8]) -> String {
        let shown = bytes.prefix(64).map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined(separator: " ")
        return "[" + shown + (bytes.count > 64 ? " … (\(bytes.count) bytes)" : "") + "]"
    }
}
