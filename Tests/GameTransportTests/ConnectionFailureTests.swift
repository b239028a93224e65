import GameWire
import Foundation
import GameProtocol
import GameTransport
@testable import LocalNetworkPrivacy
import NIOCore
import XCTest
import TicTacToeTestSupport

/// `GameConnection` when things go wrong before the match: nobody listening, the gate, cancel, bad hosts.
final class ConnectionFailureTests: XCTestCase {
    private let refused = "connection refused (is the host running?)"

    func testClosedPortWaitsWithBackoffThenFailsAsUnreachable() async throws {
        let port = try await closedPort()
        let states = Recorder<ConnectionState>()
        // The waits between attempts and the connect timeout run on a clock this test advances: no sleeping.
        let clock = ManualClock()
        let connection = GameConnection(
            to: Endpoint(host: loopback, port: port), localName: "Joiner",
            configuration: .init(connectTimeout: .seconds(2), timeouts: testTimeouts(), clock: clock),
            onStateChange: { states.append($0) }
        )
        let run = Task { try await connection.run { _ in XCTFail("connected to a closed port") } }
        // Each refused attempt is followed by a wait on the clock; move the clock by the delay the state gives.
        let advanced = await advanceThroughWaits(states, on: clock) { state in
            guard case .waiting(.peerUnreachable(_, let delay)) = state else { return nil }
            return delay
        }
        do {
            _ = try await run.value
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? ConnectionError, .unreachable(refused))
        }
        // 0.25 + 0.5 + 1 = 1.75 s of waiting, then the last wait is cut short by the 2 s connect timeout.
        XCTAssertEqual(advanced, [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)])
        XCTAssertEqual(connection.state, .failed(.unreachable(refused)))

        let seen = states.all
        XCTAssertEqual(seen.first, .preparing)
        XCTAssertEqual(seen.dropFirst().first, .waiting(.peerUnreachable(refused, retryIn: .milliseconds(250))))
        XCTAssertEqual(seen.last, .failed(.unreachable(refused)))
        let delays = seen.compactMap { state -> Duration? in
            if case .waiting(.peerUnreachable(_, let delay)) = state { return delay }
            return nil
        }
        let backoff: [Duration] = [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2), .seconds(2)]
        XCTAssertEqual(delays, Array(backoff.prefix(delays.count)), "\(seen)")
        // Every wait is followed by another attempt or by the end.
        for (state, next) in zip(seen, seen.dropFirst()) where state.name == "waiting" {
            XCTAssertTrue(next == .preparing || next.isFinal, "\(state) -> \(next)")
        }
    }

    func testCancelWhileWaitingForTheHost() async throws {
        let port = try await closedPort()
        let connection = GameConnection(
            to: Endpoint(host: loopback, port: port), localName: "Joiner",
            configuration: .init(connectTimeout: .seconds(60), timeouts: testTimeouts(), clock: ContinuousClock())
        )
        let run = Task { try await connection.run { _ in XCTFail("connected to a closed port") } }
        await assertEventually("\(connection.state)") { connection.state.name == "waiting" }
        connection.cancel()
        XCTAssertEqual(connection.state, .cancelled)
        do {
            try await within(10, "run to end after cancel") { try await run.value }
            XCTFail("run returned normally")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(connection.state, .cancelled)
        connection.cancel()  // a second cancel is harmless
        XCTAssertEqual(connection.state, .cancelled)
    }

    func testCancelDuringTheMatchEndsIt() async throws {
        let listener = try await RunningListener { link in
            _ = await readUntilClosed(&link)
            return .keepListening
        }
        let connection = GameConnection(
            to: listener.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts(), clock: ContinuousClock())
        )
        let run = Task {
            try await connection.run { link -> GameMessage? in try await link.next() }
        }
        await assertEventually("\(connection.state)") { connection.state == .ready(peerName: "Host") }
        connection.cancel()
        XCTAssertEqual(connection.state, .cancelled)
        _ = try? await within(10, "run to end after cancel") { try await run.value }
        XCTAssertEqual(connection.state, .cancelled)
        await listener.stop()
    }

    func testGateWaitingThenAllowed() async throws {
        let listener = try await RunningListener { link in
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
        let gate = try makeGate(loopbackIsLAN: true)  // a connection to loopback waits like a LAN one
        let notDetermined = LocalNetworkGate.waitingReason(for: .notDetermined)
        let states = Recorder<ConnectionState>()
        let connection = GameConnection(
            to: listener.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts(), clock: ContinuousClock()),
            gate: gate, origin: testOrigin, onStateChange: { states.append($0) }
        )
        let run = Task { try await connection.run { link in try await link.next() } }
        await assertEventually { connection.state == .waiting(.notAllowed(notDetermined)) }
        try gate.store.write(.allowed)  // as `tictactoe privacy grant` would
        let first = try await within(10, "the connection after the gate allowed it") { try await run.value }
        XCTAssertEqual(first, .bye(.seriesOver))
        XCTAssertEqual(
            states.all,
            [
                .preparing, .waiting(.notAllowed(notDetermined)), .preparing,
                .ready(peerName: "Host"), .cancelled,
            ]
        )
        await listener.stop()
    }

    func testCancelWhileTheGateSaysWait() async throws {
        let gate = try makeGate(loopbackIsLAN: true)  // a connection to loopback waits like a LAN one
        let connection = GameConnection(
            to: Endpoint(host: loopback, port: 9), localName: "Joiner", configuration: .init(timeouts: testTimeouts(), clock: ContinuousClock()),
            gate: gate, origin: testOrigin
        )
        let run = Task { try await connection.run { _ in XCTFail("connected without permission") } }
        await assertEventually { connection.state.name == "waiting" }
        connection.cancel()  // ends the wait for the gate at once: nothing else changes
        do {
            try await within(10, "run to end after cancel") { try await run.value }
            XCTFail("run returned normally")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(connection.state, .cancelled)
    }

    func testHostThatNeverAnswersTimesOutTheHandshake() async throws {
        let server = try await ScriptedServer()
        let connection = GameConnection(
            to: server.endpoint, localName: "Joiner",
            configuration: .init(timeouts: testTimeouts(handshake: .milliseconds(300)), clock: ContinuousClock())
        )
        let expected = ConnectionError.timedOut("no handshake from the peer within 0.3 s")
        do {
            _ = try await within(10, "the handshake timeout") {
                try await connection.run { _ in XCTFail("no accept was sent") }
            }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? ConnectionError, expected)
        }
        XCTAssertEqual(connection.state, .failed(expected))
        // The host got our hello, then our error frame.
        await assertEventually("\(server.frames)") { server.frames.count == 2 }
        XCTAssertEqual(
            server.frames,
            [
                .hello(version: 1, name: "Joiner"),
                .error(code: .handshakeTimeout, text: "no handshake from the peer within 0.3 s"),
            ]
        )
        await server.stop()
    }

    func testHostAnsweringSomethingElseThanAcceptIsAProtocolViolation() async throws {
        var reply = ByteBuffer()
        reply.writeGameMessage(.start(game: 1, joinerMark: .x, firstMover: .x))
        let server = try await ScriptedServer(reply: Array(reply.readableBytesView))
        let connection = GameConnection(
            to: server.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts(), clock: ContinuousClock())
        )
        do {
            _ = try await within(10, "the handshake") { try await connection.run { _ in XCTFail("not accepted") } }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? ConnectionError, .protocolViolation("expected accept, got start"))
        }
        await assertEventually { server.frames.count == 2 }
        XCTAssertEqual(server.frames.last, .error(code: .unexpectedMessage, text: "expected accept, got start"))
        await server.stop()
    }

    func testHostSendingGarbageIsAProtocolViolation() async throws {
        let server = try await ScriptedServer(reply: Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
        let connection = GameConnection(
            to: server.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts(), clock: ContinuousClock())
        )
        let tooLong = GameProtocolError.frameTooLong(length: 0x4854, maximum: 512)  // "HT"
        do {
            _ = try await within(10, "the handshake") { try await connection.run { _ in XCTFail("not accepted") } }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? ConnectionError, .protocolViolation("\(tooLong)"))
        }
        await assertEventually { server.frames.count == 2 }
        XCTAssertEqual(server.frames.last, .error(code: .badFrameLength, text: "\(tooLong)"))
        await server.stop()
    }

    func testHostClosingDuringTheHandshake() async throws {
        let server = try await ScriptedServer(closeAfterReply: true)
        let connection = GameConnection(
            to: server.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts(), clock: ContinuousClock())
        )
        do {
            _ = try await within(10, "the handshake") { try await connection.run { _ in XCTFail("not accepted") } }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? ConnectionError, .closedDuringHandshake)
        }
        XCTAssertEqual(connection.state, .failed(.closedDuringHandshake))
        await server.stop()
    }

    func testHostReportingAnErrorDuringTheHandshake() async throws {
        var reply = ByteBuffer()
        reply.writeGameMessage(.error(code: .unexpectedMessage, text: "nope"))
        let server = try await ScriptedServer(reply: Array(reply.readableBytesView), closeAfterReply: true)
        let connection = GameConnection(
            to: server.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts(), clock: ContinuousClock())
        )
        do {
            _ = try await within(10, "the handshake") { try await connection.run { _ in XCTFail("not accepted") } }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? ConnectionError, .peerError("unexpected-message: nope"))
        }
        await server.stop()
    }
}
