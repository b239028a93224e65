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
                await writer.finish()
                return onLoop
            }
        }
        XCTAssertTrue(onLoop)
        await assertEventually("the host did not get every frame") { received.all.count >= 50 }
        XCTAssertEqual(received.all, (1...50).map { GameMessage.move(cell: UInt8($0)) })
        await listener.stop()
    }
}
