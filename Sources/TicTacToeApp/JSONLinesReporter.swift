import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One JSON object per line on standard output (`JSONEvent`: keys sorted; cells numbered 1-9 in reading order).
public final class JSONLinesReporter: MatchReporter, Sendable {
    /// Held while lines are written, so lines from different tasks never interleave.
    private let writing = Mutex(())
    /// Takes one line, without its newline.
    private let write: @Sendable (String) -> Void
    /// Takes several lines, newline-separated, without the last newline, in one write; nil: each goes to `write`.
    private let writeTogether: (@Sendable (String) -> Void)?

    /// Lines to standard output, where a failure is remembered (`CheckedOutput`) rather than fatal; the lines of one
    /// step of a match (`report(batch:)`) go out in one write(2).
    public init() {
        let write: @Sendable (String) -> Void = { text in CheckedOutput.standardOutput.writeLine(text) }
        self.write = write
        self.writeTogether = write
    }

    /// Each line to `write`, without its newline; with `writeTogether`, the lines of a batch go there at once,
    /// newline-separated, without the last newline.
    public init(
        write: @escaping @Sendable (String) -> Void, writeTogether: (@Sendable (String) -> Void)? = nil
    ) {
        self.write = write
        self.writeTogether = writeTogether
    }

    public func report(_ report: MatchReport) {
        guard let line = try? JSONEvent.line(report) else { return }
        writing.withLock { _ in write(line) }
    }

    public func report(batch reports: [MatchReport]) {
        let lines = reports.compactMap { try? JSONEvent.line($0) }
        guard !lines.isEmpty else { return }
        writing.withLock { _ in
            if let writeTogether, lines.count > 1 {
                writeTogether(lines.joined(separator: "\n"))
            } else {
                lines.forEach(write)
            }
        }
    }
}
