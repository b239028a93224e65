import GameProtocol
import GameWire
import NIOCore
import NIOEmbedded
import XCTest

@testable import GameTransport

/// Protocol 2's pieces without sockets: the cipher-suite constant, the first-bytes rules, the sniffer on an
/// `EmbeddedChannel`, hint rules and how handshake failures are read.
final class SecureChannelUnitTests: XCTestCase {
    // MARK: The one cipher suite

    func testTheCipherSuiteConstantBuildsContextsThatAllowItAlone() throws {
        // NIOSSL stops the process on a name BoringSSL does not know: this test is where a typo would show.
        XCTAssertEqual(PSKTLS.cipherSuite, "ECDHE-PSK-CHACHA20-POLY1305")
        XCTAssertEqual(PSKTLS.configuredCipherSuites(), [PSKTLS.cipherSuiteValue])
        XCTAssertEqual(PSKTLS.cipherSuiteValue, 0xCCAC)
        let record = PSKHandshakeRecord()
        let host = TestHostExchange(code: "1")
        let joiner = TestJoinerExchange(code: "1")
        XCTAssertNoThrow(try PSKTLS.serverHandler(exchange: host, record: record, shutdownTimeout: .seconds(1)))
        XCTAssertNoThrow(try PSKTLS.clientHandler(exchange: joiner, record: record, shutdownTimeout: .seconds(1)))
        let configuration = PSKTLS.baseConfiguration(shutdownTimeout: .seconds(1))
        XCTAssertEqual(configuration.minimumTLSVersion, .tlsv12)
        XCTAssertEqual(configuration.maximumTLSVersion, .tlsv12)
        XCTAssertTrue(configuration.certificateChain.isEmpty)
        XCTAssertNil(configuration.privateKey)
    }

    func testAHostHintThatBreaksTheRulesIsRefusedBeforeTheHandshake() {
        struct LongHint: PSKHostExchange {
            func hint() throws -> String { String(repeating: "h", count: 129) }
            func key(forIdentity identity: String) throws -> [UInt8] { [1] }
        }
        XCTAssertThrowsError(
            try PSKTLS.serverHandler(exchange: LongHint(), record: PSKHandshakeRecord(), shutdownTimeout: .seconds(1))
        ) { error in
            XCTAssertEqual(
                error as? SecureChannelError,
                .exchangeFailed("the host's hint is unusable: it has 129 bytes, more than 128"))
        }
    }

    func testPSKTextRules() {
        XCTAssertNil(PSKText.problem(with: "abc-DEF_123+/="))
        XCTAssertNil(PSKText.problem(with: String(repeating: "x", count: 128)))
        XCTAssertEqual(PSKText.problem(with: ""), "it is empty")
        XCTAssertEqual(PSKText.problem(with: String(repeating: "x", count: 129)), "it has 129 bytes, more than 128")
        XCTAssertEqual(PSKText.problem(with: "a b"), "it holds the byte 0x20, not printable ASCII")
        XCTAssertEqual(PSKText.problem(with: "é"), "it holds the byte 0xc3, not printable ASCII")
        XCTAssertNil(PSKText.problem(withKey: Array(repeating: 7, count: 256)))
        XCTAssertEqual(PSKText.problem(withKey: []), "the key is empty")
        XCTAssertEqual(
            PSKText.problem(withKey: Array(repeating: 7, count: 257)), "the key has 257 bytes, more than 256")
    }

    // MARK: Reading handshake failures

    func testHandshakeFailuresAreReadFromWhatTheExchangeDidAndBoringSSLsReason() {
        // As NIOSSL 2.37.6 reported a key mismatch on loopback: the host, then the joiner.
        let hostMAC = "sslError([Error: 503316581 error:1e000065:Cipher functions:OPENSSL_internal:BAD_DECRYPT at "
            + "/x/e_chacha20poly1305.cc:328, Error: 268435595 error:1000008b:SSL routines:OPENSSL_internal:"
            + "DECRYPTION_FAILED_OR_BAD_RECORD_MAC at /x/tls_record.cc:190])"
        let joinerAlert = "sslError([Error: 268436476 error:100003fc:SSL routines:OPENSSL_internal:"
            + "SSLV3_ALERT_BAD_RECORD_MAC at /x/tls_record.cc:491])"
        let wrongVersion = "sslError([Error: 268435703 error:100000f7:SSL routines:OPENSSL_internal:"
            + "WRONG_VERSION_NUMBER at /x/tls_record.cc:231])"
        XCTAssertEqual(
            SecureChannelError.classifyHandshakeFailure(hostMAC, keyComputed: true, exchangeFailure: nil), .keyMismatch)
        XCTAssertEqual(
            SecureChannelError.classifyHandshakeFailure(joinerAlert, keyComputed: true, exchangeFailure: nil),
            .keyMismatch)
        // No key computed on our side: a MAC failure cannot be a key mismatch.
        XCTAssertEqual(
            SecureChannelError.classifyHandshakeFailure(hostMAC, keyComputed: false, exchangeFailure: nil),
            .handshakeFailed("BAD_DECRYPT, DECRYPTION_FAILED_OR_BAD_RECORD_MAC"))
        XCTAssertEqual(
            SecureChannelError.classifyHandshakeFailure(wrongVersion, keyComputed: false, exchangeFailure: nil),
            .handshakeFailed("WRONG_VERSION_NUMBER"))
        XCTAssertEqual(
            SecureChannelError.classifyHandshakeFailure(
                "sslError([Error:  EOF during handshake])", keyComputed: false, exchangeFailure: nil),
            .closedDuringHandshake)
        XCTAssertEqual(
            SecureChannelError.classifyHandshakeFailure(joinerAlert, keyComputed: false, exchangeFailure: "bad share"),
            .exchangeFailed("bad share"))
    }

    /// What a joiner reads for a failed encrypted handshake says what it means, with no "protocol error by the peer"
    /// in front and TLS's own name last.
    func testAFailedEncryptedHandshakeIsSaidInWords() {
        let refusedIdentity = SecureChannelError.handshakeFailed("TLSV1_ALERT_UNKNOWN_PSK_IDENTITY").connectionError
        XCTAssertEqual(
            "\(refusedIdentity)",
            "the host refused this joiner's key exchange: it runs a tictactoe that pairs another way; update both to "
                + "the same version (TLS said TLSV1_ALERT_UNKNOWN_PSK_IDENTITY)")
        let notAGame = SecureChannelError.handshakeFailed("WRONG_VERSION_NUMBER").connectionError
        XCTAssertEqual(
            "\(notAGame)",
            "the other end answers, but it is not a tictactoe game: it does not speak the encrypted handshake "
                + "(TLS said WRONG_VERSION_NUMBER)")
    }

    // MARK: The whole secure host pipeline on an EmbeddedChannel

    func testASilentSocketOnASecureHostMeetsTheHandshakeDeadlineAndNothingLeavesInPlaintext() throws {
        let channel = EmbeddedChannel()
        let operations = channel.pipeline.syncOperations
        let host = SecureHost(makeExchange: { TestHostExchange(code: "1") })
        try operations.addHostSecurityHandlers(host, stats: ConnectionStats(), linger: .seconds(2))
        try operations.addHandler(GameFrameHandler(timeouts: .default, stats: ConnectionStats()))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 7878)).wait()

        channel.embeddedEventLoop.advanceTime(by: .nanoseconds(5_000_000_000 - 1))
        XCTAssertTrue(channel.isActive, "closed before the deadline")
        XCTAssertNil(try channel.readOutbound(as: ByteBuffer.self), "a TLS server speaks second")
        channel.embeddedEventLoop.advanceTime(by: .nanoseconds(1))
        XCTAssertFalse(channel.isActive)
        XCTAssertThrowsError(try channel.throwIfErrorCaught()) {
            XCTAssertEqual($0 as? LivenessError, .handshakeTimeout(.seconds(5)))
        }
        // The timeout's error frame waited for a TLS session that never came: no v1 frame went out in clear.
        var written: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { written += buffer.readableBytesView }
        XCTAssertNotEqual(FirstBytes.fromHost(written), .plaintextV1, "\(written)")
    }

    // MARK: First bytes

    private func frame(_ message: GameMessage) -> [UInt8] {
        var buffer = ByteBuffer()
        buffer.writeGameMessage(message)
        return Array(buffer.readableBytesView)
    }

    func testTheHostTellsAV1HelloFromAClientHello() {
        let hello = frame(.hello(version: 1, name: "Old"))
        XCTAssertEqual(FirstBytes.fromJoiner([UInt8]()), .needMore)
        XCTAssertEqual(FirstBytes.fromJoiner(hello.prefix(1)), .needMore)
        XCTAssertEqual(FirstBytes.fromJoiner(hello.prefix(2)), .needMore)
        XCTAssertEqual(FirstBytes.fromJoiner(hello.prefix(3)), .plaintextV1)
        XCTAssertEqual(FirstBytes.fromJoiner(hello), .plaintextV1)
        XCTAssertEqual(FirstBytes.fromJoiner([0x16]), .tls)
        XCTAssertEqual(FirstBytes.fromJoiner([0x16, 0x03, 0x01, 0x00, 0xF0, 0x01]), .tls)
        // Not a v1 hello, not TLS: TLS gets it and fails the handshake with its own reason.
        XCTAssertEqual(FirstBytes.fromJoiner(Array("GET / HTTP/1.1".utf8)), .other)
        XCTAssertEqual(FirstBytes.fromJoiner(frame(.move(cell: 4))), .other)
        XCTAssertEqual(FirstBytes.fromJoiner([0x00, 0x00, 0x01]), .other, "length 0")
        XCTAssertEqual(FirstBytes.fromJoiner([0x02, 0x01, 0x01]), .other, "length 513")
        XCTAssertEqual(FirstBytes.fromJoiner([0x02, 0x00, 0x01]), .plaintextV1, "length 512")
    }

    func testTheJoinerTellsAV1FrameFromAServerHello() {
        let error = frame(.error(code: .badFrameLength, text: "frame length 5635 exceeds the maximum of 512"))
        XCTAssertEqual(FirstBytes.fromHost([UInt8]()), .needMore)
        XCTAssertEqual(FirstBytes.fromHost(error.prefix(1)), .needMore)
        XCTAssertEqual(FirstBytes.fromHost(error.prefix(2)), .plaintextV1)
        XCTAssertEqual(FirstBytes.fromHost(frame(.reject(reason: .version, text: "x"))), .plaintextV1)
        XCTAssertEqual(FirstBytes.fromHost([0x16, 0x03, 0x03]), .tls, "a ServerHello")
        XCTAssertEqual(FirstBytes.fromHost([0x15, 0x03, 0x03]), .tls, "an alert")
        XCTAssertEqual(FirstBytes.fromHost([0x00, 0x00]), .other)
        XCTAssertEqual(FirstBytes.fromHost(Array("HTTP/1.1 400".utf8)), .other)
    }

    // MARK: The sniffer

    /// Collects what passes the sniffer.
    private final class Sink: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var bytes: [UInt8] = []
        var errors: [Error] = []
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            bytes += unwrapInboundIn(data).readableBytesView
        }
        func errorCaught(context: ChannelHandlerContext, error: Error) {
            errors.append(error)
        }
    }

    /// Stands for the socket's half-close, which `EmbeddedChannel` would turn into a full close: records it.
    private final class OutputCloseRecorder: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        var outputClosed = false
        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            guard mode == .output else { return context.close(mode: mode, promise: promise) }
            outputClosed = true
            promise?.succeed(())
        }
    }

    private func sniffing(
        _ side: FirstBytesSniffer.Side, closes: OutputCloseRecorder = OutputCloseRecorder()
    ) throws -> (EmbeddedChannel, Sink) {
        let sink = Sink()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(closes)
        try channel.pipeline.syncOperations.addHandler(FirstBytesSniffer(side: side))
        try channel.pipeline.syncOperations.addHandler(sink)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 7878)).wait()
        return (channel, sink)
    }

    func testTheHostSnifferAnswersAV1HelloFedByteByByteWithAPlaintextRejectAndLingers() throws {
        let closes = OutputCloseRecorder()
        let (channel, sink) = try sniffing(.host(linger: .seconds(2)), closes: closes)
        for byte in frame(.hello(version: 1, name: "Old")) {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
        }
        var written = try XCTUnwrap(channel.readOutbound(as: ByteBuffer.self))
        var decoder = GameMessageDecoder()
        XCTAssertEqual(
            try decoder.decode(buffer: &written),
            .reject(reason: .version, text: "this host speaks protocol 2 (encrypted); update tictactoe"))
        XCTAssertEqual(written.readableBytes, 0)
        XCTAssertTrue(closes.outputClosed, "our output is shut after the reject")
        XCTAssertTrue(channel.isActive, "lingering: the peer may still be reading")
        try channel.writeInbound(ByteBuffer(bytes: [1, 2, 3]))  // discarded
        XCTAssertEqual(sink.bytes, [], "nothing reaches TLS")
        XCTAssertTrue(sink.errors.isEmpty, "the error waits for the close")
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        XCTAssertFalse(channel.isActive, "closed hard after the linger time")
        XCTAssertEqual(sink.errors.compactMap { $0 as? SecureChannelError }, [.plaintextJoiner])
    }

    func testTheHostSnifferHandsAClientHelloToTLSAndLeaves() throws {
        let (channel, sink) = try sniffing(.host(linger: .seconds(2)))
        try channel.writeInbound(ByteBuffer(bytes: [0x16, 0x03, 0x01]))
        XCTAssertEqual(sink.bytes, [0x16, 0x03, 0x01])
        XCTAssertThrowsError(try channel.pipeline.syncOperations.handler(type: FirstBytesSniffer.self))
        try channel.writeInbound(ByteBuffer(bytes: [0x00, 0x10]))
        XCTAssertEqual(sink.bytes, [0x16, 0x03, 0x01, 0x00, 0x10])
        XCTAssertNil(try channel.readOutbound(as: ByteBuffer.self))
        _ = try channel.finish()
    }

    func testTheHostSnifferHandsBytesItCannotPlaceToTLS() throws {
        let (channel, sink) = try sniffing(.host(linger: .seconds(2)))
        try channel.writeInbound(ByteBuffer(bytes: [0x00]))
        try channel.writeInbound(ByteBuffer(bytes: [0x05]))
        XCTAssertEqual(sink.bytes, [], "still too few bytes to tell")
        try channel.writeInbound(ByteBuffer(bytes: [0x11, 0x04]))  // a v1 move: not a hello
        XCTAssertEqual(sink.bytes, [0x00, 0x05, 0x11, 0x04])
        XCTAssertNil(try channel.readOutbound(as: ByteBuffer.self))
        _ = try channel.finish()
    }

    func testTheJoinerSnifferFailsOnAV1FrameAndCloses() throws {
        let (channel, sink) = try sniffing(.joiner)
        try channel.writeInbound(ByteBuffer(bytes: frame(.error(code: .badFrameLength, text: "too long"))))
        XCTAssertFalse(channel.isActive)
        XCTAssertEqual(sink.bytes, [])
        XCTAssertEqual(sink.errors.compactMap { $0 as? SecureChannelError }, [.plaintextHost])
        XCTAssertNil(try channel.readOutbound(as: ByteBuffer.self), "the joiner answers nothing in plaintext")
    }

    func testTheJoinerSnifferHandsAServerHelloToTLS() throws {
        let (channel, sink) = try sniffing(.joiner)
        try channel.writeInbound(ByteBuffer(bytes: [0x16, 0x03, 0x03, 0x00, 0x3D, 0x02]))
        XCTAssertEqual(sink.bytes, [0x16, 0x03, 0x03, 0x00, 0x3D, 0x02])
        XCTAssertTrue(sink.errors.isEmpty)
        _ = try channel.finish()
    }
}
