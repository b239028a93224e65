@testable import AppFiles
import AppProcess
import Bonjour
import Foundation
import GameClient
import GameProtocol
import GameTransport
import LocalNetworkPrivacy
import MatchPlay
import PrivacyReport
import Series
import TicTacToeTestSupport
import XCTest

@testable import AppCore
import AppManifest

/// One mapping to exit codes: each error type says its own (`ExitStatusConvertible`), `ExitStatus(failure:)` reads
/// it, and an error type of the app core without one fails here.
final class ExitStatusTests: XCTestCase {
    private struct Coded: ExitStatusConvertible { var exitStatus: ExitStatus }
    private struct Uncoded: Error {}

    func testTheMappingReadsTheErrorsOwnCode() {
        XCTAssertEqual(ExitStatus(failure: Coded(exitStatus: .rejected)), .rejected)
        XCTAssertEqual(ExitStatus(failure: Uncoded()), .failure)
        XCTAssertEqual(ExitStatus(failure: CancellationError()), .failure)
        XCTAssertEqual(ExitStatus(failure: CancellationError(), stop: .quit), .interrupted)
        XCTAssertEqual(ExitStatus(failure: CancellationError(), stop: .shutdown), .terminated)
    }

    func testEachErrorSaysTheCodeItAlwaysHad() {
        let cases: [(any Error, ExitStatus)] = [
            (PlayerSpecError.unreadableScript(path: "p", why: "w"), .scriptError),
            (PlayerSpecError.invalidScript(path: "p", why: "w"), .scriptError),
            (PlayerSpecError.scriptFailed("out of moves"), .scriptError),
            (PlayerSpecError.invalidEngineCommand("w"), .scriptError),
            (ListenFailure(endpoint: Endpoint(host: "127.0.0.1", port: 7878), error: Uncoded()), .cannotListen),
            (SeriesFailure(game: 1, player: "a", why: "w"), .scriptError),
            (SeriesFailure(game: 1, player: nil, why: "w", exitStatus: .cannotListen), .cannotListen),
            (GameCodeSourceError.unreadable(source: "s", why: "w"), .wrongCode),
            (ReplayReport.Failure(message: "x.jsonl: no game in the record"), .dataError),
            (OutputError(stream: "standard output", code: EPIPE), .outputFailed),
            (LocalNetworkAccessError.refused(.missingEntitlement(key: "k", path: "p")), .entitlementMissing),
            (SecureChannelError.closedDuringHandshake, .peerLeft),
            (BonjourError.unavailable, .bonjourUnavailable),
            (BonjourError.notFound(name: "x"), .unreachable),
            // No manifest, none readable or a broken one: no local network access.
            (ManifestError.notFound(tried: ["/nowhere/Info.plist"], explicit: true), .localNetworkNotAllowed),
            (ManifestError.invalid(path: "Info.plist", reason: "r"), .localNetworkNotAllowed),
            // A decision that cannot be stored: 1, as documented.
            (DecisionStoreError.cannotWrite(path: "p", reason: "r"), .failure),
        ]
        for (error, status) in cases {
            XCTAssertEqual(ExitStatus(failure: error), status, "\(error)")
        }
        let listen = ListenFailure(endpoint: Endpoint(host: "::", port: 1), error: Uncoded())
        XCTAssertEqual(ExitStatus(failure: listen).rawValue, 9)
    }

    /// A match we left ends as the stop that made us leave: 143 for a shutdown, 130 for Ctrl-C.
    func testAMatchWeLeftEndsAsItsStop() {
        XCTAssertEqual(MatchSession.End.localLeft(.shutdown).exitStatus, .terminated)
        XCTAssertEqual(MatchSession.End.localLeft(.quit).exitStatus, .interrupted)
        XCTAssertEqual(ExitStatus(stoppedBy: .shutdown).rawValue, 143)
        XCTAssertEqual(ExitStatus(stoppedBy: .quit).rawValue, 130)
    }

    /// A wait a stop cut short says so, and gets the stop's status; any other failure says its own words.
    func testAFailureCutShortByAStopSaysSo() {
        let reports = Recorder<MatchReport>()
        let stop = StopSignal()
        stop.raise(.quit)
        let status = reportFailure(CancellationError(), reporter: ClosureReporter { reports.append($0) }, stop: stop)
        XCTAssertEqual(status, .interrupted)
        guard case .error("stopped before the match began", .interrupted)? = reports.all.last else {
            return XCTFail("\(reports.all)")
        }
        XCTAssertEqual(failureMessage(ConnectionError.unreachable("x"), before: "the match"),
                       "\(ConnectionError.unreachable("x"))")
    }

    /// Reads the sources as text: every error type declared in the app core, the interface, the modules above the
    /// core and the executable says its exit code, or is listed here with why it never ends a run by itself.
    func testEveryErrorTypeOfTheAppSaysItsExitCode() throws {
        let notEndingARun: Set<String> = [
            "Unsupported",  // the JSON encoder's own: a value it cannot write is a bug (exit 1)
            "LineGameError",  // a computer level the line game cannot play: a bug (exit 1)
            "ParseProblem",  // a settings file's problem: reported as a warning, the defaults apply
            "HumanChoice",  // resign or quit typed at the prompt: a move, not a failure
            // A record line that does not parse: replay reports it as its `ReplayReport.Failure` (exit 65).
            "GameRecordError", "Problem",
            "ArchiveError",  // a finished game that cannot be saved: the TUI says so, the run goes on
            "LobbyDecodingError",  // a lobby datagram that does not decode: dropped (the roster reports it)
            "LobbyEncodingError",  // a lobby message that cannot be written: not sent (logged), the lobby goes on
        ]
        let root = EngineSandbox.packageRoot
        var declared: [String: String] = [:]
        var conforming: Set<String> = []
        let declaration = try NSRegularExpression(
            pattern: #"(?:struct|enum|class)\s+(\w+)\s*:\s*([^{]*)\{"#)
        let extensionPattern = try NSRegularExpression(
            pattern: #"extension\s+([\w.]+)\s*:\s*[^{]*ExitStatusConvertible"#)
        let sources = root.appendingPathComponent("Sources")
        do {
            let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path))
            for case let path as String in enumerator where path.hasSuffix(".swift") {
                let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
                let range = NSRange(text.startIndex..., in: text)
                for match in extensionPattern.matches(in: text, range: range) {
                    if let name = Range(match.range(at: 1), in: text).map({ String(text[$0]) }) {
                        conforming.insert(String(name.split(separator: ".").last ?? ""))
                    }
                }
                let appCore = ["AppCore/", "GameClient/", "AppProcess/", "MatchPlay/", "JSONLines/",
                               "PrivacyCommands/", "HeadlessUI/", "Series/", "Lobby/", "tictactoe/"]
                    .contains { path.hasPrefix($0) }
                for match in declaration.matches(in: text, range: range) {
                    guard let name = Range(match.range(at: 1), in: text).map({ String(text[$0]) }),
                          let inherited = Range(match.range(at: 2), in: text).map({ String(text[$0]) })
                    else { continue }
                    let types = inherited.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    if types.contains("ExitStatusConvertible") { conforming.insert(name) }
                    if appCore, types.contains("Error") { declared[name] = path }
                }
            }
        }
        XCTAssertFalse(declared.isEmpty)
        for (name, path) in declared.sorted(by: { $0.key < $1.key })
        where !conforming.contains(name) && !notEndingARun.contains(name) {
            XCTFail("\(name) (Sources/\(path)) is an Error without an exit code: conform it to ExitStatusConvertible")
        }
        // The lower modules' errors that end runs (each says its code in its own file).
        let lower: [any ExitStatusConvertible.Type] = [
            ConnectionError.self, SecureChannelError.self, BonjourError.self, TransportSecurityRefusal.self,
            ManifestError.self, LockedFile.WriteFailure.self, DecisionStoreError.self, PrivacyReportLog.Failure.self,
        ]
        XCTAssertEqual(lower.count, 8)
    }
}
