import GamePairing
import GameProtocol
import NIOCore
import TicTacToeTestSupport
import XCTest

@testable import GameTransport
import PairingCode

private let code = try! GameCode(parsing: "314159")
private let otherCode = try! GameCode(parsing: "271828")
private let expectedSession = SecureSession(tlsVersion: "TLSv1.2", cipherSuite: "ECDHE-PSK-CHACHA20-POLY1305")

/// Protocol 2 with the real key exchange: CPace (GamePairing) on a game code behind the TLS-PSK seam
/// (`PairedHostExchange`, `PairedJoinerExchange`), on loopback: the right code plays, a wrong one fails loudly as
/// `wrongCode` on both sides and the host goes on, an open game runs on the public code, and the wire shows neither
/// names nor code.
final class PairedTransportTests: XCTestCase {

    /// A host on `code` that records each connection's hint and its secure failures (with the address).
    private final class PairedHost: Sendable {
        let hints: Recorder<String>
        let failures: Recorder<String>
        let security: HostSecurity

        init(code: GameCode) {
            let (hints, failures) = (Recorder<String>(), Recorder<String>())
            self.hints = hints
            self.failures = failures
            security = .tlsPSK(
                SecureHost(
                    makeExchange: {
                        let exchange = try PairedHostExchange(code: code)
                        hints.append(exchange.hint())
                        return exchange
                    },
                    onFailure: { remote, error in failures.append("\(remote) \(error)") }))
        }
    }

    private func connection(
        _ endpoint: Endpoint, name: String, code: GameCode, states: Recorder<ConnectionState>? = nil
    ) -> GameConnection {
        GameConnection(
            to: endpoint, localName: name,
            configuration: .init(
                connectTimeout: .seconds(10), timeouts: testTimeouts(), clock: ContinuousClock(), security: .tlsPSK(.pairing(code: code))),
            onStateChange: { states?.append($0) })
    }

    // MARK: The exchange alone

    func testBothSidesDeriveTheSameKeyOnTheSameCodeAndDifferentKeysOnAnother() throws {
        let host = try PairedHostExchange(code: code)
        let hint = host.hint()
        XCTAssertNil(PSKText.problem(with: hint), "the hint fits a TLS PSK hint")
        XCTAssertEqual(hint.utf8.count, HostHint.encodedLength)

        let (identity, joinerKey) = try PairedJoinerExchange(code: code).identityAndKey(forHint: hint)
        XCTAssertNil(PSKText.problem(with: identity), "the identity fits a TLS PSK identity")
        XCTAssertEqual(identity.utf8.count, JoinerIdentity.encodedLength)
        let hostKey = try host.key(forIdentity: identity)
        XCTAssertEqual(hostKey.count, Pairing.pskByteCount)
        XCTAssertEqual(hostKey, joinerKey)
        // The pairing finishes once: a second identity on the same connection is refused.
        XCTAssertThrowsError(try host.key(forIdentity: identity))

        let other = try PairedHostExchange(code: code)
        let (wrongIdentity, wrongKey) = try PairedJoinerExchange(code: otherCode).identityAndKey(forHint: other.hint())
        XCTAssertNotEqual(try other.key(forIdentity: wrongIdentity), wrongKey, "another code, another key")

        let open = try PairedHostExchange(code: .open)
        let (openIdentity, openKey) = try PairedJoinerExchange(code: .open).identityAndKey(forHint: open.hint())
        XCTAssertEqual(try open.key(forIdentity: openIdentity), openKey)
    }

    func testMalformedHintsAndIdentitiesAreRefusedAndNothingShowsTheCode() throws {
        let host = try PairedHostExchange(code: code)
        XCTAssertThrowsError(try host.key(forIdentity: "joiner")) { error in
            guard case PairingError.malformedIdentity = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try PairedJoinerExchange(code: code).identityAndKey(forHint: "test-session-1")) { error in
            guard case PairingError.malformedHint = error else { return XCTFail("\(error)") }
        }
        let joiner = PairedJoinerExchange(code: code)
        var dumped = ""
        dump(joiner, to: &dumped)
        for text in ["\(joiner)", String(reflecting: joiner), dumped, "\(host)", String(reflecting: host)] {
            XCTAssertFalse(text.contains("314159"), text)
        }
    }

    // MARK: On loopback

    func testTheRightCodePlaysAMatchInsideTLS() async throws {
        let host = PairedHost(code: code)
        let hostSessions = Recorder<MatchSession>()
        let listener = try await RunningListener(hostName: "Host", security: host.security) { link in
            XCTAssertEqual(link.stats.secureSession, expectedSession)
            hostSessions.append(await playScriptedMatch(.host, moves: [3, 4], over: &link))
            return .keepListening
        }
        let states = Recorder<ConnectionState>()
        let joiner = connection(listener.endpoint, name: "Joiner", code: try GameCode(parsing: "314 159"), states: states)
        let (session, security) = try await playJoinerSide(of: joiner, "the paired match")
        XCTAssertEqual(session.end, .completed(by: .local))
        XCTAssertEqual(session.score, MatchSession.Score(localWins: 1))
        XCTAssertEqual(security, expectedSession)
        XCTAssertEqual(states.all, [.preparing, .ready(peerName: "Host"), .cancelled])
        await assertEventually("the host's match") { hostSessions.all.count == 1 }
        XCTAssertEqual(hostSessions.all.first?.score, MatchSession.Score(peerWins: 1))
        XCTAssertEqual(listener.pairingFailures, [])
        XCTAssertEqual(host.failures.all, [])
        await listener.stop()
    }

    func testAWrongCodeFailsAsWrongCodeTheHostNamesTheJoinersAddressAndTheRightCodeGetsInNext() async throws {
        let host = PairedHost(code: code)
        let matches = Recorder<String>()
        let listener = try await RunningListener(security: host.security) { link in
            matches.append(link.peerName)
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
        // Through a relay, so that the test knows the address the host sees: the relay's side of the connection.
        let relay = try await RecordingRelay(to: listener.port)
        for (attempt, wrong) in [otherCode, GameCode.open].enumerated() {  // a wrong code, then none (the open code)
            let states = Recorder<ConnectionState>()
            let guesser = connection(
                Endpoint(host: loopback, port: relay.port), name: "Guesser", code: wrong, states: states)
            do {
                _ = try await within(20, "the wrong code to fail") {
                    try await guesser.run { _ in XCTFail("a wrong code got in") }
                }
                XCTFail("no error")
            } catch {
                XCTAssertEqual(error as? ConnectionError, .wrongCode, "\(error)")
            }
            XCTAssertEqual(states.all.last, .failed(.wrongCode))
            await assertEventually("the host's report of attempt \(attempt + 1)") {
                listener.events.all.compactMap(\.pairingFailure).count == attempt + 1
            }
        }
        let reported = listener.events.all.compactMap(\.pairingFailure)
        XCTAssertEqual(reported.map(\.reason), [.wrongCode, .wrongCode])
        XCTAssertEqual(reported.map(\.remote), relay.addressesTowardsHost, "each failed attempt names its source")
        XCTAssertEqual(Set(reported.map(\.remote)).count, 2)
        XCTAssertEqual(
            host.failures.all, relay.addressesTowardsHost.map { "\($0) \(SecureChannelError.keyMismatch)" })
        XCTAssertEqual(listener.handshakeFailures, [])
        XCTAssertEqual(PairingFailure(.keyMismatch).description, "wrong code")
        XCTAssertTrue(ConnectionError.wrongCode.description.hasPrefix("wrong code"), ConnectionError.wrongCode.description)

        // The listener goes on: the right code gets in.
        let friend = connection(listener.endpoint, name: "Friend", code: code)
        let first = try await within(20, "the right code") { try await friend.run { link in try await link.next() } }
        XCTAssertEqual(first, .bye(.seriesOver))
        await assertEventually { matches.all == ["Friend"] }
        await relay.stop()
        await listener.stop()
    }

    func testOnTheRealPairingASpectatorIsRejectedAndAV2PlayerIsAccepted() async throws {
        let host = PairedHost(code: code)
        let matches = Recorder<String>()
        let listener = try await RunningListener(hostName: "Host", security: host.security) { link in
            matches.append(link.peerName)
            _ = await readUntilClosed(&link)
            return .keepListening
        }
        let refused = try await withSecureGameClient(port: listener.port, joiner: .pairing(code: code)) { client in
            try await client.send(.hello(version: 2, name: "Watcher", role: .spectator))
            return try await client.readToEnd()
        }
        XCTAssertEqual(refused, [.reject(reason: .badHello, text: "this host takes no spectators (its player can allow them: --spectators N)")])
        let (accepted, session) = try await withSecureGameClient(port: listener.port, joiner: .pairing(code: code)) {
            client in
            try await client.send(.hello(version: 2, name: "Player", role: .player))
            return (try await client.next(), client.stats.secureSession)
        }
        XCTAssertEqual(accepted, .accept(version: 2, name: "Host"))
        XCTAssertEqual(session, expectedSession)
        await assertEventually { matches.all == ["Player"] }
        XCTAssertEqual(host.failures.all, [], "both pairings succeeded")
        XCTAssertEqual(listener.pairingFailures, [])
        await listener.stop()
    }

    func testAnOpenGameConnectsOnThePublicCodeAndAPrivateCodeDoesNotGetIntoIt() async throws {
        let listener = try await RunningListener(hostName: "Open", security: .tlsPSK(.pairing(code: .open))) { link in
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
        let joiner = connection(listener.endpoint, name: "Anyone", code: .open)
        let (first, security) = try await within(20, "the open game") {
            try await joiner.run { link in (try await link.next(), link.stats.secureSession) }
        }
        XCTAssertEqual(first, .bye(.seriesOver))
        XCTAssertEqual(security, expectedSession)

        let stray = connection(listener.endpoint, name: "Stray", code: code)
        do {
            _ = try await within(20, "a private code on an open game") { try await stray.run { _ in XCTFail("in") } }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? ConnectionError, .wrongCode, "\(error)")
        }
        await assertEventually { listener.pairingFailures == [.wrongCode] }
        await listener.stop()
    }

    func testTheWireCarriesNeitherNamesNorTheCodeInClearAndEachConnectionHasItsOwnHint() async throws {
        let host = PairedHost(code: code)
        let listener = try await RunningListener(hostName: "SecretHostName", security: host.security) { link in
            _ = await playScriptedMatch(.host, moves: [3, 4], over: &link)
            return .keepListening
        }
        let relay = try await RecordingRelay(to: listener.port)
        let joiner = connection(Endpoint(host: loopback, port: relay.port), name: "SecretJoinerName", code: code)
        let session = try await within(20, "the relayed match") {
            try await joiner.run { link in await playScriptedMatch(.joiner, moves: [0, 1, 2], over: &link) }
        }
        XCTAssertEqual(session.end, .completed(by: .local))
        await assertEventually { relay.isDone }

        let wire = relay.bytesToHost + relay.bytesToJoiner
        XCTAssertEqual(relay.bytesToHost.first, 0x16, "TLS from the joiner's first byte")
        XCTAssertEqual(relay.bytesToJoiner.first, 0x16, "TLS from the host's first byte")
        for secret in ["SecretHostName", "SecretJoinerName", "314159", "314 159"] {
            XCTAssertNil(wire.firstRange(of: Array(secret.utf8)), "\(secret) is readable on the wire")
        }
        // What does cross in clear: the host's hint (sid and share) in the ServerKeyExchange.
        let hint = try XCTUnwrap(host.hints.all.first)
        XCTAssertNotNil(relay.bytesToJoiner.firstRange(of: Array(hint.utf8)), "the hint is in the ServerKeyExchange")
        XCTAssertNoThrow(try HostHint(decoding: hint))

        // Each connection gets a fresh sid and share.
        for name in ["Second", "Third"] {
            let next = connection(listener.endpoint, name: name, code: code)
            _ = try await within(20, "\(name)'s match") {
                try await next.run { link in await playScriptedMatch(.joiner, moves: [0, 1, 2], over: &link) }
            }
        }
        let hints = host.hints.all
        XCTAssertEqual(hints.count, 3)
        XCTAssertEqual(Set(hints).count, 3, "each connection has its own hint")
        let sessionIDs = try hints.map { try HostHint(decoding: $0).sessionID }
        XCTAssertEqual(Set(sessionIDs).count, 3, "each connection has its own sid")
        await relay.stop()
        await listener.stop()
    }

    // MARK: Cost (printed, not asserted)

    func testPrintsTheMeanTimeOfACPaceAndTLSJoinOnLoopback() async throws {
        let listener = try await RunningListener(security: .tlsPSK(.pairing(code: code))) { link in
            await link.closeGracefully()
            return .keepListening
        }
        let clock = ContinuousClock()
        let joins = 20
        var total = Duration.zero
        for _ in 0..<joins {
            let joiner = connection(listener.endpoint, name: "Timer", code: code)
            let start = clock.now
            // Connect, CPace inside the TLS 1.2 PSK handshake, hello/accept; then the host closes.
            _ = try await within(20, "a timed join") { try await joiner.run { _ in clock.now } }
            total += clock.now - start
        }
        XCTAssertEqual(listener.pairingFailures, [])
        print("loopback join to accepted (CPace + TLS-PSK v2), mean of \(joins): \(total / joins)")
        await listener.stop()
    }
}
