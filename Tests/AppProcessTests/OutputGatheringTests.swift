import Foundation
import GameClient
import GameProtocol
import Synchronization
import TicTacToeTestSupport
import XCTest

import AppCore
@testable import AppProcess
@testable import HeadlessUI

/// Standard output to a pipe or a file gathers lines that come fast one after the other (each write(2) to a
/// pipe wakes its reader): the first line after a pause goes out at once, the others within the window, in order,
/// nothing lost — before standard error's text and before the process exits. Time is the test's (nanoseconds given).
final class OutputGatheringTests: XCTestCase {
    override class func setUp() {
        super.setUp()
        signal(SIGPIPE, SIG_IGN)  // as the executable does first thing: a closed pipe is EPIPE, not death
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testTheFirstTextAndTextAfterAPauseGoOutAtOnce() {
        var gathering = OutputGathering(window: 1_000)
        XCTAssertEqual(gathering.take(bytes("a"), newline: true, at: 5_000), .write(bytes("a\n")))
        XCTAssertEqual(gathering.take(bytes("b\n"), at: 6_000), .write(bytes("b\n")), "a window after the last write")
        XCTAssertEqual(gathering.take(bytes("c\n"), at: 9_999), .write(bytes("c\n")))
        XCTAssertTrue(gathering.held.isEmpty)
        XCTAssertNil(gathering.deadline)
    }

    func testTextWithinTheWindowIsHeldUntilItClosesInOrder() {
        var gathering = OutputGathering(window: 1_000)
        XCTAssertEqual(gathering.take(bytes("1\n"), at: 0), .write(bytes("1\n")))
        XCTAssertEqual(gathering.take(bytes("2\n"), at: 10), .hold(flushAt: 1_000), "a flush is arranged once")
        XCTAssertEqual(gathering.take(bytes("3"), newline: true, at: 20), .hold(flushAt: nil), "a newline taken after a text")
        XCTAssertEqual(gathering.take(bytes("4\n"), at: 999), .hold(flushAt: nil))
        XCTAssertEqual(gathering.deadline, 1_000)
        XCTAssertEqual(gathering.takeHeld(at: 1_000), bytes("2\n3\n4\n"), "all of it, in order, in one piece")
        XCTAssertNil(gathering.deadline)
        XCTAssertEqual(gathering.takeHeld(at: 1_001), [], "nothing twice")
        // The flush was a write: what follows within the window is held again, until 2_000.
        XCTAssertEqual(gathering.take(bytes("5\n"), at: 1_500), .hold(flushAt: 2_000))
        XCTAssertEqual(gathering.takeHeld(at: 2_000), bytes("5\n"))
    }

    func testALateFlushIsOvertakenByNothing() {
        var gathering = OutputGathering(window: 1_000)
        _ = gathering.take(bytes("1\n"), at: 0)
        XCTAssertEqual(gathering.take(bytes("2\n"), at: 500), .hold(flushAt: 1_000))
        // The flush has not run yet at 1_200 (a busy machine): the next text goes out with the held text, after it.
        XCTAssertEqual(gathering.take(bytes("3\n"), at: 1_200), .write(bytes("2\n3\n")))
        XCTAssertEqual(gathering.takeHeld(at: 1_300), [], "the late flush finds nothing")
        XCTAssertEqual(gathering.take(bytes("4\n"), at: 1_400), .hold(flushAt: 2_200))
    }

    func testAFullHoldGoesOutAtOnce() {
        var gathering = OutputGathering(window: 1_000, limit: 8)
        _ = gathering.take(bytes("1\n"), at: 0)
        XCTAssertEqual(gathering.take(bytes("abc\n"), at: 1), .hold(flushAt: 1_000))
        XCTAssertEqual(gathering.take(bytes("defg\n"), at: 2), .write(bytes("abc\ndefg\n")))
        XCTAssertNil(gathering.deadline)
    }

    // MARK: CheckedOutput with a window

    private func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        return (fds[0], fds[1])
    }

    /// What the pipe holds now (without waiting).
    private func available(_ fd: Int32) -> String {
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            text += chunk[..<n]
        }
        return String(decoding: text, as: UTF8.self)
    }

    func testAGatheringOutputWritesTheFirstLineAtOnceAndTheRestByExitInOrder() {
        let fds = makePipe()
        defer { close(fds.read); close(fds.write) }
        // A window far longer than the test: the held lines go out only when asked (as at exit).
        let output = CheckedOutput(descriptor: fds.write, name: "a pipe", gatheringWindow: .seconds(600))
        XCTAssertTrue(output.writeLine("listening"))
        XCTAssertEqual(available(fds.read), "listening\n", "the first line is not held")
        for number in 1...100 { XCTAssertTrue(output.writeLine("line \(number)")) }
        XCTAssertEqual(available(fds.read), "", "lines that follow at once are held")
        output.waitUntilWritten()
        XCTAssertEqual(available(fds.read), (1...100).map { "line \($0)\n" }.joined())
    }

    func testHeldTextGoesOutWhenTheWindowCloses() {
        let fds = makePipe()
        defer { close(fds.read); close(fds.write) }
        let output = CheckedOutput(descriptor: fds.write, name: "a pipe", gatheringWindow: .milliseconds(2))
        XCTAssertTrue(output.writeLine("first"))
        XCTAssertTrue(output.writeLine("second"))
        var seen = available(fds.read)
        // No timing asserted: the held line arrives by itself, whenever the window's flush runs.
        for _ in 0..<5_000 where seen != "first\nsecond\n" {
            usleep(1_000)
            seen += available(fds.read)
        }
        XCTAssertEqual(seen, "first\nsecond\n")
    }

    func testStandardErrorTextComesAfterWhatStandardOutputHeld() {
        let fds = makePipe()  // both outputs on one pipe, as with 2>&1
        defer { close(fds.read); close(fds.write) }
        let out = CheckedOutput(descriptor: fds.write, name: "standard output", gatheringWindow: .seconds(600))
        let err = CheckedOutput(descriptor: fds.write, name: "standard error", before: out)
        out.writeLine("one")
        out.writeLine("two")
        err.writeLine("warning")
        out.writeLine("three")
        out.waitUntilWritten()
        XCTAssertEqual(available(fds.read), "one\ntwo\nwarning\nthree\n")
    }

    func testAReaderThatWentAwayIsHeardAtTheFlush() throws {
        let fds = makePipe()
        defer { close(fds.write) }
        let output = CheckedOutput(descriptor: fds.write, name: "standard output", gatheringWindow: .seconds(600))
        let failures = Recorder<Int32>()
        output.onFailure { failures.append($0.code) }
        XCTAssertTrue(output.writeLine("read"))
        close(fds.read)
        XCTAssertTrue(output.writeLine("held, then refused"), "held: the failure is not known yet")
        output.waitUntilWritten()
        XCTAssertEqual(failures.all, [EPIPE])
        XCTAssertEqual(output.failure?.code, EPIPE)
        XCTAssertFalse(output.writeLine("after"), "dead from then on")
    }

    func testALentSchedulerFlushesAndItsEndWritesWhatIsHeld() {
        let fds = makePipe()
        defer { close(fds.read); close(fds.write) }
        let output = CheckedOutput(descriptor: fds.write, name: "a pipe", gatheringWindow: .seconds(600))
        let flushes = Recorder<@Sendable () -> Void>()
        let lent = output.scheduleFlushes { delay, body in
            XCTAssertLessThanOrEqual(delay, 600_000_000_000)
            flushes.append(body)
        }
        output.writeLine("first")
        output.writeLine("second")
        output.writeLine("third")
        XCTAssertEqual(flushes.all.count, 1, "one flush a window, asked of the lent scheduler")
        XCTAssertEqual(available(fds.read), "first\n")
        flushes.all[0]()  // the window closes: the scheduler runs the flush
        XCTAssertEqual(available(fds.read), "second\nthird\n")
        output.writeLine("fourth")
        XCTAssertEqual(flushes.all.count, 2)
        output.endFlushes(lent)  // the match is over (its event loop may never run the flush it owes)
        XCTAssertEqual(available(fds.read), "fourth\n")
        flushes.all[1]()
        XCTAssertEqual(available(fds.read), "", "nothing twice")
    }

    /// The last lines of a run are often held when its status is decided: a failure to write them still makes the
    /// run exit 74.
    func testAFailureFoundWhenHeldLinesAreWrittenStillCountsForTheExitStatus() {
        let fds = makePipe()
        defer { close(fds.write) }
        let output = CheckedOutput(descriptor: fds.write, name: "standard output", gatheringWindow: .seconds(600))
        XCTAssertTrue(output.writeLine("seed"))
        close(fds.read)  // the reader leaves (`| head -n 1`)
        XCTAssertTrue(output.writeLine("summary"), "held")
        XCTAssertEqual(ExitStatus.success.unlessOutputFailed(output), .outputFailed)
    }

    /// A pipe that polls writable promises room for 4 KB only: gathered text (often more) goes out 4 KB at a time
    /// while the pipe takes it, and the rest waits in the backlog, so the writer (a match's event loop) never blocks
    /// on a reader that paused.
    func testMoreThanAPipeTakesWaitsInTheBacklogInsteadOfBlocking() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd); close(writeEnd) }
        // Fill the pipe, then make room for one page: writable, but not for more than 4 KB.
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        let filler = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
        var filled = 0
        while true {
            let n = filler.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            filled += n
        }
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) & ~O_NONBLOCK)  // blocking, as standard output is
        var page = [UInt8](repeating: 0, count: 4096)
        XCTAssertEqual(page.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }, 4096)
        filled -= 4096
        let output = CheckedOutput(descriptor: writeEnd, name: "a paused reader's pipe", gatheringWindow: .seconds(600))
        let lines = (1...400).map { "line \($0) of a fast match" }  // about 10 KB, gathered
        let done = DispatchSemaphore(value: 0)
        let writer = Thread {
            for line in lines { output.writeLine(line) }
            output.writeHeld()  // the window closes
            done.signal()
        }
        writer.start()
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "the writer blocked on the full pipe")
        // The reader comes back: everything arrives, in order, after the filler.
        let expected = filled + lines.reduce(0) { $0 + $1.utf8.count + 1 }
        let bytes = Mutex<[UInt8]>([])
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while bytes.withLock({ $0.count }) < expected {
                let n = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                bytes.withLock { $0 += chunk[..<n] }
            }
            done.signal()
        }
        reader.start()
        output.waitUntilWritten()
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        let received = bytes.withLock { $0 }
        XCTAssertEqual(received.count, expected)
        XCTAssertEqual(String(decoding: received.dropFirst(filled), as: UTF8.self),
                       lines.map { $0 + "\n" }.joined())
    }

    // MARK: Stamped JSON lines

    func testAStampIsTheFirstKey() throws {
        XCTAssertEqual(try JSONLinesReporter.line(.session(.moved(mark: .x, cell: 4, by: .peer)), stamp: 42),
                       #"{"_mono_ns":42,"by":"peer","cell":5,"event":"move","mark":"X"}"#)
        XCTAssertEqual(try JSONLinesReporter.line(.session(.rematchOffered), stamp: 7),
                       #"{"_mono_ns":7,"event":"rematch-offered"}"#)
        let lines = Recorder<String>()
        let reporter = JSONLinesReporter(stamped: true, write: { lines.append($0) })
        reporter.report(.session(.rematchOffered))
        let object = try? JSONSerialization.jsonObject(with: Data(lines.all[0].utf8)) as? [String: Any]
        XCTAssertEqual(object?["event"] as? String, "rematch-offered")
        XCTAssertGreaterThan((object?["_mono_ns"] as? Int) ?? 0, 0)
        let unstamped = Recorder<String>()
        JSONLinesReporter(stamped: false, write: { unstamped.append($0) }).report(.session(.rematchOffered))
        XCTAssertEqual(unstamped.all, [#"{"event":"rematch-offered"}"#])
    }
}
