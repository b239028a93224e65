import GamePairing
import GameProtocol
import NIOCore
import TicTacToeTestSupport
import XCTest

@testable import GameTransport
import PairingCode

private let firstCode = try! GameCode(parsing: "314159")
private let wrongCode = try! GameCode(parsing: "271828")

/// A private game's listener enforces `PairingAttempts` on loopback, its time on a `ManualClock` the test advances:
/// three wrong codes replace the code (the old one then fails, the new one gets in), a second attempt from one
/// address within a second is closed before any TLS byte with a retry-after, and the right code gets in after
/// failures once allowed. Every joiner here comes from 127.0.0.1: one source.
final class PairingLimitTests: XCTestCase {

    private func privateListener(
        _ code: PrivateGameCode, clock: ManualClock, matches: Recorder<String>
    ) async throws -> RunningListener {
        try await RunningListener(security: .tlsPSK(.privateGame(code)), clock: clock) { link in
            matches.append(link.peerName)
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
    }

    private func joiner(_ endpoint: Endpoint, code: GameCode, name: String = "Joiner") -> GameConnection {
        GameConnection(
            to: endpoint, localName: name,
            configuration: .init(
                connectTimeout: .seconds(10), timeouts: testTimeouts(), clock: ContinuousClock(), security: .tlsPSK(.pairing(code: code))))
    }

    /// Runs a joiner that must fail, and returns its error.
    private func failure(of connection: GameConnection, _ what: String) async -> Error? {
        do {
            _ = try await within(20, what) {
                try await connection.run { _ in XCTFail("\(what): got in") }
            }
            XCTFail("\(what): no error")
            return nil
        } catch {
            return error
        }
    }

    /// Runs a joiner that must get in; returns the host's name it saw.
    private func entry(of connection: GameConnection, _ what: String) async throws -> String {
        try await within(20, what) {
            try await connection.run { link -> String in
                let name = link.peerName
                while (try? await link.next()) != nil {}
                return name
            }
        }
    }

    func testThreeWrongCodesReplaceTheCodeAndOnlyTheNewCodeGetsIn() async throws {
        let clock = ManualClock()
        let code = PrivateGameCode(firstCode)
        let matches = Recorder<String>()
        let listener = try await privateListener(code, clock: clock, matches: matches)

        for guess in 1...3 {
            await clock.advance(by: .milliseconds(1500))  // past the one-a-second limit of the previous guess
            let error = await failure(of: joiner(listener.endpoint, code: wrongCode), "wrong guess \(guess)")
            XCTAssertEqual(error as? ConnectionError, .wrongCode, "\(String(describing: error))")
            await assertEventually("guess \(guess) counted") { listener.counted.count == guess }
        }
        XCTAssertEqual(listener.counted.map(\.inARow), [1, 2, 3])
        XCTAssertEqual(listener.counted.map(\.fromSource), [1, 2, 3])
        XCTAssertEqual(Set(listener.counted.map(\.source)), ["127.0.0.1"])
        XCTAssertEqual(listener.pairingFailures, [.wrongCode, .wrongCode, .wrongCode])

        await assertEventually("the code replaced") { listener.replacements.count == 1 }
        let replaced = try XCTUnwrap(listener.replacements.first)
        let newDigits = try XCTUnwrap(replaced.code.revealed)
        XCTAssertEqual(newDigits.count, 6)
        XCTAssertTrue(newDigits.allSatisfy(\.isASCIIDigit), newDigits)
        XCTAssertNotEqual(replaced.code, firstCode)
        XCTAssertEqual(code.current, replaced.code, "later connections use the new code")
        XCTAssertEqual(replaced.reason, "3 wrong codes in a row")
        // The event describes itself without the code.
        XCTAssertFalse("\(listener.events.all)".contains(newDigits))

        // After the cool-down (3 s): the old code is now a wrong code, and the new one gets in.
        await clock.advance(by: .seconds(4))
        let old = await failure(of: joiner(listener.endpoint, code: firstCode), "the old code")
        XCTAssertEqual(old as? ConnectionError, .wrongCode, "\(String(describing: old))")
        await assertEventually("the old code counted") { listener.counted.count == 4 }
        XCTAssertEqual(listener.counted.last?.inARow, 1, "counted against the new code")

        await clock.advance(by: .milliseconds(1500))
        let host = try await entry(of: joiner(listener.endpoint, code: replaced.code, name: "Friend"), "the new code")
        XCTAssertEqual(host, "Host")
        await assertEventually("the host's match") { matches.all == ["Friend"] }
        await assertEventually("the streak forgiven") { listener.events.all.contains { $0.isForgiven } }
        XCTAssertEqual(listener.replacements.count, 1)
        XCTAssertEqual(listener.refusals.count, 0)
        await listener.stop()
    }

    func testASecondAttemptWithinASecondIsRefusedWithoutAHandshakeAndTheRightCodeGetsInOnceAllowed() async throws {
        let clock = ManualClock()
        let code = PrivateGameCode(firstCode)
        let matches = Recorder<String>()
        let listener = try await privateListener(code, clock: clock, matches: matches)

        let error = await failure(of: joiner(listener.endpoint, code: wrongCode), "the wrong guess")
        XCTAssertEqual(error as? ConnectionError, .wrongCode, "\(String(describing: error))")
        await assertEventually("the guess counted") { listener.counted.count == 1 }

        // The same address again, 400 ms later on the listener's clock, with the right code: refused unheard.
        await clock.advance(by: .milliseconds(400))
        let relay = try await RecordingRelay(to: listener.port)
        let refused = await failure(
            of: joiner(Endpoint(host: loopback, port: relay.port), code: firstCode), "the attempt too soon")
        // The joiner sees its connection closed during the handshake (NIOSSL's EOF, or the stream's end): no key was
        // compared, so it is not a wrong code.
        XCTAssertTrue(
            refused as? SecureChannelError == .closedDuringHandshake
                || refused as? ConnectionError == .closedDuringHandshake,
            "\(String(describing: refused))")
        await assertEventually("the refusal reported") { listener.refusals.count == 1 }
        let refusal = try XCTUnwrap(listener.refusals.first)
        XCTAssertEqual(refusal.source, "127.0.0.1")
        XCTAssertEqual(refusal.retryAfter, .milliseconds(600))
        XCTAssertEqual(refusal.reason, "at most one attempt a second from one address")
        await assertEventually("the relay closed") { relay.isDone }
        XCTAssertEqual(relay.bytesToJoiner, [], "no TLS byte reached the refused joiner")
        await relay.stop()
        XCTAssertEqual(listener.counted.count, 1, "a refusal is no guess")
        XCTAssertEqual(listener.pairingFailures, [.wrongCode])

        // Once the second is over, the right code gets in (the failure before it does not hold it back).
        await clock.advance(by: .milliseconds(600))
        let host = try await entry(of: joiner(listener.endpoint, code: firstCode, name: "Friend"), "the right code")
        XCTAssertEqual(host, "Host")
        await assertEventually("the host's match") { matches.all == ["Friend"] }
        await assertEventually("the streak forgiven") { listener.events.all.contains { $0.isForgiven } }
        XCTAssertEqual(code.current, firstCode, "one wrong code does not replace it")
        XCTAssertEqual(listener.replacements.count, 0)
        await listener.stop()
    }

    func testAnOpenGameIsNotLimited() async throws {
        // `pairing(code: .open)` has no private code: two attempts in the same instant both run their handshake.
        let clock = ManualClock()
        let matches = Recorder<String>()
        let listener = try await RunningListener(security: .tlsPSK(.pairing(code: .open)), clock: clock) { link in
            matches.append(link.peerName)
            try? await link.send(.bye(.seriesOver))
            await link.closeGracefully()
            return .keepListening
        }
        for name in ["First", "Second"] {
            let host = try await entry(of: joiner(listener.endpoint, code: .open, name: name), name)
            XCTAssertEqual(host, "Host")
        }
        await assertEventually("both matches") { matches.all == ["First", "Second"] }
        XCTAssertEqual(listener.refusals.count, 0)
        await listener.stop()
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension GameListener.Event {
    fileprivate var isForgiven: Bool {
        if case .wrongCodesForgiven = self { return true }
        return false
    }
}

extension RunningListener {
    /// The wrong codes the private game counted, in order.
    fileprivate var counted: [(source: String, inARow: Int, fromSource: Int)] {
        events.all.compactMap {
            if case .wrongCodeCounted(let source, let inARow, let fromSource) = $0 { return (source, inARow, fromSource) }
            return nil
        }
    }

    fileprivate var replacements: [(code: GameCode, reason: String)] {
        events.all.compactMap {
            if case .codeReplaced(let code, let reason) = $0 { return (code, reason) }
            return nil
        }
    }

    fileprivate var refusals: [(source: String, retryAfter: Duration, reason: String)] {
        events.all.compactMap {
            if case .pairingRefused(let source, let retryAfter, let reason) = $0 { return (source, retryAfter, reason) }
            return nil
        }
    }
}
