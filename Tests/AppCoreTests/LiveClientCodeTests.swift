import AppCore
import Foundation
import GameClient
import GamePairing
import GameProtocol
import GameTransport
import MatchPlay
import TicTacToeTestSupport
import XCTest

import AppManifest
@testable import LocalNetworkPrivacy
import PairingCode

/// The live client's join with a private game's code (what the full-screen UI calls), against a private host on
/// loopback: a malformed code never leaves the process, a missing or wrong code ends with exit 13 as the UI expects
/// it, and the right one connects, encrypted.
final class LiveClientCodeTests: XCTestCase {
    private let code = "482913"

    /// A private host on 127.0.0.1 with a fixed code, for one match; the host, and the codes it showed.
    private func startPrivateHost(gate: LocalNetworkGate) async throws -> (LoopbackHost, Recorder<String>) {
        let shown = Recorder<String>()
        let fixed = try GameCode(parsing: code)
        let request = HostRequest(
            target: .address("127.0.0.1"), port: 0, matches: 1, advertise: false, origin: OperationOrigin("tests"),
            security: .private, showCode: { code, _ in shown.append(code.revealed ?? "") }, makeCode: { fixed })
        let options = MatchOptions(name: "host", player: .perfect, seed: 1, games: 1, clock: ContinuousClock())
        return (try await LoopbackHost.start(request, options: options, gate: gate), shown)
    }

    /// Joins through the live client and collects its events until it finishes (or `until` says stop).
    private func join(
        _ client: GameClient, port: Int, code: String?, until: @escaping @Sendable (NetworkEvent) -> Bool = { _ in false }
    ) async -> [NetworkEvent] {
        let events = Recorder<NetworkEvent>()
        let done = AsyncStream<Void>.makeStream()
        let handle = client.join("joiner", "127.0.0.1:\(port)", code) { event in
            events.append(event)
            if case .finished = event { done.continuation.yield() }
            if until(event) { done.continuation.yield() }
        }
        for await _ in done.stream { break }
        handle.send(.leave(.quit))
        return events.all
    }

    private func failure(_ events: [NetworkEvent]) -> (String, ExitStatus)? {
        for case .report(.error(let message, let status)) in events { return (message, status) }
        return nil
    }

    func testAMalformedCodeIsAUsageErrorBeforeAnythingIsOpened() async throws {
        let client = GameClient.live(gate: try makeGate(), logFile: "/dev/null", clock: ContinuousClock())
        let events = await join(client, port: 9, code: "48x913")
        let (message, status) = try XCTUnwrap(failure(events), "\(events)")
        XCTAssertEqual(status, .usage)
        XCTAssertFalse(message.contains("48x913"), message)
        guard case .finished(.usage)? = events.last else { return XCTFail("\(events)") }
    }

    func testNoCodeOrAWrongCodeEndWith13AndTheRightCodeConnectsEncrypted() async throws {
        let gate = try makeGate()
        let (host, shown) = try await startPrivateHost(gate: gate)
        let port = host.port
        let client = GameClient.live(gate: gate, logFile: "/dev/null", clock: ContinuousClock())
        XCTAssertEqual(shown.all, [code])

        let noCode = await join(client, port: port, code: nil)
        XCTAssertEqual(failure(noCode)?.1, .wrongCode, "\(noCode)")
        XCTAssertTrue(failure(noCode)?.0.contains("hosts a private game") == true, "\(noCode)")
        guard case .finished(.wrongCode)? = noCode.last else { return XCTFail("\(noCode)") }

        let wrong = await join(client, port: port, code: "111 111")
        XCTAssertEqual(failure(wrong)?.1, .wrongCode, "\(wrong)")
        XCTAssertTrue(failure(wrong)?.0.hasPrefix("wrong code") == true, "\(wrong)")

        // Typed as read out ("482-913"): in, encrypted. The UI leaves at once; the host's one match is over.
        let right = await join(client, port: port, code: "482-913") { event in
            if case .report(.session(.gameStarted)) = event { return true }
            return false
        }
        let cipher = right.compactMap { event -> String? in
            if case .report(.connected(_, _, _, let cipher)) = event { return cipher }
            return nil
        }.first
        XCTAssertEqual(cipher, "ECDHE-PSK-CHACHA20-POLY1305", "\(right)")
        for listener in host.listeners.all { listener.stop() }
        _ = await host.task.value
        let failed = host.reports.all.compactMap { report -> String? in
            if case .peerFailed(_, let error) = report { return error }
            return nil
        }
        XCTAssertEqual(failed.filter { $0 == "wrong code" }.count, 2, "\(failed)")
    }
}
