import GameProtocol
import Foundation
import GameTransport
import NIOCore
import XCTest

@testable import LocalNetworkPrivacy
import TicTacToeTestSupport
import AppManifest

/// The gate's verdicts. No test sends anything to a non-loopback address: LAN endpoints (198.18.0.0/15, the
/// benchmarking range) are only ever passed to `evaluate`.
final class LocalNetworkGateTests: XCTestCase {
    private let lan = Endpoint(host: "198.18.0.1", port: 7878)

    func testLoopbackIsExemptWhateverTheStateOrTheManifest() throws {
        let gate = try makeGate(manifest: nil)  // not even a manifest is needed
        for state in LocalNetworkAuthorization.allCases {
            try gate.store.write(state)
            for host in ["127.0.0.1", "127.8.9.10", "::1", "localhost", "LOCALHOST", "::ffff:127.0.0.1"] {
                XCTAssertEqual(gate.evaluate(.connect(Endpoint(host: host, port: 7878))), .exempt, "\(host) (\(state))")
            }
            for host in ["127.0.0.1", "::1"] {
                XCTAssertEqual(gate.evaluate(.listen(bindHost: host)), .exempt, "listen \(host) (\(state))")
            }
        }
    }

    func testTheVerdictTable() throws {
        let gate = try makeGate()
        let declared = LocalNetworkOperation.browse(serviceType: "_tictactoe._tcp")
        let gated: [LocalNetworkOperation] = [
            declared, .advertise(serviceType: "_tictactoe._tcp"), .connect(lan),
            .connect(Endpoint(host: "myhost", port: 1)),
            .listen(bindHost: "0.0.0.0"), .listen(bindHost: "::"), .listen(bindHost: "198.18.0.1"),
        ]
        let expected: [LocalNetworkAuthorization: GateVerdict] = [
            .notDetermined: .needsPrompt, .denied: .denied, .allowed: .allowed,
        ]
        for (state, verdict) in expected {
            try gate.store.write(state)
            XCTAssertEqual(gate.authorization, state)
            for operation in gated {
                XCTAssertEqual(gate.evaluate(operation), verdict, "\(operation) when \(state)")
            }
            XCTAssertEqual(gate.evaluate(.browse(serviceType: "_other._tcp")), .noAuth(serviceType: "_other._tcp"))
            XCTAssertEqual(gate.evaluate(.advertise(serviceType: "_http._tcp")), .noAuth(serviceType: "_http._tcp"))
        }
        XCTAssertTrue(GateVerdict.allowed.mayProceed)
        XCTAssertTrue(GateVerdict.exempt.mayProceed)
        XCTAssertFalse(GateVerdict.needsPrompt.mayProceed)
        XCTAssertFalse(GateVerdict.denied.mayProceed)
    }

    func testNoAuthComesBeforeThePromptAndNamesTheKey() throws {
        let lines = Recorder<String>()
        let manifest = AppManifest(
            path: "Info.plist", displayName: "T", usageDescription: "u", bonjourServices: [])
        let gate = try makeGate(manifest: manifest, lines: lines)
        let prompts = Recorder<LocalNetworkPromptRequest>()
        gate.setPromptHandler { prompts.append($0) }
        XCTAssertEqual(gate.evaluate(.browse(serviceType: "_tictactoe._tcp")), .noAuth(serviceType: "_tictactoe._tcp"))
        XCTAssertEqual(prompts.all.count, 0, "no prompt for NoAuth")
        let line = try XCTUnwrap(lines.all.first { $0.contains("NoAuth") }, "\(lines.all)")
        XCTAssertTrue(line.hasPrefix("error"), line)
        XCTAssertTrue(line.contains("-65555"), line)
        XCTAssertTrue(line.contains("Not allowed to access the network"), line)
        XCTAssertTrue(line.contains("NSBonjourServices must list \"_tictactoe._tcp\""), line)
        XCTAssertTrue(line.contains(try gate.manifest().path), line)
        XCTAssertEqual(LocalNetworkGate.noAuthErrorCode, -65555)
    }

    func testAMissingManifestIsAnErrorAtTheMomentOfNetworkUse() throws {
        let lines = Recorder<String>()
        let gate = try makeGate(manifest: nil, lines: lines)
        try gate.store.write(.allowed)
        guard case .manifestError(let text) = gate.evaluate(.connect(lan)) else { return XCTFail("no manifest error") }
        XCTAssertTrue(text.contains("/nowhere/Info.plist"), text)
        guard case .manifestError = gate.evaluate(.browse(serviceType: "_tictactoe._tcp")) else { return XCTFail() }
        XCTAssertTrue(
            lines.all.contains { $0.hasPrefix("error") && $0.contains("/nowhere/Info.plist") }, "\(lines.all)")
    }

    func testTheManifestIsLoadedLazilyAndOnce() throws {
        let loads = Recorder<Int>()
        let gate = LocalNetworkGate(store: DecisionStore(directory: try makeTemporaryDirectory(self))) {
            loads.append(1)
            return standardManifest
        }
        XCTAssertEqual(loads.all.count, 0, "creating the gate reads nothing")
        _ = gate.evaluate(.connect(Endpoint(host: "127.0.0.1", port: 1)))
        XCTAssertEqual(loads.all.count, 0, "loopback needs no manifest")
        _ = gate.evaluate(.connect(lan))
        _ = gate.evaluate(.browse(serviceType: "_tictactoe._tcp"))
        XCTAssertEqual(loads.all.count, 1)
    }

    func testAFailedManifestLoadIsRetried() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = directory + "/Info.plist"
        let gate = LocalNetworkGate(
            explicitManifestPath: path, store: DecisionStore(directory: directory + "/config"), report: nil)
        guard case .manifestError(let text) = gate.evaluate(.connect(lan)) else { return XCTFail() }
        XCTAssertTrue(text.contains(path) && text.contains("--info-plist"), text)
        _ = try writeManifest(standardEntries, in: directory)
        XCTAssertEqual(gate.evaluate(.connect(lan)), .needsPrompt, "fixed without restarting")
    }

    func testTheNoBonjourServicesManifestGivesNoAuth() throws {
        let gate = LocalNetworkGate(
            explicitManifestPath: assetsDirectory + "/Info-NoBonjourServices.plist",
            store: DecisionStore(directory: try makeTemporaryDirectory(self)), report: nil
        )
        XCTAssertEqual(gate.evaluate(.browse(serviceType: "_tictactoe._tcp")), .noAuth(serviceType: "_tictactoe._tcp"))
        XCTAssertEqual(
            gate.evaluate(.advertise(serviceType: "_tictactoe._tcp")), .noAuth(serviceType: "_tictactoe._tcp"))
        XCTAssertEqual(gate.evaluate(.connect(lan)), .needsPrompt, "joining by address still just needs permission")
    }

    func testAnsweringThePrompt() throws {
        let gate = try makeGate()
        XCTAssertEqual(gate.authorization, .notDetermined)
        try gate.answerPrompt(allow: false)
        XCTAssertEqual(gate.authorization, .denied)
        XCTAssertEqual(gate.evaluate(.connect(lan)), .denied)
        try gate.answerPrompt(allow: true)
        XCTAssertEqual(gate.store.decision()?.source, "prompt")
        XCTAssertEqual(gate.evaluate(.connect(lan)), .allowed)
    }

    func testWaitingReasons() throws {
        let gate = try makeGate()
        XCTAssertEqual(
            gate.waitingReason,
            "local network permission not determined: answer the prompt, or run `tictactoe privacy grant`"
        )
        try gate.store.write(.denied)
        XCTAssertEqual(
            gate.waitingReason,
            "local network permission denied: turn on Local Network in Settings › Privacy, "
                + "or run `tictactoe privacy grant`"
        )
    }

    /// A command's waiting reason says what can be done from it: the question on its terminal when it has one (no
    /// Settings screen there), else `tictactoe privacy grant` alone (no prompt is shown).
    func testACommandsWaitingReasonsNameWhatItCanDo() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = try writeManifest(standardEntries, in: directory)
        let gate = LocalNetworkGate(
            explicitManifestPath: path, store: DecisionStore(directory: directory + "/config"), report: nil,
            frontEnd: .commandLine)
        let lan = try SocketAddress(ipAddress: "198.18.0.1", port: 7878)
        guard case .waiting(let undecided, _) = gate.connect(to: lan, for: .init("tictactoe join")) else {
            return XCTFail("not waiting")
        }
        XCTAssertEqual(undecided, "local network permission not determined, and there is no terminal to ask on: "
                       + "run `tictactoe privacy grant`")
        gate.setPromptHandler { _ in }  // a terminal: the question is asked there
        XCTAssertEqual(gate.waitingReason,
                       "local network permission not determined: answer the prompt, or run `tictactoe privacy grant`")
        try gate.answerPrompt(allow: false)
        guard case .waiting(let denied, .denied) = gate.connect(to: lan, for: .init("tictactoe join")) else {
            return XCTFail("not waiting")
        }
        XCTAssertEqual(denied, "local network permission denied: run `tictactoe privacy grant` to allow it")
    }

    func testEveryDecisionAndTransitionIsLogged() throws {
        let lines = Recorder<String>()
        let gate = try makeGate(lines: lines)
        _ = gate.evaluate(.connect(lan))
        _ = gate.evaluate(.connect(Endpoint(host: "::1", port: 7878)))
        try gate.answerPrompt(allow: true)
        _ = gate.evaluate(.browse(serviceType: "_tictactoe._tcp"))
        let all = lines.all
        XCTAssertTrue(
            all.contains {
                $0.contains("gate: connect to 198.18.0.1:7878")
                    && $0.contains("waiting: local network permission not determined")
            }, "\(all)")
        XCTAssertTrue(all.contains { $0.contains("gate: connect to [::1]:7878: exempt (loopback)") }, "\(all)")
        XCTAssertTrue(all.contains { $0.contains("changed: not determined -> allowed") }, "\(all)")
        XCTAssertTrue(all.contains { $0.contains("gate: browse _tictactoe._tcp: allowed") }, "\(all)")
    }

    func testThePromptHandlerIsAskedOnceUntilAnsweredOrDismissed() throws {
        let gate = try makeGate()
        let prompts = Recorder<LocalNetworkPromptRequest>()
        gate.setPromptHandler { prompts.append($0) }
        _ = gate.evaluate(.browse(serviceType: "_tictactoe._tcp"))
        _ = gate.evaluate(.connect(lan))
        XCTAssertEqual(prompts.all.count, 1)
        let request = try XCTUnwrap(prompts.all.first)
        XCTAssertEqual(request.title, standardManifest.promptTitle())
        XCTAssertEqual(request.message, "TicTacToe uses the local network to discover players around you.")
        XCTAssertEqual(request.operation, .browse(serviceType: "_tictactoe._tcp"))
        gate.promptDismissed()
        _ = gate.evaluate(.connect(lan))
        XCTAssertEqual(prompts.all.count, 2)
        try gate.answerPrompt(allow: false)
        _ = gate.evaluate(.connect(lan))
        XCTAssertEqual(prompts.all.count, 2, "denied: no prompt (Settings or `privacy grant` change it)")
        try gate.store.reset()
        _ = gate.evaluate(.connect(lan))
        XCTAssertEqual(prompts.all.count, 3, "reset brings the prompt back")
    }

    func testCapabilitiesAreMintedOnlyWhenTheGateAllows() throws {
        let gate = try makeGate()
        let origin = OperationOrigin("test")
        let lanAddress = try SocketAddress(ipAddress: "198.18.0.1", port: 7878)
        func waits<C>(_ clearance: Clearance<C>, _ state: LocalNetworkAuthorization) -> Bool {
            if case .waiting(_, let seen) = clearance { return seen == state }
            return false
        }
        XCTAssertTrue(waits(gate.connect(to: lanAddress, for: origin), .notDetermined))
        XCTAssertTrue(waits(gate.listen(on: .everyInterface, for: origin), .notDetermined))
        XCTAssertTrue(waits(gate.browse("_tictactoe._tcp", for: origin), .notDetermined))
        let loopback = try XCTUnwrap(gate.connect(to: try SocketAddress(ipAddress: "::1", port: 7878), for: origin).capability)
        XCTAssertTrue(loopback.isLoopback, "loopback is cleared without asking")
        let loopbackListen = try XCTUnwrap(gate.listen(on: .address("127.0.0.1"), for: origin).capability)
        XCTAssertTrue(loopbackListen.isLoopback)

        try gate.store.write(.denied)
        XCTAssertTrue(waits(gate.connect(to: lanAddress, for: origin), .denied))
        XCTAssertTrue(waits(gate.advertise("_tictactoe._tcp", for: origin), .denied))

        try gate.store.write(.allowed)
        let connect = try XCTUnwrap(gate.connect(to: lanAddress, for: origin).capability)
        XCTAssertEqual(connect.address, lanAddress)
        XCTAssertFalse(connect.isLoopback)
        XCTAssertEqual(connect.origin, origin)
        let listen = try XCTUnwrap(gate.listen(on: .everyInterface, for: origin).capability)
        XCTAssertFalse(listen.isLoopback)
        XCTAssertEqual(listen.target, .everyInterface)
        guard case .refused(.noAuth(let type, _)) = gate.browse("_other._tcp", for: origin) else {
            return XCTFail("an undeclared service type is NoAuth, even when allowed")
        }
        XCTAssertEqual(type, "_other._tcp")
    }

    func testRevocationsYieldWhenAccessIsTurnedOffAndAtOnceWhenItIsOffAlready() async throws {
        let gate = try makeGate()
        try gate.store.write(.allowed)
        var allowedThen = gate.revocations().makeAsyncIterator()
        try DecisionStore(directory: gate.store.directory).write(.denied)  // another process turns it off
        let revoked: Void? = await allowedThen.next()
        XCTAssertNotNil(revoked)
        // Subscribed after it was turned off (between the gate's yes and the subscription): at once.
        var offAlready = gate.revocations().makeAsyncIterator()
        let atOnce: Void? = await offAlready.next()
        XCTAssertNotNil(atOnce)
    }
}
