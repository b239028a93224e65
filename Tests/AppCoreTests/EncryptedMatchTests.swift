import AppCore
import Foundation
import GameClient
import GameProtocol
import GameTransport
import MatchPlay
import PairingCode
import TicTacToeTestSupport
import XCTest

@testable import LocalNetworkPrivacy

/// Protocol 2 as `host` and `join` play it, both sides in process on loopback and reporting as `--json` does: an open
/// game is encrypted by default, a private game admits only its code and never reports it, there is no silent
/// fallback between protocol 1 and 2, and the manifest's App Transport Security refuses plaintext on the LAN (exit 14)
/// before anything is sent.
final class EncryptedMatchTests: XCTestCase {
    private let cipher = "ECDHE-PSK-CHACHA20-POLY1305"

    /// A host on 127.0.0.1 for one match of `games` games, with `request`'s security and code.
    private func startHost(
        _ security: GameSecurity = .open, games: Int = 1, gate: LocalNetworkGate,
        makeCode: @escaping @Sendable () -> GameCode = { GameCode.random() },
        shown: Recorder<String> = Recorder(), log: Recorder<String> = Recorder(),
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> LoopbackHost {
        let request = HostRequest(
            target: .address("127.0.0.1"), port: 0, matches: 1, advertise: false, origin: origin, security: security,
            showCode: { code, _ in shown.append(code.revealed ?? "") }, makeCode: makeCode)
        let options = MatchOptions(name: "host", player: .perfect, seed: 1, games: games, clock: clock)
        return try await LoopbackHost.start(request, options: options, gate: gate, logger: recordingLogger(log))
    }

    private func errorMessage(_ side: JSONSide) -> String { side.events(named: "error").first?["message"] as? String ?? "" }

    func testAnOpenGameIsEncryptedByDefault() async throws {
        let gate = try makeGate(.notDetermined)
        let host = try await startHost(games: 2, gate: gate)
        let listening = try XCTUnwrap(host.json.events(named: "listening").first)
        XCTAssertEqual(listening["secure"] as? Bool, true)
        XCTAssertEqual(listening["private"] as? Bool, false)
        let (status, joiner) = try await join(host.port, gate: gate)
        XCTAssertEqual(status, .success, "\(joiner.lines.all)")
        let hostStatus = await host.task.value
        XCTAssertEqual(hostStatus, .success, "\(host.json.lines.all)")
        for side in [joiner, host.json] {
            let connected = try XCTUnwrap(side.events(named: "connected").first, "\(side.lines.all)")
            XCTAssertEqual(connected["secure"] as? Bool, true)
            XCTAssertEqual(connected["cipher"] as? String, cipher)
        }
        XCTAssertEqual(joiner.events(named: "summary").first?["games"] as? Int, 2)
    }

    func testAPrivateGameAdmitsOnlyItsCodeAndNeverReportsOrLogsIt() async throws {
        let gate = try makeGate(.notDetermined)
        let code = "482913"
        let fixed = try GameCode(parsing: code)
        let (shown, log) = (Recorder<String>(), Recorder<String>())
        // Host and joiners on one clock that moves only when the test says: the host takes one attempt a second
        // from an address, so each joiner after the first is turned away before its handshake and asks again after
        // its one-second pause, which the test lets go.
        let clock = ManualClock()
        let host = try await startHost(.private, gate: gate, makeCode: { fixed }, shown: shown, log: log, clock: clock)
        XCTAssertEqual(shown.all, [code], "the code is shown once, to the host's player")
        XCTAssertEqual(host.json.events(named: "listening").first?["private"] as? Bool, true)
        func joinAfterAPause(_ security: JoinSecurity) async throws -> (ExitStatus, JSONSide) {
            let joining = Task { try await join(host.port, security, gate: gate, clock: clock) }
            await clock.waitForSleepers(2)  // the host's reporting of refusals, and the joiner's pause
            await clock.advance(by: .seconds(1))
            return try await joining.value
        }

        // No code: exit 13, naming the ways to give one.
        let (noCode, noCodeSide) = try await join(host.port, gate: gate, clock: clock)
        XCTAssertEqual(noCode, .wrongCode)
        let message = errorMessage(noCodeSide)
        XCTAssertTrue(message.contains("hosts a private game"), message)
        XCTAssertTrue(message.contains("--code-file FILE") && message.contains("TICTACTOE_CODE"), message)

        // A wrong code: exit 13, "wrong code"; the host reports the attempt.
        let (wrong, wrongSide) = try await joinAfterAPause(.encrypted(code: try GameCode(parsing: "482914")))
        XCTAssertEqual(wrong, .wrongCode)
        XCTAssertTrue(errorMessage(wrongSide).hasPrefix("wrong code"), "\(wrongSide.lines.all)")
        await assertEventually("\(host.json.lines.all)") {
            host.json.events(named: "peer-failed").contains { $0["error"] as? String == "wrong code" }
        }

        // The right code: the match is played, encrypted.
        let (right, rightSide) = try await joinAfterAPause(.encrypted(code: fixed))
        XCTAssertEqual(right, .success, "\(rightSide.lines.all)")
        let hostStatus = await host.task.value
        XCTAssertEqual(hostStatus, .success, "\(host.json.lines.all)")
        XCTAssertEqual(rightSide.events(named: "connected").first?["secure"] as? Bool, true)

        // The code was never in the host's reports or its log.
        XCTAssertFalse(host.json.lines.all.joined().contains(code), "\(host.json.lines.all)")
        XCTAssertFalse(log.all.isEmpty, "the host logged nothing")
        XCTAssertFalse(log.all.joined().contains(code), "the code is in the log")
    }

    func testNoSilentFallbackBetweenProtocols() async throws {
        let gate = try makeGate(.notDetermined)
        // A plaintext (protocol 1) joiner meets an encrypted host: told it needs protocol 2.
        let encrypted = try await startHost(gate: gate)
        let (old, oldSide) = try await join(encrypted.port, .plaintext, gate: gate)
        XCTAssertEqual(old, .rejected)
        XCTAssertTrue(errorMessage(oldSide).contains(
            "this host speaks protocol 2 (encrypted); update tictactoe, or join without --plaintext"),
            errorMessage(oldSide))

        // An encrypted joiner meets a plaintext host: says so.
        let plain = try await startHost(.plaintext, gate: gate)
        XCTAssertEqual(plain.json.events(named: "listening").first?["secure"] as? Bool, false)
        let (new, newSide) = try await join(plain.port, gate: gate)
        XCTAssertEqual(new, .rejected)
        let message = errorMessage(newSide)
        XCTAssertTrue(message.contains("speaks protocol 1 (unencrypted)") && message.contains("--plaintext"), message)

        // Both ends plaintext on loopback: allowed.
        let (both, bothSide) = try await join(plain.port, .plaintext, gate: gate)
        XCTAssertEqual(both, .success, "\(bothSide.lines.all)")
        XCTAssertEqual(bothSide.events(named: "connected").first?["secure"] as? Bool, false)
        let plainStatus = await plain.task.value
        XCTAssertEqual(plainStatus, .success)

        // The encrypted host still serves an encrypted joiner.
        let (encryptedJoin, _) = try await join(encrypted.port, gate: gate)
        XCTAssertEqual(encryptedJoin, .success)
        let encryptedStatus = await encrypted.task.value
        XCTAssertEqual(encryptedStatus, .success)
    }

    /// Without a manifest there is no transport security policy to allow plaintext on the LAN: the host ends with
    /// the manifest error's own code (12), before it listens.
    func testAPlaintextHostWithoutAManifestEndsWithTheManifestsCode() async throws {
        let gate = try makeGate(.allowed, manifest: nil)
        let host = JSONSide()
        let request = HostRequest(port: 0, matches: 1, advertise: false, origin: origin, security: .plaintext)
        let status = await hostMatches(
            request, options: MatchOptions(name: "host", player: .perfect, seed: 1, games: 1, clock: ContinuousClock()),
            gate: gate, reporter: host.reporter)
        XCTAssertEqual(status, .localNetworkNotAllowed)
        XCTAssertTrue(errorMessage(host).hasPrefix("no app manifest (Info.plist) found"), errorMessage(host))
        XCTAssertTrue(host.events(named: "listening").isEmpty)
    }

    func testTheManifestRefusesPlaintextOnTheLANBeforeAnythingIsSent() async throws {
        // Allowed access, so that only the manifest's transport security stands in the way. 192.0.2.1 is TEST-NET-1:
        // the refusal comes before any socket is opened.
        let gate = try makeGate(.allowed)
        let joiner = JSONSide()
        let request = JoinRequest(
            target: try JoinTarget(parsing: "192.0.2.1:7878"), connectTimeout: .seconds(30), origin: origin,
            security: .plaintext)
        let status = await joinMatch(
            request,
            options: MatchOptions(name: "joiner", player: .perfect, seed: 1, games: nil, clock: ContinuousClock()),
            gate: gate,
            reporter: joiner.reporter)
        XCTAssertEqual(status, .transportSecurityRefused)
        XCTAssertEqual(status.rawValue, 14)
        let message = errorMessage(joiner)
        XCTAssertTrue(message.hasPrefix("App Transport Security policy requires a secure connection to 192.0.2.1"),
                      message)
        XCTAssertTrue(message.contains("would allow it with NSAllowsLocalNetworking = true"), message)
        XCTAssertTrue(joiner.events(named: "state").isEmpty, "it started connecting: \(joiner.lines.all)")

        let host = JSONSide()
        let hostRequest = HostRequest(port: 0, matches: 1, advertise: false, origin: origin, security: .plaintext)
        let hostStatus = await hostMatches(
            hostRequest,
            options: MatchOptions(name: "host", player: .perfect, seed: 1, games: 1, clock: ContinuousClock()),
            gate: gate,
            reporter: host.reporter)
        XCTAssertEqual(hostStatus, .transportSecurityRefused)
        XCTAssertTrue(errorMessage(host).hasPrefix("cannot host an unencrypted game (--plaintext) on the local network"),
                      errorMessage(host))
        XCTAssertTrue(host.events(named: "listening").isEmpty)
    }
}

private let origin = OperationOrigin("encrypted match tests")

/// A joiner (following the host's games) to 127.0.0.1:`port`: its exit status and its `--json` lines.
private func join(
    _ port: Int, _ security: JoinSecurity = .encrypted(code: nil), gate: LocalNetworkGate,
    clock: any Clock<Duration> = ContinuousClock()
) async throws -> (ExitStatus, JSONSide) {
    let json = JSONSide()
    let request = JoinRequest(
        target: try JoinTarget(parsing: "127.0.0.1:\(port)"), connectTimeout: .seconds(10), origin: origin,
        security: security)
    let status = await joinMatch(
        request, options: MatchOptions(name: "joiner", player: .perfect, seed: 3, games: nil, clock: clock),
        gate: gate, reporter: json.reporter)
    return (status, json)
}
