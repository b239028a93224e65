import Foundation
import GameProtocol
import GameTransport
import NIOCore
import XCTest
import TicTacToeTestSupport

/// `GameConnection` when things go wrong before the match: nobody listening, the gate, cancel, bad hosts.
final class ConnectionFailureTests: XCTestCase {
    private let refused = "connection refused (is the host running?)"

    func testClosedPortWaitsWithBackoffThenFailsAsUnreachable() async throws {
        let port = try await closedPort()
        let states = Recorder<ConnectionState>()
        let connection = GameConnection(
            to: Endpoint(host: loopback, port: port), localName: "Joiner",
            configuration: .init(connectTimeout: .seconds(2), timeouts: testTimeouts()),
            onStateChange: { states.append($0) }
        )
        do {
            _ = try await within(10, "the connection to give up") {
                try await connection.run { _ in XCTFail("connected to a closed port") }
            }
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? ConnectionError, .unreachable(refused))
        }
        XCTAssertEqual(connection.state, .failed(.unreachable(refused)))

        let seen = states.all
        XCTAssertEqual(seen.first, .preparing)
        XCTAssertEqual(seen.dropFirst().first, .waiting(.peerUnreachable(refused, retryIn: 0.25)))
        XCTAssertEqual(seen.last, .failed(.unreachable(refused)))
        let delays = seen.compactMap { state -> Double? in
            if case .waiting(.peerUnreachable(_, let delay)) = state { return delay }
            return nil
        }
        XCTAssertEqual(delays, Array([0.25, 0.5, 1, 2, 2, 2].prefix(delays.count)), "\(seen)")
        // Every wait is followed by another attempt or by the end.
        for (state, next) in zip(seen, seen.dropFirst()) where state.name == "waiting" {
            XCTAssertTrue(next == .preparing || next.isFinal, "\(state) -> \(next)")
        }
    }

    func testCancelWhileWaitingForTheHost() async throws {
        let port = try await closedPort()
        let connection = GameConnection(
            to: Endpoint(host: loopback, port: port), localName: "Joiner",
            configuration: .init(connectTimeout: .seconds(60), timeouts: testTimeouts())
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
            to: listener.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts())
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
        let gate = TestGate()
        let states = Recorder<ConnectionState>()
        let connection = GameConnection(
            to: listener.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts()),
            gate: gate, onStateChange: { states.append($0) }
        )
        let run = Task { try await connection.run { link in try await link.next() } }
        await assertEventually { connection.state == .waiting(.notAllowed("no local network permission")) }
        XCTAssertEqual(gate.evaluated.all.first, listener.endpoint)
        gate.allow()
        let first = try await within(10, "the connection after the gate allowed it") { try await run.value }
        XCTAssertEqual(first, .bye(.seriesOver))
        XCTAssertEqual(
            states.all,
            [
                .preparing, .waiting(.notAllowed("no local network permission")), .preparing,
                .ready(peerName: "Host"), .cancelled,
            ]
        )
        await listener.stop()
    }

    func testCancelWhileTheGateSaysWait() async throws {
        let gate = TestGate()
        let connection = GameConnection(
            to: Endpoint(host: loopback, port: 9), localName: "Joiner", configuration: .init(timeouts: testTimeouts()),
            gate: gate
        )
        let run = Task { try await connection.run { _ in XCTFail("connected without permission") } }
        await assertEventually { connection.state.name == "waiting" }
        connection.cancel()
        gate.poke()  // the gate says something changed; the connection notices it was cancelled
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
            configuration: .init(timeouts: testTimeouts(handshake: .milliseconds(300)))
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
            to: server.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts())
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
            to: server.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts())
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
            to: server.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts())
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
            to: server.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts())
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

/// A gate that says wait until `allow()`, like a local network permission prompt the user answers later.
final class TestGate: ConnectionGate, @unchecked Sendable {
    private let lock = NSLock()
    private var allowed = false
    private var continuations: [AsyncStream<Void>.Continuation] = []
    let evaluated = Recorder<Endpoint>()

    func evaluate(_ endpoint: Endpoint) async -> GateDecision {
        evaluated.append(endpoint)
        return decision()
    }

    private func decision() -> GateDecision {
        lock.lock()
        defer { lock.unlock() }
        return allowed ? .allow : .wait("no local network permission")
    }

    func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        lock.lock()
        continuations.append(continuation)
        lock.unlock()
        return stream
    }

    func allow() {
        lock.lock()
        allowed = true
        lock.unlock()
        poke()
    }

    /// Tells waiters that something may have changed.
    func poke() {
        lock.lock()
        let waiting = continuations
        lock.unlock()
        waiting.forEach { $0.yield() }
    }
}
