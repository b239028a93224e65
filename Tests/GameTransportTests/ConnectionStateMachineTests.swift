import GameProtocol
import GameTransport
import LocalNetworkPrivacy
import XCTest
import TicTacToeTestSupport

/// The pure state machine behind `GameConnection`: every transition and the action it asks for.
final class ConnectionStateMachineTests: XCTestCase {
    private let refused = "connection refused (is the host running?)"

    /// A machine that has been started and allowed by the gate: `preparing`, about to connect.
    private func connecting() -> ConnectionStateMachine {
        var machine = ConnectionStateMachine()
        XCTAssertEqual(machine.handle(.start), .checkGate)
        XCTAssertEqual(machine.handle(.gateAllowed), .connect)
        return machine
    }

    private func ready() -> ConnectionStateMachine {
        var machine = connecting()
        XCTAssertEqual(machine.handle(.handshakeSucceeded(peerName: "Bob")), .none)
        return machine
    }

    func testStartsInSetup() {
        XCTAssertEqual(ConnectionStateMachine().state, .setup)
        XCTAssertEqual(ConnectionStateMachine.firstRetryDelay, .milliseconds(250))
        XCTAssertEqual(ConnectionStateMachine.maximumRetryDelay, .seconds(2))
    }

    func testStartGoesToPreparingAndChecksTheGate() {
        var machine = ConnectionStateMachine()
        XCTAssertEqual(machine.handle(.start), .checkGate)
        XCTAssertEqual(machine.state, .preparing)
    }

    func testGateAllowedConnects() {
        let machine = connecting()
        XCTAssertEqual(machine.state, .preparing)
    }

    func testGateWaitingThenAllowed() {
        var machine = ConnectionStateMachine()
        _ = machine.handle(.start)
        XCTAssertEqual(machine.handle(.gateWaiting("no local network permission")), .none)
        XCTAssertEqual(machine.state, .waiting(.notAllowed("no local network permission")))
        // Asking again while waiting updates the reason.
        XCTAssertEqual(machine.handle(.gateWaiting("still asking")), .none)
        XCTAssertEqual(machine.state, .waiting(.notAllowed("still asking")))
        XCTAssertEqual(machine.handle(.gateAllowed), .connect)
        XCTAssertEqual(machine.state, .preparing)
    }

    func testHandshakeSucceededIsReady() {
        let machine = ready()
        XCTAssertEqual(machine.state, .ready(peerName: "Bob"))
    }

    func testBackoffDoublesFromAQuarterSecondToTwoSeconds() {
        var machine = connecting()
        var delays: [Duration] = []
        for _ in 0..<10 {
            let action = machine.handle(.connectFailed(refused, deadlinePassed: false))
            guard case .scheduleRetry(let seconds) = action else {
                return XCTFail("no retry scheduled in \(machine.state): \(action)")
            }
            XCTAssertEqual(machine.state, .waiting(.peerUnreachable(refused, retryIn: seconds)))
            delays.append(seconds)
            XCTAssertEqual(machine.handle(.retryTimerFired), .checkGate)
            XCTAssertEqual(machine.state, .preparing)
            XCTAssertEqual(machine.handle(.gateAllowed), .connect)
        }
        XCTAssertEqual(delays, [.milliseconds(250), .milliseconds(500), .seconds(1)] + Array(repeating: .seconds(2), count: 7))
    }

    func testBackoffKeepsGrowingAcrossGateWaits() {
        var machine = connecting()
        XCTAssertEqual(machine.handle(.connectFailed(refused, deadlinePassed: false)), .scheduleRetry(after: .milliseconds(250)))
        _ = machine.handle(.retryTimerFired)
        XCTAssertEqual(machine.handle(.gateWaiting("denied")), .none)
        XCTAssertEqual(machine.handle(.gateAllowed), .connect)
        XCTAssertEqual(machine.handle(.connectFailed(refused, deadlinePassed: false)), .scheduleRetry(after: .milliseconds(500)))
    }

    func testConnectFailureAfterTheDeadlineFails() {
        var machine = connecting()
        XCTAssertEqual(machine.handle(.connectFailed(refused, deadlinePassed: true)), .tearDown)
        XCTAssertEqual(machine.state, .failed(.unreachable(refused)))
    }

    func testDeadlineWhileWaitingForARetryFailsAsUnreachable() {
        var machine = connecting()
        _ = machine.handle(.connectFailed(refused, deadlinePassed: false))
        XCTAssertEqual(machine.handle(.connectTimedOut), .tearDown)
        XCTAssertEqual(machine.state, .failed(.unreachable(refused)))
    }

    func testDeadlineWhileTheGateSaysWaitFailsAsTimedOut() {
        var machine = ConnectionStateMachine()
        _ = machine.handle(.start)
        _ = machine.handle(.gateWaiting("no permission"))
        XCTAssertEqual(machine.handle(.connectTimedOut), .tearDown)
        XCTAssertEqual(machine.state, .failed(.timedOut("still waiting: no permission")))
    }

    func testABusyHostIsAskedAgainWithBackoffUntilTheDeadline() {
        var machine = connecting()
        let text = "Bob is already playing a game; try again later"
        var delays: [Duration] = []
        for _ in 0..<5 {
            guard case .scheduleRetry(let seconds) = machine.handle(.hostBusy(text, deadlinePassed: false)) else {
                return XCTFail("no retry scheduled in \(machine.state)")
            }
            XCTAssertEqual(machine.state, .waiting(.hostBusy(text: text, retryIn: seconds)))
            delays.append(seconds)
            XCTAssertEqual(machine.handle(.retryTimerFired), .checkGate)
            XCTAssertEqual(machine.handle(.gateAllowed), .connect)
        }
        XCTAssertEqual(delays, [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2)])
        // Busy once the deadline has passed: rejected, as a busy host was before joiners retried.
        XCTAssertEqual(machine.handle(.hostBusy(text, deadlinePassed: true)), .tearDown)
        XCTAssertEqual(machine.state, .failed(.rejected(reason: "busy", text: text)))
    }

    func testDeadlineWhileWaitingForABusyHostFailsAsRejected() {
        var machine = connecting()
        _ = machine.handle(.hostBusy("busy", deadlinePassed: false))
        XCTAssertEqual(machine.handle(.connectTimedOut), .tearDown)
        XCTAssertEqual(machine.state, .failed(.rejected(reason: "busy", text: "busy")))
    }

    func testBusyAndUnreachableShareOneBackoff() {
        var machine = connecting()
        XCTAssertEqual(machine.handle(.connectFailed(refused, deadlinePassed: false)), .scheduleRetry(after: .milliseconds(250)))
        _ = machine.handle(.retryTimerFired)
        _ = machine.handle(.gateAllowed)
        XCTAssertEqual(machine.handle(.hostBusy("busy", deadlinePassed: false)), .scheduleRetry(after: .milliseconds(500)))
    }

    func testDeadlineWhilePreparingFailsAsTimedOut() {
        var machine = connecting()
        XCTAssertEqual(machine.handle(.connectTimedOut), .tearDown)
        XCTAssertEqual(machine.state, .failed(.timedOut("no connection or handshake within the connect timeout")))
    }

    func testHandshakeFailureFails() {
        let errors: [ConnectionError] = [
            .rejected(reason: "busy", text: "Bob is already playing"), .protocolViolation("bad"),
            .peerError("handshake-timeout: slow"), .closedDuringHandshake, .timedOut("no handshake"),
        ]
        for error in errors {
            var machine = connecting()
            XCTAssertEqual(machine.handle(.handshakeFailed(error)), .tearDown)
            XCTAssertEqual(machine.state, .failed(error))
        }
    }

    func testNormalCloseAfterReadyIsCancelled() {
        var machine = ready()
        XCTAssertEqual(machine.handle(.closed(nil)), .tearDown)
        XCTAssertEqual(machine.state, .cancelled)
    }

    func testFailedCloseAfterReadyIsFailed() {
        var machine = ready()
        XCTAssertEqual(machine.handle(.closed(.peerError("gone"))), .tearDown)
        XCTAssertEqual(machine.state, .failed(.peerError("gone")))
    }

    func testCancelFromEveryNonFinalState() {
        let setup = ConnectionStateMachine()
        let preparing = connecting()
        var notAllowed = ConnectionStateMachine()
        _ = notAllowed.handle(.start)
        _ = notAllowed.handle(.gateWaiting("no"))
        var unreachable = connecting()
        _ = unreachable.handle(.connectFailed(refused, deadlinePassed: false))
        var busy = connecting()
        _ = busy.handle(.hostBusy("busy", deadlinePassed: false))
        let readyMachine = ready()
        for var machine in [setup, preparing, notAllowed, unreachable, busy, readyMachine] {
            let before = machine.state
            XCTAssertFalse(before.isFinal)
            XCTAssertEqual(machine.handle(.cancel), .tearDown, "cancel in \(before)")
            XCTAssertEqual(machine.state, .cancelled, "cancel in \(before)")
        }
    }

    func testFinalStatesIgnoreEverything() {
        var cancelled = ready()
        _ = cancelled.handle(.cancel)
        var failed = connecting()
        _ = failed.handle(.connectFailed(refused, deadlinePassed: true))
        let inputs: [ConnectionStateMachine.Input] = [
            .start, .gateWaiting("x"), .gateAllowed, .connectFailed("x", deadlinePassed: false), .connectTimedOut,
            .handshakeSucceeded(peerName: "x"), .handshakeFailed(.closedDuringHandshake), .retryTimerFired, .cancel,
            .closed(nil), .closed(.peerError("x")), .hostBusy("x", deadlinePassed: false),
        ]
        for var machine in [cancelled, failed] {
            let final = machine.state
            XCTAssertTrue(final.isFinal)
            for input in inputs {
                XCTAssertEqual(machine.handle(input), .none, "\(input) in \(final)")
                XCTAssertEqual(machine.state, final, "\(input) in \(final)")
            }
        }
    }

    func testLateOrOutOfPlaceEventsChangeNothing() {
        var setup = ConnectionStateMachine()
        let early: [ConnectionStateMachine.Input] = [
            .gateAllowed, .gateWaiting("x"), .retryTimerFired, .closed(nil), .handshakeSucceeded(peerName: "x"),
        ]
        for input in early {
            XCTAssertEqual(setup.handle(input), .none)
            XCTAssertEqual(setup.state, .setup)
        }
        var readyMachine = ready()
        for input: ConnectionStateMachine.Input in [
            .start, .gateAllowed, .gateWaiting("x"), .retryTimerFired, .connectFailed("x", deadlinePassed: false),
            .handshakeSucceeded(peerName: "Eve"), .handshakeFailed(.closedDuringHandshake), .connectTimedOut,
            .hostBusy("x", deadlinePassed: false),
        ] {
            XCTAssertEqual(readyMachine.handle(input), .none, "\(input)")
            XCTAssertEqual(readyMachine.state, .ready(peerName: "Bob"), "\(input)")
        }
        var preparing = connecting()
        XCTAssertEqual(preparing.handle(.retryTimerFired), .none)
        XCTAssertEqual(preparing.handle(.closed(nil)), .none)
        XCTAssertEqual(preparing.state, .preparing)
        var unreachable = connecting()
        _ = unreachable.handle(.connectFailed(refused, deadlinePassed: false))
        XCTAssertEqual(unreachable.handle(.gateAllowed), .none)
        XCTAssertEqual(unreachable.handle(.handshakeSucceeded(peerName: "x")), .none)
        XCTAssertEqual(unreachable.state, .waiting(.peerUnreachable(refused, retryIn: .milliseconds(250))))
    }

    func testStateNamesAndDescriptions() {
        let cases: [(ConnectionState, String, String, Bool)] = [
            (.setup, "setup", "setup", false),
            (.waiting(.notAllowed("no permission")), "waiting", "waiting (no permission)", false),
            (
                .waiting(.peerUnreachable("connection refused", retryIn: .milliseconds(500))), "waiting",
                "waiting (connection refused; retrying in 0.5 s)", false
            ),
            (.waiting(.peerUnreachable("x", retryIn: .seconds(2))), "waiting", "waiting (x; retrying in 2 s)", false),
            (
                .waiting(.hostBusy(text: "Bob is already playing", retryIn: .seconds(1))), "waiting",
                "waiting (the host is playing another game: busy, retrying in 1 s)", false
            ),
            (.preparing, "preparing", "preparing", false),
            (.ready(peerName: "Bob"), "ready", "ready (playing Bob)", false),
            (.failed(.unreachable("x")), "failed", "failed (peer unreachable: x)", true),
            (.cancelled, "cancelled", "cancelled", true),
        ]
        for (state, name, description, isFinal) in cases {
            XCTAssertEqual(state.name, name)
            XCTAssertEqual(state.description, description)
            XCTAssertEqual(state.isFinal, isFinal)
        }
    }

    func testErrorDescriptions() {
        XCTAssertEqual("\(ConnectionError.timedOut("x"))", "timed out: x")
        XCTAssertEqual(
            "\(ConnectionError.rejected(reason: "busy", text: "later"))", "rejected by the host (busy): later"
        )
        XCTAssertEqual("\(ConnectionError.protocolViolation("x"))", "protocol error by the peer: x")
        XCTAssertEqual("\(ConnectionError.peerError("x"))", "the peer reported an error: x")
        XCTAssertEqual(
            "\(ConnectionError.closedDuringHandshake)", "the peer closed the connection during the handshake"
        )
        XCTAssertEqual("\(ConnectionError.badAddress("x"))", "bad address: x")
    }
}
