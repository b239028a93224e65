import GameProtocol
import GameWire
import NIOCore
import NIOPosix
import TicTacToeTestSupport
import XCTest

@testable import GameTransport

/// Protocol 2 on loopback: a `GameListener` and `GameConnection` over TLS 1.2 ECDHE-PSK-CHACHA20-POLY1305, with the
/// test-only exchange (TestPSKExchange.swift) behind the PSK seam; v1 peers on either side; what goes over the wire.
final class SecureTransportTests: XCTestCase {
    private func secureConnection(
        _ endpoint: Endpoint, name: String, code: String, seenHints: Recorder<String>? = nil,
        states: Recorder<ConnectionState>? = nil
    ) -> GameConnection {
        GameConnection(
            to: endpoint, localName: name,
            configuration: .init(
                connectTimeout: .seconds(10), timeouts: testTimeouts(), clock: ContinuousClock(),
                security: testJoinerSecurity(code: code, seenHints: seenHints)),
            onStateChange: { states?.append($0) })
    }

    private func frame(_ message: GameMessage) -> [UInt8] {
        var buffer = ByteBuffer()
        buffer.writeGameMessage(message)
        return Array(buffer.readableBytesView)
    }

    private let expectedSession = SecureSession(tlsVersion: "TLSv1.2", cipherSuite: "ECDHE-PSK-CHACHA20-POLY1305")

    func testSecureListenerAndConnectionPlayAGameInsideTLS() async throws {
        let host = TestSecureHost(code: "424242")
        let hostSessions = Recorder<MatchSession>()
        let hostSecurity = Recorder<SecureSession?>()
        let listener = try await RunningListener(hostName: "Host", security: host.security) { link in
            hostSecurity.append(link.stats.secureSession)
            hostSessions.append(await playScriptedMatch(.host, moves: [3, 4], over: &link))
            return .keepListening
        }
        let states = Recorder<ConnectionState>()
        let connection = secureConnection(listener.endpoint, name: "Joiner", code: "424242", states: states)
        let (joiner, joinerSecurity) = try await playJoinerSide(of: connection, "the secure match")
        XCTAssertEqual(joiner.end, .completed(by: .local))
        XCTAssertEqual(joiner.score, MatchSession.Score(localWins: 1))
        XCTAssertEqual(states.all, [.preparing, .ready(peerName: "Host"), .cancelled])
        XCTAssertEqual(joinerSecurity, expectedSession)

        await assertEventually("the host's match did not end") { hostSessions.all.count == 1 }
        XCTAssertEqual(hostSessions.all.first?.score, MatchSession.Score(peerWins: 1))
        XCTAssertEqual(hostSecurity.all, [expectedSession])
        XCTAssertEqual(listener.handshakeFailures, [])
        XCTAssertEqual(host.failures.all, [])
        await listener.stop()
    }

    func testEachConnectionGetsItsOwnHintAndTheIdentityComesBackThroughTheSeam() async throws {
        let host = TestSecureHost(code: "123456")
        let listener = try await RunningListener(security: host.security) { link in
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
        var joinerHints: [[String]] = []
        for name in ["First", "Second"] {
            let seen = Recorder<String>()
            let connection = secureConnection(listener.endpoint, name: name, code: "123456", seenHints: seen)
            let first = try await within(20, "\(name)'s secure join") {
                try await connection.run { link in try await link.next() }
            }
            XCTAssertEqual(first, .bye(.seriesOver))
            joinerHints.append(seen.all)
        }
        let hints = host.hints.all
        XCTAssertEqual(hints.count, 2)
        XCTAssertNotEqual(hints[0], hints[1], "each connection has its own hint")
        XCTAssertEqual(joinerHints, [[hints[0]], [hints[1]]], "each joiner saw its connection's hint")
        XCTAssertEqual(host.identities.all, hints.map(TestJoinerExchange.identity(forHint:)))
        // Making the exchange, and both PSK callbacks, run on the connections' event loops.
        XCTAssertFalse(exchangeCallsOffTheEventLoop.all.isEmpty)
        XCTAssertFalse(exchangeCallsOffTheEventLoop.all.contains(true))
        await listener.stop()
    }

    func testMismatchedKeysFailBothSidesAsKeyMismatchAndTheListenerGoesOn() async throws {
        let host = TestSecureHost(code: "222222")
        let matches = Recorder<String>()
        let listener = try await RunningListener(security: host.security) { link in
            matches.append(link.peerName)
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
        for attempt in 1...2 {
            let states = Recorder<ConnectionState>()
            let connection = secureConnection(listener.endpoint, name: "Guesser", code: "111111", states: states)
            do {
                _ = try await within(20, "the wrong key to fail") {
                    try await connection.run { _ in XCTFail("a wrong key got in") }
                }
                XCTFail("no error")
            } catch {
                XCTAssertEqual(error as? ConnectionError, .wrongCode, "\(error)")
            }
            XCTAssertEqual(states.all.last, .failed(.wrongCode))
            await assertEventually("the host's failure \(attempt)") { host.failures.all.count == attempt }
        }
        XCTAssertEqual(host.failures.all, [.keyMismatch, .keyMismatch])
        XCTAssertEqual(listener.pairingFailures, [.wrongCode, .wrongCode])
        XCTAssertEqual(listener.handshakeFailures, [])

        // The right key still gets in.
        let connection = secureConnection(listener.endpoint, name: "Friend", code: "222222")
        let first = try await within(20, "the right key") { try await connection.run { link in try await link.next() } }
        XCTAssertEqual(first, .bye(.seriesOver))
        await assertEventually { matches.all == ["Friend"] }
        await listener.stop()
    }

    func testAJoinerWhoseExchangeRefusesFailsWithItsReasonAndTheHostGoesOn() async throws {
        let host = TestSecureHost(code: "000000")
        let listener = try await RunningListener(security: host.security) { link in
            await link.closeGracefully()
            return .keepListening
        }
        let connection = GameConnection(
            to: listener.endpoint, localName: "Refuser",
            configuration: .init(
                connectTimeout: .seconds(10), timeouts: testTimeouts(), clock: ContinuousClock(),
                security: .tlsPSK(SecureJoiner { RefusingJoinerExchange() })))
        do {
            _ = try await within(20, "the refusing joiner") { try await connection.run { _ in XCTFail("joined") } }
            XCTFail("no error")
        } catch let error as SecureChannelError {
            guard case .exchangeFailed(let why) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(why.hasPrefix("the test joiner refuses hint test-session-"), why)
        }
        await assertEventually("the host's failure") { host.failures.all.count == 1 }
        XCTAssertNotEqual(host.failures.all.first, .keyMismatch, "nothing was keyed: \(host.failures.all)")
        await listener.stop()
    }

    func testAHostThatRefusesTheIdentityFailsAsAnExchangeFailure() async throws {
        let host = TestSecureHost(code: "000000")
        let listener = try await RunningListener(security: host.security) { link in
            await link.closeGracefully()
            return .keepListening
        }
        // This joiner answers with an identity the host's exchange does not accept.
        struct WrongIdentity: PSKJoinerExchange {
            func identityAndKey(forHint hint: String) throws -> (identity: String, key: [UInt8]) {
                ("someone-else", testOnlyKey(code: "000000"))
            }
        }
        let connection = GameConnection(
            to: listener.endpoint, localName: "Stranger",
            configuration: .init(
                connectTimeout: .seconds(10), timeouts: testTimeouts(), clock: ContinuousClock(),
                security: .tlsPSK(SecureJoiner { WrongIdentity() })))
        do {
            _ = try await within(20, "the refused identity") { try await connection.run { _ in XCTFail("joined") } }
            XCTFail("no error")
        } catch let error as SecureChannelError {
            XCTAssertNotEqual(error, .keyMismatch)
            print("joiner whose identity the host refused: \(error)")
        }
        await assertEventually("the host's failure") { host.failures.all.count == 1 }
        guard case .exchangeFailed(let why)? = host.failures.all.first else {
            return XCTFail("\(host.failures.all)")
        }
        XCTAssertTrue(why.contains("identity 'someone-else' does not answer hint"), why)
        await listener.stop()
    }

    func testASecondSecureJoinerHearsBusyInsideTLSThenGetsIn() async throws {
        let host = TestSecureHost(code: "246810")
        let release = Flag()
        let matches = Recorder<String>()
        let listener = try await RunningListener(hostName: "Host", security: host.security) { link in
            matches.append(link.peerName)
            _ = await readUntilClosed(&link)
            return .keepListening
        }
        let first = secureConnection(listener.endpoint, name: "First", code: "246810")
        let firstRun = Task {
            try await first.run { _ in _ = await eventually(timeout: 30) { release.isSet } }
        }
        await assertEventually("first joiner: \(first.state)") { first.state == .ready(peerName: "Host") }

        // The second hears reject(busy) (inside TLS), waits on a clock this test advances, and asks again.
        let clock = ManualClock()
        let states = Recorder<ConnectionState>()
        let second = GameConnection(
            to: listener.endpoint, localName: "Second",
            configuration: .init(
                connectTimeout: .seconds(10), timeouts: testTimeouts(), clock: clock,
                security: testJoinerSecurity(code: "246810")),
            onStateChange: { states.append($0) })
        let secondRun = Task { try await second.run { link in link.stats.secureSession } }
        await states.waitUntil("busy") { $0.contains { $0.name == "waiting" } }
        guard case .waiting(.hostBusy(let text, _)) = second.state else { return XCTFail("\(second.state)") }
        XCTAssertEqual(text, "Host is already playing a game; try again later")

        release.set()
        _ = try await within(20, "the first match") { try await firstRun.value }
        // Free again: the next attempt gets in (a moment's busy is possible while the first ends).
        _ = await advanceThroughWaits(states, on: clock) { _ in .seconds(2) }
        let session = try await within(20, "the second match") { try await secondRun.value }
        XCTAssertEqual(session, expectedSession)
        await assertEventually { matches.all == ["First", "Second"] }
        XCTAssertEqual(host.failures.all, [])
        await listener.stop()
    }

    func testAPeerThatVanishesWithoutCloseNotifyEndsTheStreamAsInPlaintext() async throws {
        let host = TestSecureHost(code: "135790")
        let hostEnd = Recorder<String>()
        let listener = try await RunningListener(security: host.security) { link in
            try? await link.send(.bye(.seriesOver))
            let error = await readUntilClosed(&link)
            hostEnd.append(error.map { "\($0)" } ?? "end of stream")
            return .keepListening
        }
        let relay = try await RecordingRelay(to: listener.port)
        let connection = secureConnection(Endpoint(host: loopback, port: relay.port), name: "Vanisher", code: "135790")
        let joinerEnd = try await within(20, "the cut connection") {
            try await connection.run { link -> String in
                let first = try await link.next()
                XCTAssertEqual(first, .bye(.seriesOver))
                relay.cut()  // TCP closes on both sides; no TLS close_notify crosses
                do {
                    return try await link.next().map { "\($0)" } ?? "end of stream"
                } catch {
                    return "\(error)"
                }
            }
        }
        XCTAssertEqual(joinerEnd, "end of stream")
        await assertEventually { !hostEnd.all.isEmpty }
        XCTAssertEqual(hostEnd.all, ["end of stream"])
        await relay.stop()
        await listener.stop()
    }

    // MARK: The v2 hello inside TLS

    func testTheHostAcceptsAV2PlayersHelloWithVersion2() async throws {
        let host = TestSecureHost(code: "777777")
        let matches = Recorder<String>()
        let listener = try await RunningListener(hostName: "Host", security: host.security) { link in
            matches.append(link.peerName)
            _ = await readUntilClosed(&link)
            return .keepListening
        }
        let (answer, session) = try await withSecureGameClient(port: listener.port, code: "777777") { client in
            try await client.send(.hello(version: 2, name: "Raw", role: .player))
            return (try await client.next(), client.stats.secureSession)
        }
        XCTAssertEqual(answer, .accept(version: 2, name: "Host"))
        XCTAssertEqual(session, expectedSession)
        await assertEventually { matches.all == ["Raw"] }
        await listener.stop()
    }

    /// The host's report of a refused hello quotes the texts as they are: "joiner's", not Swift's "joiner\\'s".
    func testARefusedHelloIsReportedInPlainWords() async throws {
        let host = TestSecureHost(code: "575757")
        let listener = try await RunningListener(hostName: "Host", security: host.security) { _ in .keepListening }
        let frames = try await withSecureGameClient(port: listener.port, code: "575757") { client in
            try await client.send(.hello(version: 3, name: "Future"))
            return try await client.readToEnd()
        }
        let text = "this host speaks protocol 2, older than the joiner's 3: the host must update tictactoe"
        XCTAssertEqual(frames, [.reject(reason: .version, text: text)])
        await assertEventually { listener.handshakeFailures.count == 1 }
        XCTAssertEqual(listener.handshakeFailures, ["refused its hello (version): " + text])
        await listener.stop()
    }

    func testASpectatorsHelloInsideTLSIsRejectedAndAPlayerThenPlays() async throws {
        let host = TestSecureHost(code: "565656")
        let hostSessions = Recorder<MatchSession>()
        let listener = try await RunningListener(hostName: "Host", security: host.security) { link in
            hostSessions.append(await playScriptedMatch(.host, moves: [3, 4], over: &link))
            return .keepListening
        }
        let frames = try await withSecureGameClient(port: listener.port, code: "565656") { client in
            try await client.send(.hello(version: 2, name: "Watcher", role: .spectator))
            return try await client.readToEnd()
        }
        let refusal = GameMessage.reject(reason: .badHello, text: "this host takes no spectators (its player can allow them: --spectators N)")
        XCTAssertEqual(frames, [refusal])
        await assertEventually { listener.handshakeFailures.count == 1 }
        XCTAssertEqual(listener.handshakeFailures, [
            "refused its hello (bad-hello): this host takes no spectators (its player can allow them: --spectators N)"])
        XCTAssertEqual(host.failures.all, [], "TLS itself succeeded: the keys matched")

        // The GameConnection's own hello (version 2, a player) gets in and plays.
        let connection = secureConnection(listener.endpoint, name: "Player", code: "565656")
        let (joiner, joinerSecurity) = try await playJoinerSide(of: connection, "the player after the spectator")
        XCTAssertEqual(joiner.end, .completed(by: .local))
        XCTAssertEqual(joinerSecurity, expectedSession)
        await assertEventually { hostSessions.all.count == 1 }
        XCTAssertEqual(hostSessions.all.first?.score, MatchSession.Score(peerWins: 1))
        await listener.stop()
    }

    func testAV1HelloInsideTLSIsToldToUpdate() async throws {
        let host = TestSecureHost(code: "131313")
        let listener = try await RunningListener(security: host.security) { link in
            XCTFail("a v1 hello got a match inside TLS: \(link.peerName)")
            return .keepListening
        }
        for hello in [GameMessage.hello(version: 1, name: "Old"), .hello(version: 3, name: "Future")] {
            let frames = try await withSecureGameClient(port: listener.port, code: "131313") { client in
                try await client.send(hello)
                return try await client.readToEnd()
            }
            guard case .hello(let version, _, _, _) = hello else { return XCTFail() }
            let text = version == 1
                ? "this host speaks protocol 2 (encrypted); update tictactoe"
                : "this host speaks protocol 2, older than the joiner's 3: the host must update tictactoe"
            XCTAssertEqual(frames, [.reject(reason: .version, text: text)])
        }
        await assertEventually { listener.handshakeFailures.count == 2 }
        XCTAssertEqual(host.failures.all, [])
        await listener.stop()
    }

    func testAPlaintextJoinerAndHostSpeakVersion1() async throws {
        // The other transport: the GameConnection's plaintext hello is version 1, the only one a plaintext host takes.
        let listener = try await RunningListener(hostName: "Host") { link in
            _ = await playScriptedMatch(.host, moves: [3, 4], over: &link)
            return .keepListening
        }
        let frames = try await withRawClient(port: listener.port) { client in
            try await client.send(.hello(version: 1, name: "Raw"))
            return try await client.next()
        }
        XCTAssertEqual(frames, .accept(version: 1, name: "Host"))
        XCTAssertEqual(GameConnection.Configuration(clock: ContinuousClock()).security.protocolVersion, 1)
        XCTAssertEqual(testJoinerSecurity(code: "000000").protocolVersion, 2)
        XCTAssertEqual(HostSecurity.plaintext.protocolVersion, 1)
        XCTAssertEqual(TestSecureHost(code: "000000").security.protocolVersion, 2)
        let connection = GameConnection(
            to: listener.endpoint, localName: "Plain",
            configuration: .init(connectTimeout: .seconds(10), timeouts: testTimeouts(), clock: ContinuousClock()))
        let (joiner, security) = try await playJoinerSide(of: connection, "the plaintext match")
        XCTAssertEqual(joiner.end, .completed(by: .local))
        XCTAssertNil(security)
        await listener.stop()
    }

    // MARK: Protocol 1 peers

    func testAPlaintextV1JoinerGetsAPlaintextRejectVersion() async throws {
        let host = TestSecureHost(code: "000000")
        let listener = try await RunningListener(security: host.security) { link in
            XCTFail("a v1 joiner got a match: \(link.peerName)")
            return .keepListening
        }
        // Raw bytes: the frames that come back, in plaintext, then EOF.
        let frames = try await withRawClient(port: listener.port) { client in
            try await client.send(bytes: frame(.hello(version: 1, name: "Old")))
            return try await client.readToEnd()
        }
        let refusal = "this host speaks protocol 2 (encrypted); update tictactoe"
        XCTAssertEqual(frames, [.reject(reason: .version, text: refusal)])

        // The real v1 joiner code.
        let connection = GameConnection(
            to: listener.endpoint, localName: "Old",
            configuration: .init(connectTimeout: .seconds(10), timeouts: testTimeouts(), clock: ContinuousClock()))
        do {
            _ = try await within(20, "the v1 joiner") { try await connection.run { _ in XCTFail("joined") } }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? ConnectionError, .rejected(reason: "version", text: refusal))
        }
        await assertEventually { host.failures.all.count == 2 }
        XCTAssertEqual(host.failures.all, [.plaintextJoiner, .plaintextJoiner])
        XCTAssertEqual(listener.pairingFailures, Array(repeating: .handshake(.plaintextJoiner), count: 2))
        XCTAssertEqual(host.hints.all.count, 2, "each connection had its exchange, unused")
        XCTAssertEqual(host.identities.all, [])
        await listener.stop()
    }

    func testASecureJoinerAgainstAPlaintextV1HostSaysTheHostSpeaksProtocol1() async throws {
        let listener = try await RunningListener { link in
            XCTFail("a TLS joiner got a v1 match: \(link.peerName)")
            return .keepListening
        }
        let states = Recorder<ConnectionState>()
        let connection = secureConnection(listener.endpoint, name: "New", code: "000000", states: states)
        do {
            _ = try await within(20, "the v1 host's answer") { try await connection.run { _ in XCTFail("joined") } }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? SecureChannelError, .plaintextHost)
        }
        XCTAssertEqual(
            SecureChannelError.plaintextHost.description,
            "the host speaks protocol 1 (unencrypted), this joiner protocol 2 (encrypted): ask the host to update "
                + "tictactoe, or join with --plaintext")
        XCTAssertEqual(
            states.all.last, .failed(.rejected(reason: "version", text: SecureChannelError.plaintextHost.description)))
        // The v1 host saw a frame length it refuses (the TLS record header 16 03: 5635 bytes) and goes on.
        await assertEventually { listener.handshakeFailures.count == 1 }
        XCTAssertTrue(
            listener.handshakeFailures[0].contains("frame of 5635 bytes exceeds the maximum of 512"),
            listener.handshakeFailures[0])
        await listener.stop()
    }

    func testAHostThatClosesDuringTheHandshakeIsReportedSo() async throws {
        let server = try await ScriptedServer(reply: [], closeAfterReply: true)
        let connection = secureConnection(server.endpoint, name: "New", code: "000000")
        do {
            _ = try await within(20, "the closed handshake") { try await connection.run { _ in XCTFail("joined") } }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? SecureChannelError, .closedDuringHandshake)
        }
        // What the joiner sent first: a TLS handshake record (a ClientHello), not a v1 frame.
        await assertEventually { !server.received.all.isEmpty }
        let first = Array(server.received.all[0].readableBytesView.prefix(6))
        XCTAssertEqual(first.first, 0x16)
        XCTAssertEqual(first.dropFirst(5).first, 0x01, "a ClientHello")
        await server.stop()
    }

    func testGarbageToASecureHostFailsItsHandshakeAndTheHostGoesOn() async throws {
        let host = TestSecureHost(code: "000000")
        let matches = Recorder<String>()
        let listener = try await RunningListener(security: host.security) { link in
            matches.append(link.peerName)
            await link.closeGracefully()
            return .keepListening
        }
        try await withRawClient(port: listener.port) { client in
            try await client.send(bytes: Array("GET / HTTP/1.1\r\n\r\n".utf8))
            _ = try? await client.readToEnd()
        }
        await assertEventually { host.failures.all.count == 1 }
        guard case .handshakeFailed(let why)? = host.failures.all.first else { return XCTFail("\(host.failures.all)") }
        print("a secure host's failure for an HTTP request: \(why)")
        let connection = secureConnection(listener.endpoint, name: "After", code: "000000")
        _ = try await within(20, "the next joiner") { try await connection.run { link in try await link.next() } }
        await assertEventually { matches.all == ["After"] }
        await listener.stop()
    }

    // MARK: The wire

    func testTheWireCarriesOnlyTLS12WithTheOneCipherSuite() async throws {
        let host = TestSecureHost(code: "987654")
        let listener = try await RunningListener(hostName: "SecretHostName", security: host.security) { link in
            _ = await playScriptedMatch(.host, moves: [3, 4], over: &link)
            return .keepListening
        }
        let relay = try await RecordingRelay(to: listener.port)
        let seenHints = Recorder<String>()
        let connection = secureConnection(
            Endpoint(host: loopback, port: relay.port), name: "SecretJoinerName", code: "987654", seenHints: seenHints)
        let joiner = try await within(20, "the relayed match") {
            try await connection.run { link in await playScriptedMatch(.joiner, moves: [0, 1, 2], over: &link) }
        }
        XCTAssertEqual(joiner.end, .completed(by: .local))
        await assertEventually { relay.isDone }

        let toHost = relay.bytesToHost
        let toJoiner = relay.bytesToJoiner
        XCTAssertEqual(toHost.first, 0x16, "the joiner's first byte: a TLS handshake record")
        XCTAssertEqual(toJoiner.first, 0x16, "the host's first byte: a TLS handshake record")
        // The ServerHello: record header (5), handshake type 2 and length (4), version, random (32), session id,
        // then the chosen suite.
        XCTAssertEqual(toJoiner[5], 0x02, "a ServerHello")
        XCTAssertEqual(Array(toJoiner[9...10]), [0x03, 0x03], "TLS 1.2")
        let sessionIDLength = Int(toJoiner[43])
        let suite = UInt16(toJoiner[44 + sessionIDLength]) << 8 | UInt16(toJoiner[45 + sessionIDLength])
        XCTAssertEqual(suite, 0xCCAC, "TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256")
        // The names never cross in clear; the hint and identity do (the PAKE's shares are meant to).
        for name in ["SecretHostName", "SecretJoinerName"] {
            XCTAssertFalse(contains(toHost + toJoiner, Array(name.utf8)), "\(name) is readable on the wire")
        }
        XCTAssertTrue(contains(toJoiner, Array(seenHints.all[0].utf8)), "the hint is in the ServerKeyExchange")
        XCTAssertTrue(contains(toHost, Array(TestJoinerExchange.identity(forHint: seenHints.all[0]).utf8)))
        // And every record after the handshake is application data (0x17) or an alert (close_notify, 0x15).
        let afterHandshake = Set(records(in: toJoiner).map(\.type)).subtracting([0x16, 0x14])
        XCTAssertTrue(afterHandshake.contains(0x17), "\(afterHandshake)")
        XCTAssertTrue(afterHandshake.isSubset(of: [0x17, 0x15]), "\(afterHandshake)")
        await relay.stop()
        await listener.stop()
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    /// The TLS records in `bytes`: type and length.
    private func records(in bytes: [UInt8]) -> [(type: UInt8, length: Int)] {
        var result: [(UInt8, Int)] = []
        var index = 0
        while index + 5 <= bytes.count {
            let length = Int(bytes[index + 3]) << 8 | Int(bytes[index + 4])
            result.append((bytes[index], length))
            index += 5 + length
        }
        return result
    }
}

/// A TCP relay on 127.0.0.1 that records every byte each way (one connection).
final class RecordingRelay: @unchecked Sendable {
    private final class Forward: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let partner: Channel
        let seen: Recorder<ByteBuffer>
        let done: Flag?

        init(partner: Channel, seen: Recorder<ByteBuffer>, done: Flag?) {
            self.partner = partner
            self.seen = seen
            self.done = done
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = unwrapInboundIn(data)
            seen.append(bytes)
            partner.writeAndFlush(bytes, promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner.close(promise: nil)
            done?.set()
            context.fireChannelInactive()
        }
    }

    private let toHost = Recorder<ByteBuffer>()
    private let toJoiner = Recorder<ByteBuffer>()
    private let relayed = Recorder<Channel>()
    private let hostSideAddresses = Recorder<String>()
    private let done = Flag()
    private let channel: Channel
    var port: Int { channel.localAddress!.port! }

    init(to targetPort: Int) async throws {
        let (toHost, toJoiner, done, relayed) = (self.toHost, self.toJoiner, self.done, self.relayed)
        let hostSideAddresses = self.hostSideAddresses
        channel = try await ServerBootstrap(group: EventLoops.group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { joinerSide in
                ClientBootstrap(group: joinerSide.eventLoop)
                    .connect(host: loopback, port: targetPort)
                    .flatMap { hostSide in
                        relayed.append(joinerSide)
                        relayed.append(hostSide)
                        hostSideAddresses.append("\(loopback):\(hostSide.localAddress?.port ?? 0)")
                        return joinerSide.eventLoop.makeCompletedFuture {
                            try joinerSide.pipeline.syncOperations.addHandler(
                                Forward(partner: hostSide, seen: toHost, done: done))
                            try hostSide.pipeline.syncOperations.addHandler(
                                Forward(partner: joinerSide, seen: toJoiner, done: nil))
                        }
                    }
            }
            .bind(host: loopback, port: 0)
            .get()
    }

    /// Whether the joiner's side has closed.
    var isDone: Bool { done.isSet }
    var bytesToHost: [UInt8] { toHost.all.flatMap { Array($0.readableBytesView) } }
    var bytesToJoiner: [UInt8] { toJoiner.all.flatMap { Array($0.readableBytesView) } }
    /// The relay's own address towards the host, for each relayed connection: what the host sees as the joiner's.
    var addressesTowardsHost: [String] { hostSideAddresses.all }

    /// Closes both TCP connections at once, as if the network or a peer's process went away.
    func cut() {
        for channel in relayed.all { channel.close(promise: nil) }
    }

    func stop() async {
        cut()
        try? await channel.close()
    }
}
