import GameProtocol
import GameTransport
import NIOCore
import TicTacToeTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Connections that have not sent their hello yet: idle, trickling or flooding sockets must not keep a joiner out.
/// The handshake deadline is a minute here, so that nothing in these tests is settled by it.
final class PreHelloConnectionTests: XCTestCase {
    private let patient = testTimeouts(handshake: .seconds(60))

    /// The first byte of a hello frame: a peer that trickles its hello.
    private let firstByteOfAHello: [UInt8] = [0x00]

    private func waitUntilAwaitingHello(_ listener: RunningListener, _ count: Int, file: StaticString = #filePath,
                                        line: UInt = #line) async {
        await assertEventually("\(listener.listener.connectionsAwaitingHello) awaiting hello", file: file, line: line) {
            listener.listener.connectionsAwaitingHello == count
        }
    }

    func testIdleAndTricklingSocketsDoNotBlockAJoiner() async throws {
        let matches = Recorder<String>()
        let listener = try await RunningListener(timeouts: patient) { link in
            matches.append(link.peerName)
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
        var sockets: [IdleSocket] = []
        for index in 0..<15 {
            let socket = try IdleSocket(port: listener.port)
            if index >= 10 { try socket.send(firstByteOfAHello) }
            sockets.append(socket)
        }
        await waitUntilAwaitingHello(listener, 15)

        // The joiner's clock never moves: had it been told busy it would wait forever, and the test would time out.
        let states = Recorder<ConnectionState>()
        let connection = GameConnection(
            to: listener.endpoint, localName: "Joiner",
            configuration: .init(connectTimeout: .seconds(10), timeouts: testTimeouts(), clock: ManualClock()),
            onStateChange: { states.append($0) }
        )
        let first = try await within(10, "the joiner's match") {
            try await connection.run { link in try await link.next() }
        }
        XCTAssertEqual(first, .bye(.seriesOver))
        XCTAssertEqual(states.all, [.preparing, .ready(peerName: "Host"), .cancelled])
        await assertEventually { matches.all == ["Joiner"] }

        // The 15 are still there, still waiting for their hello, and nobody was told busy.
        XCTAssertEqual(listener.listener.connectionsAwaitingHello, 15)
        XCTAssertFalse(sockets.contains { $0.isClosedByPeer() })
        XCTAssertFalse(listener.events.all.contains(where: \.isRejectedBusy))
        XCTAssertEqual(listener.handshakeFailures, [])
        await listener.stop()
    }

    func testTheFirstValidHelloGetsTheMatchNotTheFirstConnection() async throws {
        let release = Flag()
        let listener = try await RunningListener(hostName: "Host", timeouts: patient) { link in
            XCTAssertEqual(link.peerName, "Second")
            _ = await eventually(timeout: 30) { release.isSet }
            return .keepListening
        }
        let answers = try await withRawClient(port: listener.port) { early -> [GameMessage] in
            await waitUntilAwaitingHello(listener, 1)
            let late = try await withRawClient(port: listener.port) { late -> GameMessage? in
                await waitUntilAwaitingHello(listener, 2)
                // The connection that came second says hello first: it gets the match.
                try await late.send(.hello(version: 1, name: "Second"))
                return try await late.next()
            }
            XCTAssertEqual(late, .accept(version: 1, name: "Host"))
            try await early.send(.hello(version: 1, name: "First"))
            return try await early.readToEnd()
        }
        XCTAssertEqual(answers, [.reject(reason: .busy, text: "Host is already playing a game; try again later")])
        release.set()
        await listener.stop()
    }

    func testTooManyConnectionsWithoutAHelloCloseTheOldest() async throws {
        let listener = try await RunningListener(timeouts: patient, maximumPendingHandshakes: 3) { link in
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
        var sockets: [IdleSocket] = []
        for count in 1...3 {
            sockets.append(try IdleSocket(port: listener.port))
            await waitUntilAwaitingHello(listener, count)
        }
        // A fourth: the oldest goes, the cap holds.
        sockets.append(try IdleSocket(port: listener.port))
        XCTAssertTrue(sockets[0].isClosedByPeer(within: 10), "the oldest was not closed")
        await waitUntilAwaitingHello(listener, 3)
        XCTAssertEqual(sockets[1...].map { $0.isClosedByPeer() }, [false, false, false])
        await assertEventually("\(listener.handshakeFailures)") {
            listener.handshakeFailures
                == ["closed before its hello: 3 newer connections were waiting for their handshake"]
        }

        // A real joiner comes in over the full queue (the next oldest makes room) and plays.
        let first = try await within(10, "the joiner's match") {
            try await GameConnection(
                to: listener.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts(), clock: ManualClock())
            ).run { link in try await link.next() }
        }
        XCTAssertEqual(first, .bye(.seriesOver))
        XCTAssertTrue(sockets[1].isClosedByPeer(within: 10))
        XCTAssertEqual(sockets[2...].map { $0.isClosedByPeer() }, [false, false])
        await listener.stop()
    }

    func testAThousandIdleSocketsKeepAtMost64WaitingAndAJoinerStillPlays() async throws {
        // 1000 sockets here and up to 64 on the listener's side, in this one process: make room for them.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 4096 {
            limit.rlim_cur = min(4096, limit.rlim_max)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        guard limit.rlim_cur >= 2048 else { throw XCTSkip("only \(limit.rlim_cur) file descriptors allowed") }

        let listener = try await RunningListener(timeouts: patient) { link in
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
        var sockets: [IdleSocket] = []
        for _ in 0..<1000 { sockets.append(try IdleSocket(port: listener.port)) }
        let cap = GameListener.defaultMaximumPendingHandshakes
        await assertEventually("\(sockets.filter { $0.isClosedByPeer() }.count) closed", timeout: 30) {
            sockets.filter { $0.isClosedByPeer() }.count == 1000 - cap
        }
        XCTAssertEqual(listener.listener.connectionsAwaitingHello, cap)

        let first = try await within(10, "the joiner's match") {
            try await GameConnection(
                to: listener.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts(), clock: ManualClock())
            ).run { link in try await link.next() }
        }
        XCTAssertEqual(first, .bye(.seriesOver))
        XCTAssertLessThanOrEqual(listener.listener.connectionsAwaitingHello, cap)
        await listener.stop()
    }

    func testStopClosesConnectionsWaitingForTheirHello() async throws {
        let listener = try await RunningListener(timeouts: patient) { _ in
            XCTFail("nobody said hello")
            return .keepListening
        }
        let sockets = [try IdleSocket(port: listener.port), try IdleSocket(port: listener.port)]
        await waitUntilAwaitingHello(listener, 2)
        await listener.stop()  // returns once run has: it does not wait for their handshake deadline
        XCTAssertEqual(sockets.map { $0.isClosedByPeer(within: 10) }, [true, true])
        XCTAssertEqual(listener.handshakeFailures, [], "closing them is the host's doing, not a failure to report")
    }

    /// Stopping while connections keep coming: each one accepted after the stop is closed (through its own
    /// `executeThenClose`: a connection dropped with its writer unfinished traps), the listener returns, and every
    /// socket is closed by the host, or was never the host's: the kernel can drop a connection whose handshake it was
    /// finishing as the port closed without telling the joiner (about one run in twenty, always the last connection
    /// made), which then looks open here until it sends something. Each socket that looks open sends the first byte of
    /// a hello: one the host never had is reset; one the host accepted and kept would wait for the rest.
    func testStoppingWhileConnectionsKeepComingClosesEachOne() async throws {
        let listener = try await RunningListener(timeouts: patient) { link in
            await link.closeGracefully()
            return .keepListening
        }
        var sockets: [IdleSocket] = []
        for _ in 1...20 { sockets.append(try IdleSocket(port: listener.port)) }
        await waitUntilAwaitingHello(listener, 20)
        let port = listener.port
        let more = Task.detached { () -> [IdleSocket] in
            var more: [IdleSocket] = []
            for _ in 1...200 {
                guard let socket = try? IdleSocket(port: port) else { break }  // refused once the port is closed
                more.append(socket)
            }
            return more
        }
        await listener.stop()
        sockets += await more.value
        let quiet = sockets.filter { !$0.isClosedByPeer(within: 10) }
        let held = quiet.filter { socket in
            guard (try? socket.send(firstByteOfAHello)) != nil else { return false }  // reset: never the host's
            return !socket.isClosedByPeer(within: 5)
        }
        XCTAssertEqual(held.count, 0, "of \(sockets.count) sockets (\(quiet.count) quiet before a byte was sent)")
    }
}
