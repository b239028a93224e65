import GameProtocol
import Foundation
import GameTransport
import NIOCore
import XCTest

@testable import LocalNetworkPrivacy
import TicTacToeTestSupport
import AppManifest

/// Operations that wait for permission and proceed by themselves. Connections only ever go to loopback: to see a
/// gated connection proceed, the gate is told to treat 127.0.0.1 as a LAN address.
final class WaitingTests: XCTestCase {
    private let origin = OperationOrigin("test")
    func testWaitUntilGrantedReturnsAtOnceWhenAllowedOrExempt() async throws {
        let gate = try makeGate()
        let listen = try await gate.waitUntilGranted({ gate.listen(on: .address("127.0.0.1"), for: origin) }) {
            XCTFail("waited: \($0)")
        }
        XCTAssertTrue(listen.isLoopback)
        try gate.store.write(.allowed)
        let browse = try await gate.waitUntilGranted({ gate.browse("_tictactoe._tcp", for: origin) }) {
            XCTFail("waited: \($0)")
        }
        XCTAssertEqual(browse.serviceType, "_tictactoe._tcp")
        XCTAssertEqual(browse.origin, origin)
    }

    func testWaitUntilGrantedThrowsNoAuth() async throws {
        let gate = try makeGate()
        do {
            _ = try await gate.waitUntilGranted({ gate.advertise("_other._tcp", for: origin) })
            XCTFail("no error")
        } catch let error as LocalNetworkPrivacyError {
            XCTAssertEqual(error, .noAuth(serviceType: "_other._tcp", manifestPath: try gate.manifest().path))
            XCTAssertEqual(error.code, -65555)
            XCTAssertTrue(error.description.contains("Not allowed to access the network"), error.description)
            XCTAssertTrue(error.description.contains("NSBonjourServices must list \"_other._tcp\""), error.description)
        }
    }

    func testWaitUntilGrantedThrowsAManifestError() async throws {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self))
        let gate = LocalNetworkGate(explicitManifestPath: "/nowhere/Info.plist", store: store, report: nil)
        do {
            _ = try await gate.waitUntilGranted({ gate.listen(on: .everyInterface, for: origin) })
            XCTFail("no error")
        } catch LocalNetworkPrivacyError.manifest(let text) {
            XCTAssertTrue(text.contains("/nowhere/Info.plist"), text)
        }
    }

    func testAWaitProceedsWhenAnotherStoreAllowsIt() async throws {
        let gate = try makeGate()
        let reasons = Recorder<String>()
        let done = Recorder<Bool>()
        let origin = self.origin
        let waiter = Task {
            _ = try await gate.waitUntilGranted({ gate.browse("_tictactoe._tcp", for: origin) }) { reasons.append($0) }
            done.append(true)
        }
        let waiting = await eventually { reasons.all.count == 1 }
        XCTAssertTrue(waiting)
        XCTAssertEqual(reasons.all, [LocalNetworkGate.waitingReason(for: .notDetermined)])

        let settings = DecisionStore(directory: gate.store.directory)
        try settings.write(.denied)
        let sawDenied = await eventually { reasons.all.count == 2 }
        XCTAssertTrue(sawDenied, "the new reason is reported: \(reasons.all)")
        XCTAssertEqual(reasons.all.last, LocalNetworkGate.waitingReason(for: .denied))
        XCTAssertEqual(done.all, [])

        try settings.write(.allowed)
        try await waiter.value
        XCTAssertEqual(done.all, [true])
    }

    func testAWaitEndsWithCancellation() async throws {
        let gate = try makeGate()
        let reasons = Recorder<String>()
        let origin = self.origin
        let waiter = Task {
            _ = try await gate.waitUntilGranted({ gate.listen(on: .everyInterface, for: origin) }) { reasons.append($0) }
        }
        let waiting = await eventually { !reasons.all.isEmpty }
        XCTAssertTrue(waiting)
        waiter.cancel()
        do {
            try await waiter.value
            XCTFail("not cancelled")
        } catch is CancellationError {
        }
    }

    // MARK: GameConnection

    func testAConnectionToLoopbackIsNotGated() async throws {
        let gate = try makeGate()  // not determined: a LAN connection would wait
        let port = try closedLoopbackPort()
        let states = Recorder<ConnectionState>()
        let connection = GameConnection(
            to: Endpoint(host: "127.0.0.1", port: port), localName: "test",
            configuration: .init(clock: ContinuousClock()), gate: gate, origin: origin,
            onStateChange: { states.append($0) }
        )
        let run = Task { try await connection.run { _ in } }
        let attempted = await eventually {
            states.all.contains {
                if case .waiting(.peerUnreachable) = $0 { return true }
                return false
            }
        }
        connection.cancel()
        _ = try? await run.value
        XCTAssertTrue(attempted, "it tried to connect: \(states.all)")
        XCTAssertEqual(states.all.first, .preparing, "straight to preparing: \(states.all)")
        XCTAssertFalse(
            states.all.contains {
                if case .waiting(.notAllowed) = $0 { return true }
                return false
            }, "\(states.all)")
    }

    func testALANConnectionWouldWait() async throws {
        // Only evaluated: nothing is sent to 198.18.0.1.
        let gate = try makeGate()
        let clearance = gate.connect(to: try SocketAddress(ipAddress: "198.18.0.1", port: 7878), for: origin)
        guard case .waiting(let reason, .notDetermined) = clearance else { return XCTFail("\(clearance)") }
        XCTAssertEqual(reason, "local network permission not determined: answer the prompt, or run `tictactoe privacy grant`")
    }

    func testAGatedConnectionWaitsThenProceedsByItselfWhenAllowed() async throws {
        let gate = try makeGate(loopbackIsLAN: true)
        let port = try closedLoopbackPort()
        let states = Recorder<ConnectionState>()
        let connection = GameConnection(
            to: Endpoint(host: "127.0.0.1", port: port), localName: "test",
            configuration: .init(clock: ContinuousClock()), gate: gate, origin: origin,
            onStateChange: { states.append($0) }
        )
        let run = Task { try await connection.run { _ in } }
        defer { connection.cancel() }
        // `preparing` comes first (the gate is asked from there); a connect attempt to the closed port would show as
        // waiting(peerUnreachable: connection refused).
        func attempted() -> Bool {
            states.all.contains {
                if case .waiting(.peerUnreachable) = $0 { return true }
                return false
            }
        }
        let notAllowed = ConnectionState.waiting(.notAllowed(LocalNetworkGate.waitingReason(for: .notDetermined)))
        let waiting = await eventually { states.all.contains(notAllowed) }
        XCTAssertTrue(waiting, "\(states.all)")

        try DecisionStore(directory: gate.store.directory).write(.denied)
        let denied = ConnectionState.waiting(.notAllowed(LocalNetworkGate.waitingReason(for: .denied)))
        let sawDenied = await eventually { states.all.contains(denied) }
        XCTAssertTrue(sawDenied, "\(states.all)")
        XCTAssertFalse(attempted(), "no attempt before permission: \(states.all)")
        XCTAssertEqual(states.all, [.preparing, notAllowed, denied])

        try DecisionStore(directory: gate.store.directory).write(.allowed)  // e.g. `tictactoe privacy grant`
        let proceeded = await eventually { attempted() }
        XCTAssertTrue(proceeded, "it proceeded by itself: \(states.all)")
        XCTAssertEqual(Array(states.all.prefix(4)), [.preparing, notAllowed, denied, .preparing])
        connection.cancel()
        _ = try? await run.value
    }
}
