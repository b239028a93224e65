import Foundation
import GameProtocol
import NIOCore
import XCTest

@testable import LocalNetworkPrivacy
import TicTacToeTestSupport
import AppManifest
import PrivacyReport

/// What a gate records in the privacy report: each operation's name and destination, allowed, waiting, refused, the
/// prompt shown and answered, each with its origin. (The report's file itself: PrivacyReportTests.)
final class GateReportTests: XCTestCase {
    private let lan = Endpoint(host: "198.18.0.1", port: 7878)
    private let group = try! MulticastGroup(ipv4: "239.255.77.77", ipv6: "ff02::7474", port: 7879)

    // MARK: What a decision becomes (the record's format is PrivacyReportLogTests')

    func testADecisionIsRecordedWithItsOperationDestinationVerdictAndOrigin() throws {
        let log = try makeReportLog()
        log.recordDecision(.allowed, for: .connect(lan), origin: OperationOrigin("tictactoe join"))
        let entry = try XCTUnwrap(try log.read().entries.first)
        XCTAssertEqual(entry.event, .decision)
        XCTAssertEqual(entry.verdict, "allowed")
        XCTAssertEqual(entry.operation, "connect")
        XCTAssertEqual(entry.destination, "198.18.0.1:7878")
        XCTAssertEqual(entry.outcome, .allowed)
        XCTAssertEqual(entry.origin, "tictactoe join")
        XCTAssertEqual(entry.time, Date(timeIntervalSince1970: 1_795_000_000))
    }

    func testAnOperationCarriedOutIsRecordedWithWhereItLed() throws {
        let log = try makeReportLog()
        log.recordOperation("resolve", destination: "Dana's game (_tictactoe._tcp): 198.18.0.11:7878",
                            origin: OperationOrigin("tictactoe join"))
        let text = try String(contentsOfFile: log.path, encoding: .utf8)
        XCTAssertEqual(text, """
            {"answer":null,"destination":"Dana's game (_tictactoe._tcp): 198.18.0.11:7878","detail":null,\
            "event":"operation","operation":"resolve","origin":"tictactoe join","outcome":null,"pid":\(getpid()),\
            "time":"2026-11-18T11:06:40.000Z","v":1,"verdict":null}

            """)
        let entry = try XCTUnwrap(try log.read().entries.first)
        XCTAssertEqual(entry.event, .operation)
        XCTAssertEqual(entry.operation, "resolve")
        XCTAssertNil(entry.outcome)
    }

    func testEveryOperationSaysWhereItGoes() {
        let operations: [(LocalNetworkOperation, String, String)] = [
            (.browse(serviceType: "_tictactoe._tcp"), "browse", "_tictactoe._tcp"),
            (.advertise(serviceType: "_tictactoe._tcp"), "advertise", "_tictactoe._tcp"),
            (.listen(bindHost: "*"), "listen", "*"),
            (.listen(bindHost: "192.168.1.2"), "listen", "192.168.1.2"),
            (.connect(Endpoint(host: "fe80::1%eth0", port: 7878)), "connect", "[fe80::1%eth0]:7878"),
            (.multicast(group), "multicast", "239.255.77.77:7879 [ff02::7474]:7879"),
            (.browseServiceTypes, "browse-service-types", "_services._dns-sd._udp"),
        ]
        for (operation, name, destination) in operations {
            XCTAssertEqual(operation.reportName, name)
            XCTAssertEqual(operation.reportDestination, destination)
        }
    }

    // MARK: The gate records

    /// The multicast entitlement, so that every operation reaches the decision.
    private var entitled: [String: Any] { [AppEntitlements.multicastKey: true] }

    private func summary(_ log: PrivacyReportLog) throws -> [String] {
        try log.read().entries.map { entry in
            [entry.event.rawValue, entry.operation ?? "-", entry.destination ?? "-", entry.outcome?.rawValue ?? "-",
             entry.verdict ?? "-", entry.detail ?? "-", entry.answer ?? "-", entry.origin ?? "-"]
                .joined(separator: " | ")
        }
    }

    func testTheGateRecordsAllowedWaitingAndRefusedDecisionsWithTheirOrigin() throws {
        let log = try makeReportLog()
        let gate = try makeGate(entitlements: entitled, report: log)
        let search = OperationOrigin("Search for games screen")
        XCTAssertNotNil(gate.connect(to: try .init(ipAddress: "127.0.0.1", port: 7878), for: .init("tictactoe join"))
            .capability)
        guard case .waiting = gate.browse("_tictactoe._tcp", for: search) else { return XCTFail("not waiting") }
        try gate.store.write(.denied)
        guard case .waiting = gate.listen(on: .everyInterface, for: .init("tictactoe host")) else { return XCTFail() }
        try gate.store.write(.allowed)
        XCTAssertNotNil(gate.advertise("_tictactoe._tcp", for: .init("tictactoe host")).capability)
        guard case .refused = gate.browse("_other._tcp", for: search) else { return XCTFail("not NoAuth") }
        XCTAssertNotNil(gate.joinGroup(group, for: .init("Lobby screen")).capability)
        XCTAssertEqual(try summary(log), [
            "decision | connect | 127.0.0.1:7878 | allowed | exempt | - | - | tictactoe join",
            "decision | browse | _tictactoe._tcp | waiting | not-determined | - | - | Search for games screen",
            "decision | listen | * | waiting | denied | - | - | tictactoe host",
            "decision | advertise | _tictactoe._tcp | allowed | allowed | - | - | tictactoe host",
            "decision | browse | _other._tcp | refused | no-auth | NSBonjourServices does not list _other._tcp | - | "
                + "Search for games screen",
            "decision | multicast | 239.255.77.77:7879 [ff02::7474]:7879 | allowed | allowed | - | - | Lobby screen",
        ])
    }

    func testAMissingEntitlementIsRecordedAsRefusedWithTheKey() throws {
        let log = try makeReportLog()
        let gate = try makeGate(entitlements: nil, report: log)
        try gate.store.write(.allowed)
        guard case .refused = gate.joinGroup(group, for: .init("tictactoe lobby")) else { return XCTFail() }
        guard case .refused = gate.browseServiceTypes(for: .init("tictactoe browse --all-types")) else {
            return XCTFail()
        }
        XCTAssertEqual(try summary(log), [
            "decision | multicast | 239.255.77.77:7879 [ff02::7474]:7879 | refused | missing-entitlement | "
                + "com.apple.developer.networking.multicast | - | tictactoe lobby",
            "decision | browse-service-types | _services._dns-sd._udp | refused | missing-entitlement | "
                + "com.apple.developer.networking.multicast | - | tictactoe browse --all-types",
        ])
    }

    func testTheReportSaysWhichActionShowedThePromptAndHowItWasAnswered() throws {
        let log = try makeReportLog()
        let gate = try makeGate(entitlements: entitled, report: log)
        let shown = Recorder<LocalNetworkOperation>()
        gate.setPromptHandler { shown.append($0.operation) }
        let join = OperationOrigin("Join a game screen")
        guard case .waiting = gate.connect(to: try .init(ipAddress: "198.18.0.1", port: 7878), for: join) else {
            return XCTFail()
        }
        // Asked again while the prompt shows: recorded as a decision, no second prompt.
        guard case .waiting = gate.browse("_tictactoe._tcp", for: .init("Search for games screen")) else {
            return XCTFail()
        }
        XCTAssertEqual(shown.all.count, 1)
        try gate.answerPrompt(allow: true)
        XCTAssertNotNil(gate.connect(to: try .init(ipAddress: "198.18.0.1", port: 7878), for: join).capability)
        XCTAssertEqual(try summary(log), [
            "decision | connect | 198.18.0.1:7878 | waiting | not-determined | - | - | Join a game screen",
            "prompt-shown | connect | 198.18.0.1:7878 | waiting | not-determined | - | - | Join a game screen",
            "decision | browse | _tictactoe._tcp | waiting | not-determined | - | - | Search for games screen",
            "prompt-answered | connect | 198.18.0.1:7878 | - | - | - | allow | Join a game screen",
            "decision | connect | 198.18.0.1:7878 | allowed | allowed | - | - | Join a game screen",
        ])
    }

    func testAPromptAFrontEndShowsItselfIsRecordedWithItsOperation() throws {
        // The TUI shows its own prompt (no prompt handler): it says so, and the answer is recorded with it.
        let log = try makeReportLog()
        let gate = try makeGate(entitlements: entitled, report: log)
        let search = OperationOrigin("Search for games screen")
        XCTAssertEqual(gate.evaluate(.browse(serviceType: "_tictactoe._tcp"), for: search), .needsPrompt)
        gate.promptPresented(for: .browse(serviceType: "_tictactoe._tcp"), origin: search)
        try gate.answerPrompt(allow: false)
        XCTAssertEqual(try summary(log).suffix(2), [
            "prompt-shown | browse | _tictactoe._tcp | waiting | not-determined | - | - | Search for games screen",
            "prompt-answered | browse | _tictactoe._tcp | - | - | - | deny | Search for games screen",
        ])
    }

    /// A front end asks the gate before it starts an operation (to show the prompt first); the operation then asks
    /// again for its capability: one record per operation. A refused operation never starts: its question is recorded.
    func testAnOperationAFrontEndAskedAboutFirstIsRecordedOnce() throws {
        let log = try makeReportLog()
        let manifest = AppManifest(path: "Info.plist", displayName: "TicTacToe", usageDescription: nil, bonjourServices: [])
        let gate = try makeGate(manifest: manifest, entitlements: entitled, report: log)
        let host = OperationOrigin("Host a game screen")
        try gate.store.write(.allowed)
        XCTAssertEqual(gate.evaluate(.listen(bindHost: ""), for: host), .allowed)
        XCTAssertNotNil(gate.listen(on: .everyInterface, for: host).capability)
        let endpoint = try SocketAddress(ipAddress: "198.18.0.1", port: 7878)
        XCTAssertEqual(gate.evaluate(.connect(Endpoint(endpoint)), for: .init("Watch a game screen")), .allowed)
        XCTAssertNotNil(gate.connect(to: endpoint, for: .init("Watch a game screen")).capability)
        XCTAssertEqual(gate.evaluate(.browse(serviceType: "_tictactoe._tcp"), for: .init("Search for games screen")),
                       .noAuth(serviceType: "_tictactoe._tcp"))
        XCTAssertEqual(try summary(log).filter { $0.hasPrefix("decision") }, [
            "decision | listen | * | allowed | allowed | - | - | Host a game screen",
            "decision | connect | 198.18.0.1:7878 | allowed | allowed | - | - | Watch a game screen",
            "decision | browse | _tictactoe._tcp | refused | no-auth | NSBonjourServices does not list _tictactoe._tcp | - "
                + "| Search for games screen",
        ])
    }

    /// Each change of the decision is recorded with who made it: Settings, `tictactoe privacy grant`/`deny`/`reset`
    /// (the prompt's answer is recorded by the gate, with the operation that showed it).
    func testEachChangeOfTheDecisionIsRecordedWithWhoMadeIt() throws {
        let directory = try makeTemporaryDirectory(self)
        let log = PrivacyReportLog(directory: directory + "/state", now: ReportTime().clock)
        let store = DecisionStore(directory: directory + "/config", report: log)
        try store.write(.allowed, source: "settings")
        try store.write(.denied, source: "tictactoe privacy deny")
        try store.write(.allowed, source: "prompt")
        try store.write(.notDetermined, source: "tictactoe privacy reset")
        XCTAssertEqual(try summary(log), [
            "operation | permission | allowed | - | - | - | - | Settings screen",
            "operation | permission | denied | - | - | - | - | tictactoe privacy deny",
            "operation | permission | not-determined | - | - | - | - | tictactoe privacy reset",
        ])
        // The gate's own store (Settings writes through it) records in the gate's report.
        XCTAssertTrue(LocalNetworkGate(explicitManifestPath: nil, report: log).store.report === log)
    }

    func testAGateWhoseReportCannotBeWrittenStillDecides() throws {
        let log = try makeReportLog()
        let gate = try makeGate(entitlements: entitled, report: log)
        try FileManager.default.createDirectory(atPath: log.path, withIntermediateDirectories: true)
        try gate.store.write(.allowed)
        XCTAssertNotNil(gate.connect(to: try .init(ipAddress: "198.18.0.1", port: 7878), for: .init("t")).capability)
    }
}
