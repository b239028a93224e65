import GameWire
import GameProtocol
import GameTransport
import NIOCore
import XCTest
import TicTacToeTestSupport

/// Raw TCP peers that break the protocol: each gets an `error` (or `reject`) frame, then EOF, and the listener keeps
/// serving.
final class MisbehavingJoinerTests: XCTestCase {
    /// Sends `bytes` as the first thing on a new connection and returns every frame until the host closes.
    private func framesAfterSending(_ bytes: [UInt8], to listener: RunningListener) async throws -> [GameMessage] {
        try await withRawClient(port: listener.port) { client in
            try await client.send(bytes: bytes)
            return try await client.readToEnd()
        }
    }

    private func frame(_ message: GameMessage) -> [UInt8] {
        var buffer = ByteBuffer()
        buffer.writeGameMessage(message)
        return Array(buffer.readableBytesView)
    }

    private func noMatchExpected() async throws -> RunningListener {
        try await RunningListener { link in
            XCTFail("a misbehaving peer got a match: \(link.peerName)")
            return .keepListening
        }
    }

    func testHTTPRequestGetsBadFrameLengthThenEOFAndTheListenerGoesOn() async throws {
        let matches = Recorder<String>()
        let listener = try await RunningListener { link in
            matches.append(link.peerName)
            await link.closeGracefully()
            return .keepListening
        }
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: curl/8.0\r\n\r\n".utf8)
        let frames = try await framesAfterSending(request, to: listener)
        let tooLong = GameProtocolError.frameTooLong(length: 0x4745, maximum: 512)
        XCTAssertEqual(frames, [.error(code: .badFrameLength, text: "frame of 18245 bytes exceeds the maximum of 512")])
        await assertEventually("\(listener.handshakeFailures)") { listener.handshakeFailures == ["\(tooLong)"] }

        // The next joiner is served normally.
        let first = try await joinWhenFree(listener.endpoint, name: "Next") { link in try await link.next() }
        XCTAssertNil(first)
        await assertEventually { matches.all == ["Next"] }
        await listener.stop()
    }

    func testZeroLengthFrame() async throws {
        let listener = try await noMatchExpected()
        let frames = try await framesAfterSending([0x00, 0x00, 0x01, 0x01], to: listener)
        XCTAssertEqual(frames, [.error(code: .badFrameLength, text: "empty frame (length 0)")])
        await listener.stop()
    }

    func testUnknownMessageType() async throws {
        let listener = try await noMatchExpected()
        let frames = try await framesAfterSending([0x00, 0x01, 0x05], to: listener)
        XCTAssertEqual(frames, [.error(code: .unknownMessage, text: "unknown message type 0x5")])
        await listener.stop()
    }

    func testMalformedHello() async throws {
        let listener = try await noMatchExpected()
        let frames = try await framesAfterSending([0x00, 0x05, 0x01, 0x01, 0x02, 0xC3, 0x28], to: listener)
        XCTAssertEqual(
            frames, [.error(code: .malformedFrame, text: "malformed message of type 0x1: name is not valid UTF-8")]
        )
        await listener.stop()
    }

    func testGarbageAfterAValidHeaderIsDrainedNotReset() async throws {
        // A frame too long, followed by kilobytes more: the host answers, then discards the rest until we close,
        // so its error frame is not destroyed by a reset.
        let listener = try await noMatchExpected()
        let frames = try await framesAfterSending([0x7F, 0xFF] + Array(repeating: 0x41, count: 64 * 1024), to: listener)
        XCTAssertEqual(frames, [.error(code: .badFrameLength, text: "frame of 32767 bytes exceeds the maximum of 512")])
        await listener.stop()
    }

    func testOtherProtocolVersionIsRejected() async throws {
        let listener = try await noMatchExpected()
        let frames = try await framesAfterSending(frame(.hello(version: 2, name: "Future")), to: listener)
        let text = "this host speaks protocol 1 (unencrypted): join with --plaintext"
        XCTAssertEqual(frames, [.reject(reason: .version, text: text)])
        await assertEventually { listener.handshakeFailures.count == 1 }
        await listener.stop()
    }

    func testFirstFrameOtherThanHello() async throws {
        let listener = try await noMatchExpected()
        let frames = try await framesAfterSending(frame(.move(cell: 4)), to: listener)
        XCTAssertEqual(frames, [.error(code: .unexpectedMessage, text: "expected hello, got move")])
        await listener.stop()
    }

    func testSilentJoinerGetsHandshakeTimeout() async throws {
        let listener = try await RunningListener(timeouts: testTimeouts(handshake: .milliseconds(300))) { link in
            XCTFail("a silent peer got a match")
            return .keepListening
        }
        let started = ContinuousClock.now
        let frames = try await withRawClient(port: listener.port) { client in try await client.readToEnd() }
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(frames, [.error(code: .handshakeTimeout, text: "no handshake from the peer within 0.3 s")])
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(300))
        await assertEventually { listener.handshakeFailures == ["no handshake from the peer within 0.3 s"] }
        await listener.stop()
    }

    func testHalfAFrameThenSilenceGetsHandshakeTimeout() async throws {
        let listener = try await RunningListener(timeouts: testTimeouts(handshake: .milliseconds(300))) { link in
            XCTFail("a peer with half a hello got a match")
            return .keepListening
        }
        let frames = try await framesAfterSending([0x00, 0x06, 0x01, 0x01], to: listener)
        XCTAssertEqual(frames, [.error(code: .handshakeTimeout, text: "no handshake from the peer within 0.3 s")])
        await listener.stop()
    }
}
