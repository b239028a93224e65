import AppCore
import Bonjour
import Foundation
import GameClient
import GameProtocol
import GameTransport
import Logging
import MatchPlay
import NIOCore
import TicTacToeTestSupport
import XCTest

import AppManifest
@testable import LocalNetworkPrivacy

/// The app core's coordinators, in process, over loopback only. Where a test needs the local network's rules, its
/// gate treats loopback as the LAN (so nothing but 127.0.0.1 is ever used), over a decision in a temporary directory.
final class CoordinatorTests: XCTestCase {
    private let origin = OperationOrigin("coordinator tests")
    /// Every host started, so that a test can stop one that would keep serving.
    private let hosts = Recorder<LoopbackHost>()

    /// A perfect player named `name`, on the real clock.
    private func options(_ name: String, games: Int? = 1, moveDelay: Duration = .zero) -> MatchOptions {
        MatchOptions(
            name: name, player: .perfect, seed: 1, games: games, moveDelay: moveDelay, clock: ContinuousClock())
    }

    /// Hosts on 127.0.0.1, port chosen by the kernel; returns the task, the host's reports and its port.
    private func startHost(
        gate: LocalNetworkGate, options: MatchOptions, matches: Int = 1, advertise: Bool = false
    ) async throws -> (Task<ExitStatus, Never>, Recorder<MatchReport>, Int) {
        let request = HostRequest(target: .address("127.0.0.1"), port: 0, matches: matches, advertise: advertise,
                                  origin: origin)
        let host = try await LoopbackHost.start(request, options: options, gate: gate)
        hosts.append(host)
        return (host.task, host.reports, host.port)
    }


    /// A joiner (following the host's games) to 127.0.0.1:`port`, in a task; returns it and the joiner's reports.
    private func startJoin(
        port: Int, gate: LocalNetworkGate
    ) throws -> (Task<ExitStatus, Never>, Recorder<MatchReport>) {
        let reports = Recorder<MatchReport>()
        let request = try joinRequest(port)
        let joinerOptions = options("joiner", games: nil)
        let task = Task {
            await joinMatch(request, options: joinerOptions, gate: gate, reporter: ClosureReporter { reports.append($0) })
        }
        return (task, reports)
    }

    private func joinRequest(_ port: Int) throws -> JoinRequest {
        JoinRequest(target: try JoinTarget(parsing: "127.0.0.1:\(port)"), connectTimeout: .seconds(10), origin: origin)
    }

    // MARK: Exit codes

    func testEveryFailureMapsToItsDocumentedExitCode() {
        let cases: [(Error, ExitStatus)] = [
            (ConnectionError.unreachable("x"), .unreachable),
            (ConnectionError.badAddress("x"), .unreachable),
            (ConnectionError.timedOut("x"), .timeout),
            (ConnectionError.rejected(reason: "busy", text: "x"), .rejected),
            (ConnectionError.protocolViolation("x"), .protocolError),
            (ConnectionError.secureHandshakeFailed("x"), .protocolError),
            (ConnectionError.peerError("x"), .protocolError),
            (ConnectionError.closedDuringHandshake, .peerLeft),
            (ConnectionError.localNetworkRefused("x"), .localNetworkNotAllowed),
            (LocalNetworkAccessError.refused(.manifest("x")), .localNetworkNotAllowed),
            (LocalNetworkAccessError.timedOut(after: .seconds(1), reason: "x"), .localNetworkWaitTimedOut),
        ]
        for (error, status) in cases {
            XCTAssertEqual(ExitStatus(failure: error), status, "\(error)")
        }
        XCTAssertEqual(ExitStatus(failure: CancellationError(), stop: .quit), .interrupted)
        XCTAssertEqual(ExitStatus(failure: CancellationError(), stop: .shutdown), .terminated)
        XCTAssertEqual(MatchSession.End.localNetworkOff.exitStatus, .localNetworkNotAllowed)
        XCTAssertEqual(MatchSession.End.localNetworkOff.name, "local-network-off")
        XCTAssertEqual(MatchSession.End.localNetworkOff.text, "local network access was turned off")
    }

    // MARK: Host and join

    func testAHostAndAJoinerOnLoopbackPlayAMatchWithoutAskingAndTheHostIsNotAdvertised() async throws {
        let gate = try makeGate(.notDetermined)  // never asked: loopback needs no permission
        let (host, hostReports, port) = try await startHost(gate: gate, options: options("host"), advertise: true)
        let joinReports = Recorder<MatchReport>()
        let status = await joinMatch(try joinRequest(port), options: options("joiner", games: nil), gate: gate,
                                     reporter: ClosureReporter { joinReports.append($0) })
        let hostStatus = await host.value
        XCTAssertEqual(status, .success, "\(joinReports.all)")
        XCTAssertEqual(hostStatus, .success, "\(hostReports.all)")
        XCTAssertEqual(gate.store.read(), .notDetermined, "nobody was asked")
        let notAdvertised = hostReports.all.compactMap { report -> String? in
            if case .discovery(.advertisingUnavailable(let message)) = report { return message }
            return nil
        }
        XCTAssertEqual(notAdvertised.count, 1, "\(hostReports.all)")
        XCTAssertTrue(notAdvertised.first?.contains("listens on 127.0.0.1 only") == true, "\(notAdvertised)")
        for case .connectionState(.waiting(let reason)) in joinReports.all {
            XCTFail("a loopback join waited: \(reason)")
        }
        // Where joiners reach it: 127.0.0.1 alone (only this machine), however many interfaces the machine has.
        let addresses = hostReports.all.compactMap { report -> [JoinAddress]? in
            if case .listening(_, _, _, _, let addresses) = report { return addresses }
            return nil
        }
        XCTAssertEqual(addresses.first, [JoinAddress(host: "127.0.0.1", port: port, kind: .loopback)], "\(hostReports.all)")
    }

    /// A host on every interface lists the addresses its interface listing gives (injected here: the live one reads
    /// getifaddrs), with the port it got, link-local last; nothing connects to them.
    func testAHostOnEveryInterfaceReportsTheJoinAddressesOfItsInterfaces() async throws {
        let gate = try makeGate(.allowed)
        let interfaces = [
            InterfaceAddress(interface: "lo", family: .ipv4, address: "127.0.0.1", isLoopback: true),
            InterfaceAddress(interface: "eth0", family: .ipv6, address: "fe80::1%eth0"),
            InterfaceAddress(interface: "eth0", family: .ipv4, address: "198.18.0.12"),
        ]
        let request = HostRequest(target: .everyInterface, port: 0, matches: 1, advertise: false, origin: origin,
                                  interfaces: { interfaces })
        let host = try await LoopbackHost.start(request, options: options("host"), gate: gate)
        let port = host.port
        host.listeners.all.forEach { $0.stop() }
        _ = await host.task.value
        let listened = host.reports.all.compactMap { report -> (String, [JoinAddress])? in
            if case .listening(let host, _, _, _, let addresses) = report { return (host, addresses) }
            return nil
        }
        let (bindHost, addresses) = try XCTUnwrap(listened.first)
        var expected = [JoinAddress(host: "198.18.0.12", port: port, kind: .routable)]
        if bindHost == "::" { expected.append(JoinAddress(host: "fe80::1", port: port, kind: .linkLocal)) }  // not 0.0.0.0
        XCTAssertEqual(addresses, expected, bindHost)
    }

    func testAJoinWaitsWhileNotDeterminedAndGoesOnByItselfWhenGranted() async throws {
        let hostGate = try makeGate(.notDetermined)
        let (host, _, port) = try await startHost(gate: hostGate, options: options("host"))
        let joinerGate = try makeGate(.notDetermined, loopbackIsLAN: true)
        let (join, joinReports) = try startJoin(port: port, gate: joinerGate)
        let waited = await eventually {
            joinReports.all.contains {
                if case .connectionState(.waiting(.notAllowed)) = $0 { return true }
                return false
            }
        }
        XCTAssertTrue(waited, "\(joinReports.all)")
        XCTAssertFalse(joinReports.all.contains { if case .connected = $0 { return true } else { return false } })
        try DecisionStore(directory: joinerGate.store.directory).write(.allowed)  // another process grants
        let status = await join.value
        XCTAssertEqual(status, .success, "\(joinReports.all)")
        _ = await host.value
    }

    func testTurningAccessOffEndsAMatchWithALANPeerAsLocalNetworkOff() async throws {
        let hostGate = try makeGate(.notDetermined)
        // The host thinks before each move, so the match is still going when access is turned off.
        let (host, hostReports, port) = try await startHost(
            gate: hostGate, options: options("host", games: 5, moveDelay: .milliseconds(200)))
        let joinerGate = try makeGate(.allowed, loopbackIsLAN: true)
        let (join, joinReports) = try startJoin(port: port, gate: joinerGate)
        let playing = await eventually {
            joinReports.all.contains { if case .session(.gameStarted) = $0 { return true } else { return false } }
        }
        XCTAssertTrue(playing, "\(joinReports.all)")
        try DecisionStore(directory: joinerGate.store.directory).write(.denied)  // Settings, `privacy deny`
        let status = await join.value
        XCTAssertEqual(status, .localNetworkNotAllowed, "\(joinReports.all)")
        let ends = joinReports.all.compactMap { report -> MatchSession.End? in
            if case .session(.matchOver(let end, _)) = report { return end }
            return nil
        }
        XCTAssertEqual(ends, [.localNetworkOff])
        // The host saw its opponent leave; its match did not complete, so it would serve the next joiner: stop it.
        let peerLeft = await eventually {
            hostReports.all.contains { if case .session(.matchOver(.peerLeft, _)) = $0 { return true } else { return false } }
        }
        XCTAssertTrue(peerLeft, "\(hostReports.all)")
        hosts.all.flatMap(\.listeners.all).forEach { $0.stop() }
        let hostStatus = await host.value
        XCTAssertEqual(hostStatus, .peerLeft, "\(hostReports.all)")
    }

    func testALoopbackMatchGoesOnWhenAccessIsTurnedOff() async throws {
        let gate = try makeGate(.allowed)
        let (host, _, port) = try await startHost(gate: gate, options: options("host", games: 2, moveDelay: .milliseconds(50)))
        let (join, joinReports) = try startJoin(port: port, gate: gate)
        let playing = await eventually {
            joinReports.all.contains { if case .session(.gameStarted) = $0 { return true } else { return false } }
        }
        XCTAssertTrue(playing)
        try gate.store.write(.denied)
        let status = await join.value
        XCTAssertEqual(status, .success, "loopback needs no permission: \(joinReports.all)")
        _ = await host.value
    }

    func testABadScriptFailsBeforeAnythingIsAskedOrOpened() async throws {
        let gate = try makeGate(.notDetermined, loopbackIsLAN: true)
        let reports = Recorder<MatchReport>()
        let options = MatchOptions(
            name: "host", player: .script(path: "/nowhere/moves.txt"), seed: 1, games: 1, clock: ContinuousClock())
        let request = HostRequest(target: .everyInterface, port: 0, matches: 1, origin: origin)
        let status = await hostMatches(request, options: options, gate: gate, reporter: ClosureReporter { reports.append($0) })
        XCTAssertEqual(status, .scriptError)
        XCTAssertFalse(reports.all.contains { if case .listening = $0 { return true } else { return false } })
        XCTAssertEqual(gate.store.read(), .notDetermined)
    }

    func testAHostWithoutTheServiceInTheManifestSaysNoAuthAndIsNotAdvertised() async throws {
        let manifest = AppManifest(path: "Info.plist", displayName: "TicTacToe", usageDescription: nil, bonjourServices: [])
        let gate = try makeGate(.allowed, manifest: manifest, loopbackIsLAN: true)
        let (host, reports, port) = try await startHost(gate: gate, options: options("host"), advertise: true)
        let messages = reports.all.compactMap { report -> String? in
            if case .discovery(.advertisingUnavailable(let message)) = report { return message }
            return nil
        }
        XCTAssertEqual(messages, ["Not allowed to access the network (_tictactoe._tcp is not in NSBonjourServices)"])
        let joiner = await joinMatch(try joinRequest(port), options: options("joiner", games: nil), gate: gate,
                                     reporter: ClosureReporter { _ in })
        XCTAssertEqual(joiner, .success, "it still hosts: join by address works")
        _ = await host.value
    }

    // MARK: Waiting with a clock

    func testTheWaitTimeoutEndsAWaitWithExit11WithoutSleeping() async throws {
        let gate = try makeGate(.notDetermined, loopbackIsLAN: true)
        let clock = ManualClock()
        let access = LocalNetworkAccess(gate: gate, clock: clock)
        let reasons = Recorder<String>()
        let origin = self.origin
        let wait = Task {
            try await access.obtain({ $0.browse("_tictactoe._tcp", for: origin) }, waitTimeout: .seconds(30)) {
                reasons.append($0)
            }
        }
        await clock.waitForSleepers(1)
        await reasons.waitUntil("the reason it waits") { $0.count == 1 }
        await clock.advance(by: .seconds(29))
        XCTAssertEqual(clock.sleeping, 1, "not yet")
        await clock.advance(by: .seconds(1))
        do {
            _ = try await wait.value
            XCTFail("no timeout")
        } catch let error as LocalNetworkAccessError {
            XCTAssertEqual(error.exitStatus, .localNetworkWaitTimedOut)
            XCTAssertEqual(
                error.description,
                "still waiting for local network permission after 30 s (--wait-timeout): "
                    + LocalNetworkGate.waitingReason(for: .notDetermined))
        }
    }

    /// A join that needs the local network while the decision file has a format version this tictactoe does not
    /// know: it waits (no prompt is shown without a terminal), gives up at its wait timeout with exit 11, and keeps
    /// the file. 198.18.0.1 is only evaluated by the gate: nothing is sent to it.
    func testAJoinWaitingOnAnUnknownFormatVersionEndsWith11AndKeepsTheFile() async throws {
        let gate = try makeGate(.notDetermined)
        try FileManager.default.createDirectory(atPath: gate.store.directory, withIntermediateDirectories: true)
        let original = Data("{\"state\":\"allowed\",\"version\":4}\n".utf8)
        try original.write(to: URL(fileURLWithPath: gate.store.decisionPath))
        let clock = ManualClock()
        let request = JoinRequest(
            target: try JoinTarget(parsing: "198.18.0.1:7878"), waitTimeout: .milliseconds(500), origin: origin)
        let options = MatchOptions(name: "joiner", player: .perfect, seed: 1, games: nil, clock: clock)
        let join = Task { await joinMatch(request, options: options, gate: gate, reporter: ClosureReporter { _ in }) }
        await clock.waitForSleepers(1)
        await clock.advance(by: .milliseconds(500))
        let status = await join.value
        XCTAssertEqual(status, .localNetworkWaitTimedOut)
        XCTAssertEqual(status.rawValue, 11)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: gate.store.decisionPath)), original, "a waiting join keeps it")
    }

    func testAGrantBeforeTheWaitTimeoutWins() async throws {
        let gate = try makeGate(.notDetermined, loopbackIsLAN: true)
        let clock = ManualClock()
        let access = LocalNetworkAccess(gate: gate, clock: clock)
        let origin = self.origin
        let wait = Task { try await access.obtain({ $0.browse("_tictactoe._tcp", for: origin) }, waitTimeout: .seconds(30)) }
        await clock.waitForSleepers(1)
        try DecisionStore(directory: gate.store.directory).write(.allowed)
        let capability = try await wait.value
        XCTAssertEqual(capability.serviceType, "_tictactoe._tcp")
        XCTAssertEqual(capability.origin, origin)
    }
}

/// The port a host reports listening on, once it has (a failure of the test if it never does).
func listeningPort(
    _ reports: Recorder<MatchReport>, file: StaticString = #filePath, line: UInt = #line
) async throws -> Int {
    func port() -> Int? {
        for case .listening(_, let port, _, _, _) in reports.all { return port }
        return nil
    }
    _ = await eventually { port() != nil }
    return try XCTUnwrap(port(), "the host did not listen: \(reports.all)", file: file, line: line)
}
