import FoundationEssentials
import Dispatch
import Synchronization

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
    private let stamped: Bool

    /// `write` takes each line without its newline; by default it goes to standard output, where a failure is
    /// remembered (`CheckedOutput`) rather than fatal. `stamped`: each line starts with its `"_mono_ns"`.
    public init(
        stamped: Bool = JSONLinesReporter.stampsAsked,
        write: @escaping @Sendable (String) -> Void = { line in CheckedOutput.standardOutput.writeLine(line) }
    ) {
        self.stamped = stamped
        self.write = write
    }

    /// Whether the environment asks for stamped lines (`TICTACTOE_JSON_STAMPS=1`).
    public static var stampsAsked: Bool {
        guard let value = getenv("TICTACTOE_JSON_STAMPS") else { return false }
        return String(cString: value) == "1"
    }

    public func report(_ report: MatchReport) {
        guard var line = try? JSONEvent.line(report) else { return }
        if stamped { line = Self.stamp(line, at: DispatchTime.now().uptimeNanoseconds) }
        writing.withLock { _ in write(line) }
    }

    /// `line` (a JSON object) with `"_mono_ns":nanoseconds` as its first key (`_` sorts before every other key's
    /// first letter, so the keys stay sorted).
    static func stamp(_ line: String, at nanoseconds: UInt64) -> String {
        guard line.hasPrefix("{") else { return line }
        let rest = line.utf8.dropFirst()
        var stamped = "{\"_mono_ns\":"
        stamped.reserveCapacity(line.utf8.count + 32)  // one allocation for the whole line
        stamped += String(nanoseconds)
        if rest.first != UInt8(ascii: "}") { stamped += "," }
        stamped += Substring(rest)
        return stamped
    }
}
