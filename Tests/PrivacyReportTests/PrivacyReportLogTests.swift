import Foundation
import TicTacToeTestSupport
import XCTest

@testable import PrivacyReport

/// The privacy report's file: its line format, the 7 days it keeps, its size bound, appends from many threads at once.
/// (What the gate records in it: LocalNetworkPrivacyTests' GateReportTests.)
final class PrivacyReportLogTests: XCTestCase {
    private func fileLines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    // MARK: The format

    func testARecordIsOneLineOfJSONWithItsKeysSorted() throws {
        let log = try makeReportLog()
        log.recordDecision("allowed", .allowed, origin: "tictactoe join")
        let text = try String(contentsOfFile: log.path, encoding: .utf8)
        XCTAssertEqual(text, """
            {"answer":null,"destination":"198.18.0.1:7878","detail":null,"event":"decision","operation":"connect",\
            "origin":"tictactoe join","outcome":"allowed","pid":\(getpid()),"time":"2026-11-18T11:06:40.000Z","v":1,\
            "verdict":"allowed"}

            """)
        let attributes = try FileManager.default.attributesOfItem(atPath: log.path)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600, "the report is private")
        let entry = try XCTUnwrap(try log.read().entries.first)
        XCTAssertEqual(entry.operation, "connect")
        XCTAssertEqual(entry.destination, "198.18.0.1:7878")
        XCTAssertEqual(entry.outcome, .allowed)
        XCTAssertEqual(entry.origin, "tictactoe join")
        XCTAssertEqual(entry.time, Date(timeIntervalSince1970: 1_795_000_000))
    }

    /// Records written by versions that put the keys in another order, and escaped text with their own escaper, read
    /// as they were written.
    func testRecordsOfEarlierVersionsStillRead() throws {
        let log = try makeReportLog()
        try FileManager.default.createDirectory(atPath: log.directory, withIntermediateDirectories: true)
        let earlier = """
            {"v":1,"time":"2026-11-18T11:06:40.000Z","pid":4242,"event":"decision","operation":"connect",\
            "destination":"198.18.0.1:7878","outcome":"allowed","verdict":"allowed","detail":null,"answer":null,\
            "origin":"tictactoe join"}
            {"v":1,"time":"2026-11-18T11:06:41.500Z","pid":4242,"event":"prompt-answered","operation":"browse",\
            "destination":"_tictactoe._tcp","outcome":null,"verdict":null,"detail":"a\\u001b[2J\\u009b\\\"b\\u2028",\
            "answer":"allow","origin":"Search for games screen"}

            """
        try earlier.write(toFile: log.path, atomically: true, encoding: .utf8)
        let contents = try log.read()
        XCTAssertEqual(contents.skippedLines, 0)
        XCTAssertEqual(contents.entries, [
            PrivacyReportEntry(
                time: Date(timeIntervalSince1970: 1_795_000_000), pid: 4242, event: .decision, operation: "connect",
                destination: "198.18.0.1:7878", outcome: .allowed, verdict: "allowed", origin: "tictactoe join"),
            PrivacyReportEntry(
                time: Date(timeIntervalSince1970: 1_795_000_001.5), pid: 4242, event: .promptAnswered,
                operation: "browse", destination: "_tictactoe._tcp", detail: "a\u{1b}[2J\u{9b}\"b\u{2028}",
                answer: "allow", origin: "Search for games screen"),
        ])
    }

    func testHostileTextStaysOnItsLineAndLongTextIsCut() throws {
        let log = try makeReportLog()
        let hostile = "evil\n{\"v\":1}\u{1b}[2J\"\\\u{2028}" + String(repeating: "é", count: 2000)
        log.recordDecision(
            "manifest-error", .refused, operation: "browse", destination: hostile, detail: hostile, origin: hostile)
        let lines = fileLines(log.path)
        XCTAssertEqual(lines.count, 1, "one record, one line")
        XCTAssertLessThan(lines[0].utf8.count, 4096, "one small write(2)")
        let contents = try log.read()
        XCTAssertEqual(contents.skippedLines, 0)
        let entry = try XCTUnwrap(contents.entries.first)
        XCTAssertTrue(try XCTUnwrap(entry.destination).hasPrefix("evil\n{\"v\":1}\u{1b}[2J\"\\\u{2028}é"))
        XCTAssertLessThanOrEqual(entry.destination?.utf8.count ?? 0, PrivacyReportEntry.maximumFieldBytes)
        XCTAssertEqual(entry.outcome, .refused)
        XCTAssertEqual(entry.verdict, "manifest-error")
    }

    func testLinesThatAreNotRecordsAreSkippedAndCounted() throws {
        let log = try makeReportLog()
        log.recordDecision("denied", .waiting, origin: nil)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: log.path))
        handle.seekToEndOfFile()
        handle.write(Data("not json\n{\"v\":99,\"time\":\"x\"}\n".utf8))
        handle.closeFile()
        log.recordDecision("allowed", .allowed, origin: nil)
        let contents = try log.read()
        XCTAssertEqual(contents.entries.map(\.verdict), ["denied", "allowed"])
        XCTAssertEqual(contents.skippedLines, 2)
    }

    func testNoFileIsAnEmptyReportAndAnUnreadableOneIsAnError() throws {
        let log = try makeReportLog()
        XCTAssertEqual(try log.read(), PrivacyReportLog.Contents(entries: [], skippedLines: 0))
        try FileManager.default.createDirectory(atPath: log.path, withIntermediateDirectories: true)
        XCTAssertThrowsError(try log.read()) { error in
            XCTAssertEqual("\(error)", "\(log.path): it is a directory")
        }
    }

    // MARK: Never in the way

    func testAFailureToRecordIsLoggedOnceAndNeverThrown() throws {
        let lines = Recorder<String>()
        let log = try makeReportLog(lines: lines)
        try FileManager.default.createDirectory(atPath: log.path, withIntermediateDirectories: true)  // in the way
        for _ in 0..<3 { log.recordDecision("allowed", .allowed, origin: nil) }
        let warnings = lines.all.filter { $0.contains("privacy report: cannot record") }
        XCTAssertEqual(warnings.count, 1, "\(lines.all)")
        XCTAssertTrue(warnings[0].contains(log.path), warnings[0])
    }

    func testAnotherProcessHoldingTheLockDelaysNoRecord() throws {
        // Whoever holds privacy-report.lock (another process tidying up) is not waited for: records still go in.
        let log = try makeReportLog(fileLimit: 600)
        log.recordDecision("allowed", .allowed, origin: nil)
        let lock = open(log.directory + "/" + PrivacyReportLog.lockFileName, O_RDWR | O_CREAT, 0o600)
        XCTAssertGreaterThanOrEqual(lock, 0)
        XCTAssertEqual(flock(lock, LOCK_EX), 0)
        for _ in 0..<20 { log.recordDecision("allowed", .allowed, origin: nil) }
        XCTAssertEqual(fileLines(log.path).count, 21, "nothing rotated (the lock is taken) and nothing lost")
        flock(lock, LOCK_UN)
        close(lock)
        log.recordDecision("allowed", .allowed, origin: nil)
        XCTAssertLessThanOrEqual(fileLines(log.path).count, 1, "the next record tidies up once the lock is free")
    }

    // MARK: 7 days, and a size bound

    func testRecordsOlderThanSevenDaysAreNeitherShownNorKept() throws {
        let time = ReportTime()
        let directory = try makeTemporaryDirectory(self)
        // Each process has its own log; a new one looks for old records before its first record.
        func process() -> PrivacyReportLog { PrivacyReportLog(directory: directory, now: time.clock) }
        process().recordDecision("allowed", .allowed, operation: "listen", destination: "*", origin: "day 0")
        time.advance(days: 6)
        let later = process()
        later.recordDecision("allowed", .allowed, operation: "listen", destination: "*", origin: "day 6")
        XCTAssertEqual(try later.read().entries.map(\.origin), ["day 0", "day 6"])
        time.advance(days: 1.5)  // day 7.5: day 0 is past 7 days
        XCTAssertEqual(try later.read().entries.map(\.origin), ["day 6"], "shown: the last 7 days only")
        let third = process()
        third.recordDecision("denied", .waiting, operation: "listen", destination: "*", origin: "day 7.5")
        XCTAssertEqual(fileLines(third.path).count, 1, "the file with an old first record was rotated")
        XCTAssertEqual(fileLines(third.previousPath).count, 2, "kept while it holds a record of the last 7 days")
        XCTAssertEqual(try third.read().entries.map(\.origin), ["day 6", "day 7.5"])
        time.advance(days: 7.5)  // day 15: day 6 and day 7.5 are old too
        let fourth = process()
        fourth.recordDecision("allowed", .allowed, operation: "listen", destination: "*", origin: "day 15")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fourth.previousPath), "nothing in it is recent: removed")
        XCTAssertEqual(try fourth.read().entries.map(\.origin), ["day 15"])
        let kept = fileLines(fourth.path) + fileLines(fourth.previousPath)
        XCTAssertEqual(kept.count, 1, "\(kept)")
    }

    func testTheReportStaysUnderItsBoundAndKeepsTheNewestRecords() throws {
        let limit = 4096
        let log = try makeReportLog(fileLimit: limit)
        for index in 0..<500 {
            log.recordDecision("allowed", .allowed, origin: "record \(index)")
        }
        let record = try PrivacyReportEntry(
            time: Date(), pid: getpid(), event: .decision, operation: "connect", destination: "198.18.0.1:7878",
            outcome: .allowed, verdict: "allowed", origin: "record 499"
        ).line().utf8.count
        for path in [log.path, log.previousPath] {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            XCTAssertLessThanOrEqual(size, limit + record, path)
        }
        let contents = try log.read()
        XCTAssertEqual(contents.skippedLines, 0)
        XCTAssertEqual(contents.entries.last?.origin, "record 499")
        let numbers = contents.entries.compactMap { $0.origin.flatMap { Int($0.dropFirst("record ".count)) } }
        XCTAssertEqual(numbers, Array((500 - numbers.count)..<500), "the newest, in order, none missing")
        XCTAssertGreaterThan(numbers.count, limit / record, "more than one file's worth")
    }

    // MARK: Many writers

    func testAppendsFromManyThreadsAtOnceNeitherInterleaveNorGetLost() throws {
        let directory = try makeTemporaryDirectory(self)
        let writers = 8
        let records = 250
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            // Each writer its own log, as each process has; a limit so large nothing is rotated (all must be there).
            let log = PrivacyReportLog(directory: directory, fileLimit: 1 << 26)
            for index in 0..<records {
                log.recordDecision(
                    "allowed", .allowed, destination: "198.18.0.\(writer):\(7000 + index)",
                    origin: "writer \(writer) " + String(repeating: "x", count: index % 300))
            }
        }
        let contents = try PrivacyReportLog(directory: directory, fileLimit: 1 << 26).read()
        XCTAssertEqual(contents.skippedLines, 0, "no torn or mixed line")
        XCTAssertEqual(contents.entries.count, writers * records)
        for writer in 0..<writers {
            let ports = contents.entries.filter { $0.destination?.hasPrefix("198.18.0.\(writer):") == true }
                .compactMap { $0.destination?.split(separator: ":").last.flatMap { Int($0) } }
            XCTAssertEqual(ports, Array(7000..<(7000 + records)), "writer \(writer): all, in its order")
        }
    }

    func testManyThreadsFillingTheFileAtOnceKeepEveryLineWholeAndTheBound() throws {
        let directory = try makeTemporaryDirectory(self)
        let limit = 8192
        DispatchQueue.concurrentPerform(iterations: 6) { writer in
            let log = PrivacyReportLog(directory: directory, fileLimit: limit)
            for index in 0..<300 {
                log.recordDecision("denied", .waiting, origin: "writer \(writer) #\(index)")
            }
        }
        let log = PrivacyReportLog(directory: directory, fileLimit: limit)
        let contents = try log.read()
        XCTAssertEqual(contents.skippedLines, 0)
        XCTAssertGreaterThan(contents.entries.count, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: log.previousPath), "the file was rotated")
        // While writers contend for the upkeep's lock, a file may pass its limit by what they append meanwhile (no
        // writer waits for the lock); the next record, with the lock free, rotates it again.
        log.recordDecision("denied", .waiting, origin: "after the writers")
        let size = (try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
        let record = (try log.read().entries.last?.line().utf8.count) ?? 0
        XCTAssertLessThanOrEqual(size, limit + record, "\(log.path) after the next record")
    }
}
