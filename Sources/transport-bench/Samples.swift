import Foundation

/// Timings of one kind, and the figures the bench prints about them.
struct Samples: Sendable {
    /// Each timing in milliseconds, in the order taken.
    private(set) var milliseconds: [Double] = []

    init() {}

    init(_ durations: [Duration]) {
        milliseconds = durations.map(\.benchMilliseconds)
    }

    mutating func append(_ duration: Duration) {
        milliseconds.append(duration.benchMilliseconds)
    }

    mutating func append(contentsOf other: Samples) {
        milliseconds += other.milliseconds
    }

    var count: Int { milliseconds.count }

    /// The `fraction` quantile (0...1), interpolating linearly between the two nearest ranks (so the median of an
    /// even count is the mean of the middle two); nil without samples.
    func quantile(_ fraction: Double) -> Double? {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return nil }
        let position = fraction * Double(sorted.count - 1)
        let below = Int(position.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        return sorted[below] + (sorted[above] - sorted[below]) * (position - Double(below))
    }

    var median: Double? { quantile(0.5) }
    var p90: Double? { quantile(0.9) }
    var max: Double? { milliseconds.max() }

    /// "median 2.31 ms, p90 2.80 ms, max 5.02 ms".
    var summary: String {
        guard let median, let p90, let max else { return "no samples" }
        return "median \(formatMilliseconds(median)), p90 \(formatMilliseconds(p90)), max \(formatMilliseconds(max))"
    }
}

extension Duration {
    /// The duration in milliseconds, as a Double.
    var benchMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }
}

/// Milliseconds with three significant figures at least: "0.142 ms", "2.31 ms", "12.4 ms".
func formatMilliseconds(_ value: Double) -> String {
    String(format: value < 1 ? "%.3f ms" : value < 10 ? "%.2f ms" : "%.1f ms", value)
}
