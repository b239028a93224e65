import Foundation
import TicTacToeTestSupport
import XCTest

/// `tictactoe privacy report`, with the real binary: what browse and match did (waiting, refused by NoAuth, allowed,
/// loopback), each with the command that asked, as text and as JSON lines; records of several processes appending at
/// once, none lost or mixed; and a report that cannot be read says so (exit 1) while games go on.
final class PrivacyReportTests: ProcessTestCase {
    private static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets").path

    /// A fresh HOME with its own XDG directories (undecided, no report yet).
    private func home() throws -> (environment: [String: String], state: String) {
        let path = Scratch.path("tictactoe-report-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return (["HOME": path, "XDG_CONFIG_HOME": path + "/config", "XDG_STATE_HOME": path + "/state"],
                path + "/state/tictactoe")
    }

    private func run(_ arguments: [String], _ environment: [String: String], timeout: TimeInterval = 120)
        throws -> (TicTacToeProcess, Int32?)
    {
        let process = track(try TicTacToeProcess(arguments, environment: environment))
        return (process, process.waitForExit(timeout: timeout))
    }

    private func json(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    func testTheReportShowsWhatEachCommandDidAndWhatAskedForIt() throws {
        let (environment, state) = try home()
        // Undecided: browse waits (and gives up after --wait-timeout, exit 11).
        let (waiting, waitingStatus) = try run(["browse", "--wait-timeout", "1"], environment)
        XCTAssertEqual(waitingStatus, 11, waiting.standardError)
        // A manifest without NSBonjourServices: NoAuth at once (exit 12), no prompt.
        let (refused, refusedStatus) = try run(
            ["browse", "--info-plist", Self.assets + "/Info-NoBonjourServices.plist"], environment)
        XCTAssertEqual(refusedStatus, 12, refused.standardError)
        XCTAssertEqual(try run(["privacy", "grant"], environment).1, 0)
        // Loopback needs no permission: a match over it is recorded as exempt.
        let (match, matchStatus) = try run(
            ["match", "--player", "easy", "--player", "easy", "--games", "1", "--over", "loopback"], environment)
        XCTAssertEqual(matchStatus, 0, match.standardError)
        // Allowed now: browse goes ahead (and finds Bonjour turned off here, exit 10).
        let (allowed, allowedStatus) = try run(["browse", "--wait-timeout", "1"], environment)
        XCTAssertEqual(allowedStatus, 10, allowed.standardError)

        let (report, reportStatus) = try run(["privacy", "report"], environment)
        XCTAssertEqual(reportStatus, 0, report.standardError)
        XCTAssertEqual(report.standardError, "")
        let text = report.output
        XCTAssertEqual(text.first, "Privacy report: local network activity of the last 7 days (times in UTC), from "
                       + state + "/privacy-report.jsonl", "\(text)")
        func line(_ suffix: String) -> Int? { text.firstIndex { $0.hasSuffix(suffix) } }
        let expected = [
            "  waiting  browse _tictactoe._tcp (not-determined)  · tictactoe browse",
            "  refused  browse _tictactoe._tcp (no-auth: NSBonjourServices does not list _tictactoe._tcp)  · tictactoe browse",
            "  done     permission allowed  · tictactoe privacy grant",
            "  allowed  listen 127.0.0.1 (exempt)  · tictactoe match --over",
            "  allowed  browse _tictactoe._tcp  · tictactoe browse",
        ]
        let found = expected.map(line)
        XCTAssertFalse(found.contains(nil), "\(zip(expected, found).filter { $0.1 == nil }.map(\.0)) in\n"
                       + text.joined(separator: "\n"))
        XCTAssertEqual(found.compactMap { $0 }, found.compactMap { $0 }.sorted(), "oldest first")
        XCTAssertTrue(text.contains { $0.contains("  allowed  connect 127.0.0.1:") && $0.hasSuffix("(exempt)  · tictactoe match --over") },
                      text.joined(separator: "\n"))
        // One game, one join: one decision for its connection (the join waits for it, and the connection uses it).
        XCTAssertEqual(text.filter { $0.contains("  allowed  connect 127.0.0.1:") }.count, 1, text.joined(separator: "\n"))
        XCTAssertTrue(text.dropFirst().allSatisfy { $0.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ  "#,
                                                               options: .regularExpression) != nil },
                      text.joined(separator: "\n"))

        let (lines, linesStatus) = try run(["privacy", "report", "--json"], environment)
        XCTAssertEqual(linesStatus, 0, lines.standardError)
        XCTAssertEqual(lines.output.count, text.count - 1, "one object per record")
        let keys = ["v", "time", "pid", "event", "operation", "destination", "outcome", "verdict", "detail", "answer",
                    "origin"]
        for output in lines.output {
            let object = try XCTUnwrap(json(output), output)
            XCTAssertEqual(Set(object.keys), Set(keys), output)
            // Sorted, as every JSON line the app writes: each key comes after the one before it.
            let offsets = keys.sorted().map { output.range(of: "\"\($0)\":")?.lowerBound }
            XCTAssertEqual(offsets.compactMap { $0 }, offsets.compactMap { $0 }.sorted(), output)
        }
        let noAuth = lines.output.compactMap(json).filter { $0["verdict"] as? String == "no-auth" }
        XCTAssertEqual(noAuth.count, 1)
        XCTAssertEqual(noAuth.first?["outcome"] as? String, "refused")
        XCTAssertEqual(noAuth.first?["operation"] as? String, "browse")
        XCTAssertEqual(noAuth.first?["destination"] as? String, "_tictactoe._tcp")
        XCTAssertEqual(noAuth.first?["origin"] as? String, "tictactoe browse")
        XCTAssertEqual(noAuth.first?["pid"] as? Int, Int(refused.pid))
    }

    func testRecordsOfProcessesAppendingAtOnceAreAllThereAndWhole() throws {
        let arguments = ["match", "--player", "easy", "--player", "easy", "--games", "12", "--seed", "5", "--over",
                         "loopback"]
        // What one process records alone…
        let (alone, _) = try home()
        let (single, singleStatus) = try run(arguments, alone)
        XCTAssertEqual(singleStatus, 0, single.standardError)
        let (aloneReport, _) = try run(["privacy", "report", "--json"], alone)
        let each = aloneReport.output.count
        XCTAssertGreaterThanOrEqual(each, 24, "a listen and a connect per game at least")
        // …four record at once, in one report: every record there, none torn or mixed with another.
        let (shared, state) = try home()
        let running = try (0..<4).map { _ in track(try TicTacToeProcess(arguments, environment: shared)) }
        for process in running { XCTAssertEqual(process.waitForExit(timeout: 180), 0, process.standardError) }
        let (report, status) = try run(["privacy", "report", "--json"], shared)
        XCTAssertEqual(status, 0, report.standardError)
        XCTAssertEqual(report.standardError, "", "no line that is not a record")
        // The file itself (the command's output of ~150 lines comes through a pipe the test harness reads on its own
        // schedule, and can be cut when it reads the end late): every line of it one whole record.
        let file = try String(contentsOfFile: state + "/privacy-report.jsonl", encoding: .utf8)
        let lines = file.split(separator: "\n").map(String.init)
        let objects = lines.compactMap(json)
        XCTAssertEqual(objects.count, lines.count, "every line one JSON object")
        XCTAssertTrue(file.hasSuffix("\n"), "no line cut")
        for process in running {
            let pid = Int(process.pid)
            XCTAssertEqual(objects.filter { $0["pid"] as? Int == pid }.count, each, "process \(pid)")
        }
    }

    func testAReportThatCannotBeReadSaysSoAndGamesGoOn() throws {
        let (environment, state) = try home()
        // Something that is not a file where the report goes: nothing can be recorded or read there.
        try FileManager.default.createDirectory(atPath: state + "/privacy-report.jsonl", withIntermediateDirectories: true)
        let (match, matchStatus) = try run(
            ["match", "--player", "easy", "--player", "easy", "--games", "2", "--over", "loopback"], environment)
        XCTAssertEqual(matchStatus, 0, "the report never stops a game: \(match.standardError)")
        let (report, status) = try run(["privacy", "report"], environment)
        XCTAssertEqual(status, 1)
        XCTAssertEqual(report.output, [])
        XCTAssertEqual(report.standardError,
                       "tictactoe: cannot read the privacy report \(state)/privacy-report.jsonl: it is a directory\n")
        let (usage, usageStatus) = try run(["privacy", "report", "--bogus"], environment)
        XCTAssertEqual(usageStatus, 64, usage.standardError)
    }
}
