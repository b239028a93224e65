import AppCore
import Foundation
import GameClient
import GameProtocol
import GameTransport
import GameWire
import HeadlessUI
import MatchPlay
import NIOCore
import TicTacToeTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

@testable import LocalNetworkPrivacy

/// A host in process (`hostMatches`, plaintext on 127.0.0.1, reporting as `--json` does) facing joiners that break
/// the rules, send garbage, vanish or fall silent: each gets its error frame or is let go, the host says how the
/// match ended, and the next joiner still plays. And a joiner (`joinMatch`) whose host vanishes mid-match: exit 3,
/// "the opponent left".
final class MisbehavingPeerHostTests: XCTestCase {
    private let origin = OperationOrigin("misbehaving peer tests")
    /// The hosts started, to stop one that would keep serving.
    private let hosts = Recorder<LoopbackHost>()

    /// A plaintext host of one-game matches on 127.0.0.1 that stops after one completed match.
    private func startHost(timeouts: ConnectionTimeouts = .default, moveDelay: Duration = .zero,
                           clock: any Clock<Duration> = ContinuousClock()) async throws -> LoopbackHost {
        let gate = try makeGate(.notDetermined)  // loopback: never asked
        let request = HostRequest(target: .address("127.0.0.1"), port: 0, matches: 1, advertise: false, origin: origin,
                                  security: .plaintext)
        let options = MatchOptions(name: "host", player: .perfect, seed: 1, games: 1, timeouts: timeouts,
                                   moveDelay: moveDelay, clock: clock)
        let host = try await LoopbackHost.start(request, options: options, gate: gate)
        hosts.append(host)
        return host
    }

    /// A protocol 1 joiner that completes its handshake, then does `body` instead of playing and reads every frame
    /// the host sends until it closes or the link fails (the start of game 1 first).
    private func misbehave(
        port: Int, _ body: @escaping @Sendable (inout PeerLink) async throws -> Void = { _ in }
    ) async throws -> [GameMessage] {
        let connection = GameConnection(
            to: Endpoint(host: "127.0.0.1", port: port), localName: "raw",
            configuration: .init(clock: ContinuousClock()), gate: try makeGate(.notDetermined), origin: origin)
        return try await connection.run { link in
            try await body(&link)
            var frames: [GameMessage] = []
            while let message = (try? await link.next()) ?? nil { frames.append(message) }
            return frames
        }
    }

    /// A well-behaved joiner plays the host's one game, and the host, its one match completed, ends with success.
    private func assertTheNextJoinerPlays(_ host: LoopbackHost, file: StaticString = #filePath, line: UInt = #line)
        async throws
    {
        let json = JSONSide()
        let request = JoinRequest(
            target: try JoinTarget(parsing: "127.0.0.1:\(host.port)"), connectTimeout: .seconds(10), origin: origin,
            security: .plaintext)
        let status = await joinMatch(
            request, options: MatchOptions(name: "next", player: .easy, seed: 1, games: nil, clock: ContinuousClock()),
            gate: try makeGate(.notDetermined), reporter: json.reporter)
        XCTAssertEqual(status, .success, "\(json.lines.all)", file: file, line: line)
        XCTAssertEqual(json.events(named: "summary").last?["games"] as? Int, 1, file: file, line: line)
        let hostStatus = await host.task.value
        XCTAssertEqual(hostStatus, .success, "\(host.json.lines.all)", file: file, line: line)
    }

    /// How each match the host served ended (`match-over`'s `end`).
    private func ends(_ host: LoopbackHost) -> [String] {
        host.json.events(named: "match-over").compactMap { $0["end"] as? String }
    }

    func testGarbageBeforeTheHandshakeIsReportedAndTheHostServesTheNextJoiner() async throws {
        let host = try await startHost()
        // An HTTP request where a hello belongs: the listener answers it with an error frame and shuts its side; the
        // client reads the answer to its end, as an HTTP client does, and closes.
        let socket = try connectToLoopback(port: host.port)
        let request = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        XCTAssertEqual(request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) },
                       request.count)
        var answer = ByteBuffer(bytes: readToEnd(socket))
        close(socket)
        var decoder = GameMessageDecoder()
        guard case .error(let code, _)? = try decoder.decode(buffer: &answer) else {
            return XCTFail("no error frame: \(answer.readableBytesView)")
        }
        XCTAssertEqual(code, .badFrameLength)
        XCTAssertEqual(answer.readableBytes, 0, "nothing after the error frame")
        await assertEventually("\(host.json.lines.all)") { !host.json.events(named: "peer-failed").isEmpty }
        let failed = try XCTUnwrap(host.json.events(named: "peer-failed").first)
        XCTAssertTrue((failed["error"] as? String ?? "").contains("exceeds the maximum"), "\(failed)")
        XCTAssertTrue(host.json.events(named: "match-over").isEmpty, "a peer that failed its handshake had no match")
        try await assertTheNextJoinerPlays(host)
    }

    func testAMoveToAnOccupiedCellOrOutOfRangeGetsItsErrorAndTheHostServesTheNextJoiner() async throws {
        let host = try await startHost()
        // We are X in game 1: we take the centre, then the cell the host answered with.
        let occupied = try await misbehave(port: host.port) { link in
            guard case .start(1, .x, .x)? = try await link.next() else { return XCTFail("no start of game 1 as X") }
            try await link.send(.move(cell: 4))
            guard case .move(let reply)? = try await link.next() else { return XCTFail("the host did not move") }
            try await link.send(.move(cell: reply))
        }
        guard case .error(let code, _)? = occupied.last else { return XCTFail("no error frame: \(occupied)") }
        XCTAssertEqual(code, .cellOccupied)

        let outOfRange = try await misbehave(port: host.port) { link in
            guard case .start? = try await link.next() else { return XCTFail("no start") }
            try await link.send(.move(cell: 9))
        }
        guard case .error(let rangeCode, _)? = outOfRange.last else { return XCTFail("no error frame: \(outOfRange)") }
        XCTAssertEqual(rangeCode, .moveOutOfRange)
        XCTAssertEqual(ends(host), ["peer-violation", "peer-violation"])
        try await assertTheNextJoinerPlays(host)
    }

    func testAMoveOutOfTurnGetsAnErrorAndEndsTheMatchAsAViolation() async throws {
        // The host's pause before its move never ends (its clock stands still): our second move comes in its turn.
        let host = try await startHost(moveDelay: .seconds(1), clock: ManualClock())
        let frames = try await misbehave(port: host.port) { link in
            guard case .start(1, .x, .x)? = try await link.next() else { return XCTFail("no start of game 1 as X") }
            try await link.send(.move(cell: 0))
            try await link.send(.move(cell: 1))
        }
        guard case .error(let code, let text)? = frames.last else { return XCTFail("no error frame: \(frames)") }
        XCTAssertEqual(code, .notYourTurn, text)
        await assertEventually("\(host.json.lines.all)") { ends(host) == ["peer-violation"] }
        for listener in hosts.all.flatMap(\.listeners.all) { listener.stop() }
        _ = await host.task.value
    }

    func testAJoinerThatVanishesForfeitsAndTheHostServesTheNextJoiner() async throws {
        let host = try await startHost()
        // Its connection closes mid-game without a goodbye, as a killed process's does.
        _ = try await misbehave(port: host.port) { link in
            guard case .start? = try await link.next() else { return XCTFail("no start") }
            link.writer.closeNow()
        }
        await assertEventually("\(host.json.lines.all)") { ends(host) == ["peer-left"] }
        XCTAssertEqual(host.json.events(named: "game-over").last?["reason"] as? String, "forfeit")
        try await assertTheNextJoinerPlays(host)
    }

    func testAJoinerThatFallsSilentIsLetGoByTheHeartbeat() async throws {
        // Short heartbeat: a ping every 0.1 s, silence after 0.8 s.
        let timeouts = ConnectionTimeouts(
            handshake: .seconds(5), pingInterval: .milliseconds(100), silence: .milliseconds(800),
            linger: .milliseconds(500))
        let host = try await startHost(timeouts: timeouts)
        // A socket that says hello and then nothing, reading nothing: a stopped process's.
        let socket = try connectToLoopback(port: host.port)
        defer { close(socket) }
        var hello = ByteBuffer()
        hello.writeGameMessage(.hello(version: 1, name: "mute"))
        let bytes = Array(hello.readableBytesView)
        XCTAssertEqual(bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) },
                       bytes.count)
        await assertEventually("\(host.json.lines.all)") { !ends(host).isEmpty }
        let over = try XCTUnwrap(host.json.events(named: "match-over").first)
        XCTAssertEqual(over["end"] as? String, "peer-timeout")
        XCTAssertTrue((over["detail"] as? String ?? "").hasPrefix("connection lost: nothing heard from the peer for "),
                      "\(over)")
        for listener in hosts.all.flatMap(\.listeners.all) { listener.stop() }
        _ = await host.task.value
    }

    func testAHostThatVanishesMidMatchEndsTheJoinWithExit3() async throws {
        let gate = try makeGate(.notDetermined)
        guard case .granted(let capability) = gate.listen(on: .address("127.0.0.1"), for: origin) else {
            return XCTFail("loopback was not cleared")
        }
        // A host that starts game 1 and closes without a goodbye, as a killed process's connection does.
        let listener = GameListener(capability: capability, port: 0, hostName: "host", clock: ContinuousClock())
        let events = Recorder<GameListener.Event>()
        let hosting = Task {
            try await listener.run(onEvent: { events.append($0) }, onMatch: { link in
                try? await link.send(.start(game: 1, joinerMark: .o, firstMover: .x))
                link.writer.closeNow()
                return .stop
            })
        }
        func bound() -> Int? {
            for case .listening(_, let port) in events.all { return port }
            return nil
        }
        await assertEventually("the host to listen") { bound() != nil }
        let port = try XCTUnwrap(bound())
        let (out, errors) = (Recorder<String>(), Recorder<String>())
        let transcript = TranscriptReporter(
            localName: "joiner", target: "127.0.0.1", write: { out.append($0) }, writeError: { errors.append($0) })
        let request = JoinRequest(
            target: try JoinTarget(parsing: "127.0.0.1:\(port)"), connectTimeout: .seconds(10), origin: origin,
            security: .plaintext)
        let status = await joinMatch(
            request,
            options: MatchOptions(name: "joiner", player: .perfect, seed: 1, games: nil, clock: ContinuousClock()),
            gate: gate,
            reporter: transcript)
        XCTAssertEqual(status, .peerLeft)
        XCTAssertEqual(status.rawValue, 3)
        XCTAssertTrue(out.all.contains { $0.hasPrefix("Game 1") }, "\(out.all)")
        XCTAssertTrue(out.all.contains { $0.contains("left") }, "\(out.all)")
        XCTAssertTrue(errors.all.joined(separator: "\n").contains("the opponent left"), "\(errors.all)")
        listener.stop()
        try await hosting.value
    }
}

/// What the peer sends on `socket` until it shuts its side (at most 5 s of real time: the bound of a broken test).
private func readToEnd(_ socket: Int32) -> [UInt8] {
    var bound = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1024)
    while true {
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { return bytes }
        bytes += chunk[..<count]
    }
}
