import Foundation
import GameClient
import GameProtocol
import HeadlessUI
import Logging
import Synchronization
import TicTacToeTestSupport
import XCTest

import AppCore
@testable import AppProcess
import TextSupport

/// Every write checked: a full disk, a reader that went away or a closed descriptor is an error the run handles,
/// never a crash; a log file that fails turns logging off and says so once.
final class CheckedOutputTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        signal(SIGPIPE, SIG_IGN)  // as the executable does first thing: a closed pipe is EPIPE, not death
    }

    private func openFull() throws -> Int32 {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw XCTSkip("no /dev/full here") }
        return fd
    }

    func testAFullDiskIsENOSPCAndTheOutputStaysDeadAfterIt() throws {
        let output = CheckedOutput(descriptor: try openFull(), name: "the test file", ownsDescriptor: true)
        let failures = Recorder<OutputError>()
        output.onFailure { failures.append($0) }
        XCTAssertThrowsError(try output.write("one\n")) { error in
            XCTAssertEqual((error as? OutputError)?.code, ENOSPC)
        }
        XCTAssertFalse(output.writeLine("two"))
        XCTAssertFalse(output.writeLine("three"))
        XCTAssertEqual(failures.all.map(\.code), [ENOSPC], "the handler hears of the failure once")
        XCTAssertEqual(output.failure?.description, "cannot write the test file (No space left on device)")
        // A handler registered later hears of the past failure at once.
        let late = Recorder<OutputError>()
        output.onFailure { late.append($0) }
        XCTAssertEqual(late.all.count, 1)
    }

    func testAReaderThatWentAwayIsEPIPE() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[1]) }
        let output = CheckedOutput(descriptor: fds[1], name: "standard output")
        XCTAssertTrue(output.writeLine("first line, read or not"))
        close(fds[0])
        XCTAssertThrowsError(try output.write("after the reader left\n")) { error in
            XCTAssertEqual((error as? OutputError)?.code, EPIPE)
        }
        XCTAssertEqual(output.failure?.description, "cannot write standard output (Broken pipe)")
    }

    func testAClosedDescriptorIsEBADF() {
        let output = CheckedOutput(descriptor: -1, name: "standard output")
        XCTAssertThrowsError(try output.write("x")) { error in
            XCTAssertEqual((error as? OutputError)?.code, EBADF)
        }
    }

    /// A non-blocking descriptor that is full answers EAGAIN: what it cannot take waits in the backlog (the writer
    /// goes on; a text is written 4 KB at a time while the pipe polls writable), and every byte arrives in order once
    /// the reader makes room (the process waits for the backlog at exit, as here).
    func testANonBlockingPipeThatFillsUpIsWaitedFor() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        let text = String(repeating: "0123456789abcdef", count: 64 * 1024)  // 1 MiB: much more than a pipe holds
        let reader = Thread { [readEnd = fds[0]] in
            var received = 0
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                usleep(200)  // slower than the writer, so the pipe fills up
                let n = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                received += n
            }
            close(readEnd)
            ReceivedBytes.count.withLock { $0 = received }
        }
        reader.start()
        let output = CheckedOutput(descriptor: fds[1], name: "a non-blocking pipe")
        XCTAssertNoThrow(try output.write(text))
        output.waitUntilWritten()
        close(fds[1])
        while !reader.isFinished { usleep(1000) }
        XCTAssertEqual(ReceivedBytes.count.withLock { $0 }, text.utf8.count)
    }

    func testAnOutputThatCouldNotBeOpenedFailsEveryWrite() {
        let output = CheckedOutput(failed: OutputError(stream: "the log file /nope/x.log", code: EACCES, operation: "open"))
        let heard = Recorder<String>()
        output.onFailure { heard.append("\($0)") }
        XCTAssertEqual(heard.all, ["cannot open the log file /nope/x.log (Permission denied)"])
        XCTAssertFalse(output.writeLine("x"))
    }

    // MARK: The log file

    func testAFailingLogFileTurnsLoggingOffWithOneWarning() throws {
        let file = CheckedOutput(descriptor: try openFull(), name: "the log file /dev/full", ownsDescriptor: true)
        let warnings = Recorder<String>()
        file.onFailure { warnings.append(FileLogHandler.warning($0)) }
        let logger = Logger(label: "test") { FileLogHandler(label: $0, file: file, level: .debug) }
        for number in 0..<5 { logger.info("line \(number)") }
        XCTAssertEqual(
            warnings.all,
            ["cannot write the log file /dev/full (No space left on device); logging is off, the game goes on"])
    }

    func testLogLinesShowOutsideTextEscaped() throws {
        let path = Scratch.path("tictactoe-log-\(UUID().uuidString).log")
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { unlink(path) }
        let file = CheckedOutput(descriptor: fd, name: "the log file", ownsDescriptor: true)
        let logger = Logger(label: "test") { FileLogHandler(label: $0, file: file, level: .debug) }
        logger.info("peer \("evil\u{1B}]0;pwned\u{07}\nFAKE LINE\u{202E}") joined", metadata: ["peer": "a\u{9B}b"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasSuffix(#"peer evil\x1b]0;pwned\x07\x0aFAKE LINE\u202e joined peer=a\x9bb"# + "\n"), text)
        XCTAssertEqual(text.filter { $0 == "\n" }.count, 1, "one log line, whatever the peer sent")
    }

    // MARK: Text transcripts

    func testTheTranscriptShowsPeerTextEscaped() {
        let out = Recorder<String>()
        let errors = Recorder<String>()
        let reporter = TranscriptReporter(
            localName: "me", write: { out.append($0) }, writeError: { errors.append($0) })
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}\u{202E}"
        reporter.report(.connected(peerName: "bob" + hostile, address: "127.0.0.1:7878", role: .joiner))
        reporter.report(.session(.rematchOffered))
        reporter.report(.connectionState(.failed(.rejected(reason: "busy", text: hostile))))
        reporter.report(.error("\(ConnectionError.rejected(reason: "busy", text: hostile))", .rejected))  // said: not again
        reporter.report(.error("stopped: \(hostile)", .failure))
        reporter.report(.session(.matchOver(.peerReportedError(code: .malformedFrame, text: hostile), score: .init())))
        reporter.report(.peerFailed(remote: "127.0.0.1:5", error: hostile))
        reporter.report(.discovery(.advertised(name: "game" + hostile)))
        reporter.report(.discovery(.game(GameListing(name: "x" + hostile, notJoinableBecause: hostile))))
        let all = out.all + errors.all
        XCTAssertEqual(all.count, 8)
        let shown = #"\x1b]0;pwned\x07\x1b[2J\x9b\u202e"#
        for line in all {
            XCTAssertFalse(
                line.unicodeScalars.contains { DisplayText.isControl($0) || DisplayText.isBidiFormatting($0) },
                line.debugDescription)
            XCTAssertTrue(line.contains(shown), line)
        }
        XCTAssertEqual(out.all.first, "Connected to bob\(shown) (127.0.0.1:7878)")
        XCTAssertEqual(errors.all.first, "Connection failed: rejected by the host (busy): \(shown)")
        // A game's name is printed whole, as `tictactoe join` takes it back.
        XCTAssertTrue(out.all.contains("x\(shown)  (not joinable: \(shown))"), "\(out.all)")
    }
}

/// What the reader thread of the non-blocking pipe test received.
private enum ReceivedBytes {
    static let count = Mutex(0)

    /// A reader that pauses (a full pipe) never blocks the writer: a match writes its lines from its connection's
    /// event loop, which must go on answering the peer. What the pipe cannot take waits in order and all of it
    /// arrives once the reader reads; a later reader failure still reaches the handlers.
    func testAFullPipeQueuesInsteadOfBlockingAndLosesNothing() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }
        let output = CheckedOutput(descriptor: writeEnd, name: "the test pipe", ownsDescriptor: true)
        // 300 lines of 1 KB: four times what a pipe holds (64 KB), with no one reading yet.
        let lines = (0..<300).map { "\($0) " + String(repeating: "x", count: 1_000) }
        let wrote = DispatchSemaphore(value: 0)
        let results = Recorder<Bool>()
        DispatchQueue.global().async {
            for line in lines { results.append(output.writeLine(line)) }
            wrote.signal()
        }
        // Without the backlog the writer would block on the full pipe for good; this wait only ends a hung test.
        XCTAssertEqual(wrote.wait(timeout: .now() + 60), .success, "the writer blocked on a full pipe")
        XCTAssertEqual(results.all, Array(repeating: true, count: lines.count))
        // Now the reader reads everything: every line, in order.
        var received: [UInt8] = []
        let expected = lines.map { $0 + "\n" }.joined().utf8.count
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.count < expected {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer.prefix(count)
        }
        output.waitUntilWritten()
        XCTAssertEqual(String(decoding: received, as: UTF8.self), lines.map { $0 + "\n" }.joined())
        XCTAssertNil(output.failure)
    }

    func testAReaderThatGoesAwayWhileTextWaitsIsAFailure() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let output = CheckedOutput(descriptor: fds[1], name: "the test pipe", ownsDescriptor: true)
        let failures = Recorder<OutputError>()
        output.onFailure { failures.append($0) }
        // Fill the pipe (64 KB) with lines until one has to wait in the backlog.
        for _ in 0..<70 { XCTAssertTrue(output.writeLine(String(repeating: "y", count: 1_000))) }
        close(fds[0])  // the reader goes away
        output.waitUntilWritten()
        XCTAssertEqual(failures.all.map(\.code), [EPIPE])
        XCTAssertFalse(output.writeLine("after"), "the output is dead after the failure")
    }

}
