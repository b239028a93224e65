import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One JSON object per line on standard output (`JSONEvent`: keys sorted; cells numbered 1-9 in reading order).
public final class JSONLinesReporter: MatchReporter, Sendable {
    /// Held while a line is written, so lines from different tasks never interleave.
    private let writing = Mutex(())
    private let write: @Sendable (String) -> Void

    /// `write` takes each line without its newline; by default it goes to standard output, where a failure is
    /// remembered (`CheckedOutput`) rather than fatal.
    public init(write: @escaping @Sendable (String) -> Void = { line in
        CheckedOutput.standardOutput.writeLine(line)
    }) {
        self.write = write
    }

    public func report(_ report: MatchReport) {
        guard let line = try? JSONEvent.line(report) else { return }
        writing.withLock { _ in write(line) }
    }
}
