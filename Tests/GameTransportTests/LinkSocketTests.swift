import GameProtocol
@testable import GameTransport
import NIOCore
import XCTest
import TicTacToeTestSupport

/// What each end of a game connection sets on its socket and where a match's code runs.
final class LinkSocketTests: XCTestCase {
    /// Small frames go out at once (no Nagle delay waiting for the peer's ACK): TCP_NODELAY, read back from the kernel
    /// with getsockopt, on the host's accepted socket and on the joiner's.
    func testBothEndsSetTCPNoDelay() async throws {
        let hostNoDelay = Recorder<Bool>()
        let listener = try await RunningListener { link in
            hostNoDelay.append((try? await link.tcpNoDelay()) ?? false)
            _ = await readUntilClosed(&link)
            return .keepListening
        }
        let joinerNoDelay = try await joinWhenFree(listener.endpoint, name: "Joiner") { link in
            try await link.tcpNoDelay()
        }
        XCTAssertTrue(joinerNoDelay)
        await assertEventually("the host's match did not start") { hostNoDelay.all.count == 1 }
        XCTAssertEqual(hostNoDelay.all, [true])
        await listener.stop()
    }

    /// A task that prefers the link's executor runs on the connection's event loop (so frames need no thread hop),
    /// and frames sent from there arrive whole and in order.
    func testTheLinksExecutorIsItsEventLoop() async throws {
        let received = Recorder<GameMessage>()
        let listener = try await RunningListener { link in
            _ = await readUntilClosed(&link, messages: received)
            return .keepListening
        }
        let onLoop = try await joinWhenFree(listener.endpoint, name: "Joiner") { link -> Bool in
            let writer = link.writer
            return try await withTaskExecutorPreference(link.executor) {
                let onLoop = link.eventLoop.inEventLoop
                for cell in 1...50 { try await writer.send(.move(cell: UInt8(cell))) }
                writer.shutOutput()
                return onLoop
            }
        }
        XCTAssertTrue(onLoop)
        await assertEventually("the host did not get every frame") { received.all.count >= 50 }
        XCTAssertEqual(received.all, (1...50).map { GameMessage.move(cell: UInt8($0)) })
        await listener.stop()
    }

    /// A diverted link (a match's) hands over every frame in order, once: those already in the inbound stream (sent
    /// right behind the accept, before the match began) first, then those read later, then the end. Frames written
    /// with `write` go out at the next `flush`.
    func testADivertedLinkDeliversEveryFrameInOrderThenTheEnd() async throws {
        let listener = try await RunningListener { link in
            let writer = link.writer
            // 20 frames at once, before the joiner's match has begun; 30 more once it answers.
            for cell in 1...20 { writer.write(.move(cell: UInt8(cell))) }
            writer.flush()
            guard case .move? = try? await link.next() else { return .keepListening }
            for cell in 21...50 { writer.write(.move(cell: UInt8(cell))) }
            writer.flush()
            writer.shutOutput()
            _ = await readUntilClosed(&link)
            return .keepListening
        }
        let events = Recorder<String>()
        try await joinWhenFree(listener.endpoint, name: "Joiner") { link in
            // The first frame through the stream, as a handshake would read it; the rest diverted.
            guard case .move(let first)? = try await link.next() else { throw ChannelError.ioOnClosedChannel }
            events.append("move \(first)")
            let writer = link.writer
            await withTaskExecutorPreference(link.executor) {
                await link.divert { event in
                    switch event {
                    case .message(.move(let cell)): events.append("move \(cell)")
                    case .message(let other): events.append("other \(other)")
                    case .ended(let error): events.append("end \(error.map { "\($0)" } ?? "clean")")
                    }
                }
                writer.write(.move(cell: 0))
                writer.flush()
            }
            await assertEventually("the diverted link did not end") { events.all.last?.hasPrefix("end") == true }
        }
        XCTAssertEqual(events.all, (1...50).map { "move \($0)" } + ["end clean"])
        await listener.stop()
    }

    /// A peer that sends its last frames and closes before the match begins (a host leaving at once with a `bye`): the
    /// connection is closed, and its handlers (the relay too) gone, when the link is diverted. Every frame still comes,
    /// in order, then the end.
    func testALinkDivertedAfterItsConnectionClosedDeliversWhatItReadThenTheEnd() async throws {
        let listener = try await RunningListener { link in
            let writer = link.writer
            for cell in 1...20 { writer.write(.move(cell: UInt8(cell))) }
            writer.flush()
            writer.closeNow()
            return .keepListening
        }
        let events = Recorder<String>()
        try await joinWhenFree(listener.endpoint, name: "Joiner") { link in
            guard case .move(let first)? = try await link.next() else { throw ChannelError.ioOnClosedChannel }
            events.append("move \(first)")
            try await link.closeFuture.get()
            await withTaskExecutorPreference(link.executor) {
                await link.divert { event in
                    switch event {
                    case .message(.move(let cell)): events.append("move \(cell)")
                    case .message(let other): events.append("other \(other)")
                    case .ended(let error): events.append("end \(error.map { "\($0)" } ?? "clean")")
                    }
                }
            }
            await assertEventually("the diverted link did not end") { events.all.last?.hasPrefix("end") == true }
        }
        XCTAssertEqual(events.all, (1...20).map { "move \($0)" } + ["end clean"])
        await listener.stop()
    }
}
