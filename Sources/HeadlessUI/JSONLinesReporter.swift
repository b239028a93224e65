import AppProcess
import Dispatch
import FoundationEssentials
import GameClient
import JSONLines
import Synchronization
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// One JSON object per line on standard output (`JSONEvent`: keys sorted; cells numbered 1-9 in reading order).
///
/// With `TICTACTOE_JSON_STAMPS=1` in the environment each line starts with `"_mono_ns":N`, the monotonic clock
/// (CLOCK_MONOTONIC, nanoseconds) when the line was made: `make bench` times moves by it, because standard output to a
/// pipe is gathered (`CheckedOutput`), so a line's arrival no longer says when it was made.
public final class JSONLinesReporter: MatchReporter, Sendable {
    /// Held while a line is written, so lines from different tasks never interleave.
    private let writing = Mutex(())
    private let write: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    private let stamped: Bool

    /// `write` takes each line without its newline; by default it goes to standard output, where a failure is
    /// remembered (`CheckedOutput`) rather than fatal. `stamped`: each line starts with its `"_mono_ns"`.
    /// `writeError` says on standard error that a report could not be written as JSON.
    public init(
        stamped: Bool = JSONLinesReporter.stampsAsked,
        write: @escaping @Sendable (String) -> Void = { line in CheckedOutput.standardOutput.writeLine(line) },
        writeError: @escaping @Sendable (String) -> Void = { CheckedOutput.standardError.writeLine($0) }
    ) {
        self.stamped = stamped
        self.write = write
        self.writeError = writeError
    }

    /// Whether the environment asks for stamped lines (`TICTACTOE_JSON_STAMPS=1`).
    public static var stampsAsked: Bool {
        guard let value = getenv("TICTACTOE_JSON_STAMPS") else { return false }
        return String(cString: value) == "1"
    }

    public func report(_ report: MatchReport) {
        let line: String
        do {
            line = try Self.line(report, stamp: stamped ? DispatchTime.now().uptimeNanoseconds : nil)
        } catch {
            writeError("tictactoe: a report could not be written as JSON: \(error)")
            return
        }
        writing.withLock { _ in write(line) }
    }

    /// `report`'s line, with `"_mono_ns":stamp` as its first key when there is a stamp (`_` sorts before every other
    /// key's first letter).
    static func line(_ report: MatchReport, stamp: UInt64?) throws -> String {
        guard let stamp else { return try JSONEvent.line(report) }
        return try JSONLine.encode(StampedEvent(event: JSONEvent(report), nanoseconds: stamp))
    }
}

/// A report's event and the monotonic clock when its line was made.
private struct StampedEvent: Encodable {
    var event: JSONEvent
    var nanoseconds: UInt64

    func encode(to encoder: any Encoder) throws {
        try event.encode(to: encoder)
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode(nanoseconds, forKey: "_mono_ns")
    }
}
