import GameProtocol
import GameTransport
import LocalNetworkPrivacy
import NIOCore
import XCTest
import TicTacToeTestSupport

/// A `GameConnection` against a `GameListener` on loopback: handshake, a real game, busy rejections.
final class ListenerMatchTests: XCTestCase {
    func testJoinerCompletesTheHandshakeAndPlaysAGame() async throws {
        let hostSessions = Recorder<MatchSession>()
        let hostSawName = Recorder<String>()
        let listener = try await RunningListener(hostName: "Host") { link in
            hostSawName.append(link.peerName)
            XCTAssertEqual(link.role, .host)
            hostSessions.append(await playScriptedMatch(.host, moves: [3, 4], over: &link))
            return .keepListening
        }

        let states = Recorder<ConnectionState>()
        let connection = GameConnection(
            to: listener.endpoint,
            localName: "Joiner",
            configuration: .init(connectTimeout: .seconds(10), timeouts: testTimeouts(), clock: ContinuousClock()),
            onStateChange: { states.append($0) }
        )
        XCTAssertEqual(connection.state, .setup)
        XCTAssertEqual(connection.endpoint, listener.endpoint)
        XCTAssertEqual(connection.localName, "Joiner")

        let joiner = try await connection.run { link -> MatchSession in
            XCTAssertEqual(link.peerName, "Host")
            XCTAssertEqual(link.role, .joiner)
            XCTAssertTrue(link.remoteAddress.hasPrefix("127.0.0.1:"), link.remoteAddress)
            XCTAssertEqual(connection.state, .ready(peerName: "Host"))
            return await playScriptedMatch(.joiner, moves: [0, 1, 2], over: &link)
        }

        XCTAssertEqual(states.all, [.preparing, .ready(peerName: "Host"), .cancelled])
        XCTAssertEqual(connection.state, .cancelled)
        XCTAssertEqual(joiner.end, .completed(by: .local))
        XCTAssertEqual(joiner.score, MatchSession.Score(localWins: 1))

        await assertEventually("the host's match did not end") { hostSessions.all.count == 1 }
        XCTAssertEqual(hostSawName.all, ["Joiner"])
        XCTAssertEqual(hostSessions.all.first?.end, .completed(by: .local))
        XCTAssertEqual(hostSessions.all.first?.score, MatchSession.Score(peerWins: 1))
        XCTAssertEqual(listener.handshakeFailures, [])
        await listener.stop()
    }

    func testListenerServesTheNextJoinerAfterAMatch() async throws {
        let matches = Recorder<String>()
        let listener = try await RunningListener { link in
            matches.append(link.peerName)
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
        for name in ["First", "Second", "Third"] {
            let first = try await joinWhenFree(listener.endpoint, name: name) { link in try await link.next() }
            XCTAssertEqual(first, .bye(.seriesOver))
        }
        await assertEventually { matches.all.count == 3 }
        XCTAssertEqual(matches.all, ["First", "Second", "Third"])
        await listener.stop()
    }

    func testMatchAnsweringStopEndsRun() async throws {
        let listener = try await RunningListener { link in
            await link.closeGracefully()
            return .stop
        }
        let first = try await joinWhenFree(listener.endpoint, name: "Only") { link in try await link.next() }
        XCTAssertNil(first)
        await listener.stop()  // returns because run already ended
    }

    /// Holds the listener's match with a joiner named "First" until `release` is set.
    private func occupy(_ listener: RunningListener, release: Flag) async throws -> (GameConnection, Task<String, Error>) {
        let first = GameConnection(
            to: listener.endpoint, localName: "First", configuration: .init(timeouts: testTimeouts(), clock: ContinuousClock())
        )
        let firstRun = Task {
            try await first.run { link -> String in
                _ = await eventually(timeout: 30) { release.isSet }
                return link.peerName
            }
        }
        await assertEventually("first joiner: \(first.state)") { first.state == .ready(peerName: "Host") }
        return (first, firstRun)
    }

    func testSecondJoinerWhileAMatchRunsRetriesWhileBusyThenFailsAsRejected() async throws {
        let release = Flag()
        let hostEnded = Flag()
        let listener = try await RunningListener(hostName: "Host") { link in
            _ = await readUntilClosed(&link)
            hostEnded.set()
            return .keepListening
        }
        let (first, firstRun) = try await occupy(listener, release: release)

        // A second GameConnection hears reject(busy), waits and asks again, on a clock this test advances, until its
        // connect timeout (2 s); then it fails as rejected (busy).
        let states = Recorder<ConnectionState>()
        let clock = ManualClock()
        let second = GameConnection(
            to: listener.endpoint, localName: "Second",
            configuration: .init(connectTimeout: .seconds(2), timeouts: testTimeouts(), clock: clock),
            onStateChange: { states.append($0) }
        )
        let secondRun = Task { try await second.run { _ in XCTFail("the second joiner got a match") } }
        let advanced = await advanceThroughWaits(states, on: clock) { state in
            guard case .waiting(.hostBusy(_, let delay)) = state else { return nil }
            return delay
        }
        let text = "Host is already playing a game; try again later"
        let busy = ConnectionError.rejected(reason: "busy", text: text)
        do {
            _ = try await secondRun.value
            XCTFail("the second joiner was not rejected")
        } catch {
            XCTAssertEqual(error as? ConnectionError, busy)
        }
        // 0.25 + 0.5 + 1 = 1.75 s of waiting, then the last wait is cut short by the 2 s connect timeout.
        XCTAssertEqual(advanced, [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)])
        XCTAssertEqual(
            states.all,
            [
                .preparing, .waiting(.hostBusy(text: text, retryIn: .milliseconds(250))),
                .preparing, .waiting(.hostBusy(text: text, retryIn: .milliseconds(500))),
                .preparing, .waiting(.hostBusy(text: text, retryIn: .seconds(1))),
                .preparing, .waiting(.hostBusy(text: text, retryIn: .seconds(2))),
                .failed(busy),
            ]
        )
        XCTAssertEqual(
            "\(ConnectionState.waiting(.hostBusy(text: text, retryIn: .milliseconds(500))))",
            "waiting (the host is playing another game: busy, retrying in 0.5 s)"
        )

        // A raw peer sees the exact frame right after its hello, then EOF.
        let frames = try await withRawClient(port: listener.port) { client in
            try await client.send(.hello(version: 1, name: "Raw"))
            return try await client.readToEnd()
        }
        XCTAssertEqual(frames, [.reject(reason: .busy, text: text)])
        XCTAssertEqual(listener.events.all.filter(\.isRejectedBusy).count, 5)

        // The first match was not disturbed.
        XCTAssertEqual(first.state, .ready(peerName: "Host"))
        release.set()
        let name = try await within(10, "the first joiner") { try await firstRun.value }
        XCTAssertEqual(name, "Host")
        XCTAssertEqual(first.state, .cancelled)
        await assertEventually { hostEnded.isSet }
        await listener.stop()
    }

    func testABusyJoinerGetsTheMatchOnceTheHostIsFree() async throws {
        let release = Flag()
        let matches = Recorder<String>()
        let listener = try await RunningListener(hostName: "Host") { link in
            matches.append(link.peerName)
            _ = await readUntilClosed(&link)
            return .keepListening
        }
        let (_, firstRun) = try await occupy(listener, release: release)

        let clock = ManualClock()
        let second = GameConnection(
            to: listener.endpoint, localName: "Second",
            configuration: .init(connectTimeout: .seconds(60), timeouts: testTimeouts(), clock: clock)
        )
        let secondRun = Task { try await second.run { link -> String in link.peerName } }
        await assertEventually("\(second.state)") { second.state.name == "waiting" }
        await clock.waitForSleepers(1)
        guard case .waiting(.hostBusy(_, let delay)) = second.state else { return XCTFail("\(second.state)") }
        XCTAssertEqual(delay, .milliseconds(250))

        // The first match ends; the host is free once its connection has closed.
        release.set()
        _ = try await within(10, "the first joiner") { try await firstRun.value }
        await assertEventually { !listener.listener.isPlaying }
        await clock.advance(by: .milliseconds(250))
        let name = try await within(10, "the second joiner's match") { try await secondRun.value }
        XCTAssertEqual(name, "Host")
        XCTAssertEqual(matches.all, ["First", "Second"])
        await listener.stop()
    }

    func testEmptyNameIsRejectedAsBadHello() async throws {
        let listener = try await RunningListener { link in
            XCTFail("a joiner without a name got a match")
            return .keepListening
        }
        let connection = GameConnection(
            to: listener.endpoint, localName: "", configuration: .init(timeouts: testTimeouts(), clock: ContinuousClock())
        )
        do {
            _ = try await connection.run { _ in }
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error as? ConnectionError, .rejected(reason: "bad-hello", text: "empty player name"))
        }
        XCTAssertEqual(connection.state, .failed(.rejected(reason: "bad-hello", text: "empty player name")))
        await assertEventually { listener.handshakeFailures.count == 1 }
        await listener.stop()
    }

    func testErrorThrownByTheMatchBodyFailsTheConnection() async throws {
        struct Boom: Error {}
        let listener = try await RunningListener { link in
            _ = await readUntilClosed(&link)
            return .keepListening
        }
        let connection = GameConnection(
            to: listener.endpoint, localName: "Joiner", configuration: .init(timeouts: testTimeouts(), clock: ContinuousClock())
        )
        do {
            _ = try await connection.run { _ in throw Boom() }
            XCTFail("no error")
        } catch {
            XCTAssertTrue(error is Boom, "\(error)")
        }
        guard case .failed(.peerError) = connection.state else {
            return XCTFail("state \(connection.state)")
        }
        await listener.stop()
    }
}

final class ListenerStopTests: XCTestCase {
    func testAStopBeforeTheBindServesNobody() async throws {
        let listener = GameListener(
            capability: loopbackListenCapability(), port: 0, hostName: "Host", clock: ContinuousClock())
        listener.stop()  // e.g. access turned off, or Ctrl-C, while the host was still binding
        let events = Recorder<GameListener.Event>()
        try await listener.run(onEvent: { events.append($0) }, onMatch: { _ in .keepListening })
        XCTAssertEqual(events.all.count, 0, "it announced itself: \(events.all)")
    }
}
