import GameProtocol
import GameTransport
import NIOCore
import XCTest
import TicTacToeTestSupport

/// Liveness after the handshake: pings every interval, pongs echo the value, silence ends the connection.
final class HeartbeatTests: XCTestCase {
    // Short enough to be quick, long enough that a loaded machine still sends `accept` before the silence runs out.
    private let fast = testTimeouts(pingInterval: .milliseconds(100), silence: .milliseconds(800))

    func testPeerThatStopsAnsweringIsDroppedWithHeartbeatTimeout() async throws {
        let hostErrors = Recorder<Error?>()
        let listener = try await RunningListener(hostName: "Host", timeouts: fast) { link in
            hostErrors.append(await readUntilClosed(&link))
            return .keepListening
        }
        let started = ContinuousClock.now
        let frames = try await withRawClient(port: listener.port) { client in
            try await client.send(.hello(version: 1, name: "Mute"))
            return try await client.readToEnd()  // never answers a ping
        }
        let elapsed = ContinuousClock.now - started

        XCTAssertEqual(frames.first, .accept(version: 1, name: "Host"))
        guard case .error(.heartbeatTimeout, let text)? = frames.last else {
            return XCTFail("the last frame is not error(heartbeat-timeout): \(frames)")
        }
        XCTAssertTrue(text.hasPrefix("nothing heard from the peer for "), text)
        XCTAssertTrue(text.hasSuffix(" s"), text)
        let pings = frames.dropFirst().dropLast().map { frame -> UInt64? in
            if case .ping(let value) = frame { return value }
            return nil
        }
        XCTAssertFalse(pings.contains(nil), "only pings between accept and error: \(frames)")
        let values = pings.compactMap { $0 }
        XCTAssertEqual(values, values.sorted(), "ping values are a monotonic clock")
        XCTAssertEqual(Set(values).count, values.count)
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(800))
        XCTAssertLessThan(elapsed, .seconds(10))

        await assertEventually { hostErrors.all.count == 1 }
        guard case .peerSilent? = hostErrors.all.first.flatMap({ $0 }) as? LivenessError else {
            return XCTFail("host saw \(String(describing: hostErrors.all.first))")
        }
        await listener.stop()
    }

    func testPingIsAnsweredWithPongEchoingTheValue() async throws {
        // The host's own pings are slow enough not to come between our pings and their pongs.
        let quiet = testTimeouts(pingInterval: .seconds(30), silence: .seconds(60))
        let listener = try await RunningListener(hostName: "Host", timeouts: quiet) { link in
            _ = await readUntilClosed(&link)
            return .keepListening
        }
        let answers = try await withRawClient(port: listener.port) { client -> [GameMessage?] in
            try await client.send(.hello(version: 1, name: "Prober"))
            var answers = [try await client.next()]
            for value: UInt64 in [0, 42, .max] {
                try await client.send(.ping(value))
                answers.append(try await client.next())
            }
            return answers
        }
        XCTAssertEqual(answers, [.accept(version: 1, name: "Host"), .pong(0), .pong(42), .pong(.max)])
        await listener.stop()
    }

    func testWellBehavedLinkMeasuresRoundTrips() async throws {
        let timeouts = testTimeouts(pingInterval: .milliseconds(100), silence: .seconds(5))
        let hostSaw = Recorder<GameMessage>()
        let hostPongs = Recorder<Int>()
        let listener = try await RunningListener(hostName: "Host", timeouts: timeouts) { link in
            let stats = link.stats
            _ = await eventually { stats.pongCount >= 3 }
            hostPongs.append(stats.pongCount)
            try? await link.send(.bye(.seriesOver))
            _ = await readUntilClosed(&link, messages: hostSaw)
            return .keepListening
        }
        let connection = GameConnection(
            to: listener.endpoint, localName: "Joiner", configuration: .init(timeouts: timeouts, clock: ContinuousClock())
        )
        let (first, pongs, roundTrip) = try await connection.run { link -> (GameMessage?, Int, Duration?) in
            // Pings and pongs are handled in the pipeline: the first frame the match code sees is the host's bye.
            let first = try await link.next()
            let stats = link.stats
            _ = await eventually { stats.pongCount >= 3 }
            return (first, stats.pongCount, stats.lastRoundTrip)
        }
        XCTAssertEqual(first, .bye(.seriesOver))
        XCTAssertGreaterThanOrEqual(pongs, 3)
        let rtt = try XCTUnwrap(roundTrip)
        XCTAssertGreaterThanOrEqual(rtt, .zero)
        XCTAssertLessThan(rtt, .seconds(10))
        XCTAssertEqual(connection.state, .cancelled)

        await assertEventually { hostPongs.all.count == 1 }
        XCTAssertGreaterThanOrEqual(hostPongs.all.first ?? 0, 3)
        XCTAssertEqual(hostSaw.all, [], "no ping or pong reached the host's match code either")
        await listener.stop()
    }

    func testStatsStartEmpty() {
        let stats = ConnectionStats()
        XCTAssertNil(stats.lastRoundTrip)
        XCTAssertEqual(stats.pongCount, 0)
    }

    func testDefaultTimeouts() {
        let timeouts = ConnectionTimeouts.default
        XCTAssertEqual(timeouts.handshake, .seconds(5))
        XCTAssertEqual(timeouts.pingInterval, .seconds(1))
        XCTAssertEqual(timeouts.silence, .milliseconds(3500))
        XCTAssertEqual(timeouts.linger, .seconds(2))
        XCTAssertLessThan(timeouts.pingInterval + timeouts.silence, .seconds(5))
    }

    func testLivenessErrorDescriptions() {
        XCTAssertEqual("\(LivenessError.handshakeTimeout(.seconds(5)))", "no handshake from the peer within 5 s")
        XCTAssertEqual("\(LivenessError.handshakeTimeout(.milliseconds(300)))", "no handshake from the peer within 0.3 s")
        XCTAssertEqual("\(LivenessError.peerSilent(.seconds(4)))", "nothing heard from the peer for 4 s")
    }
}
