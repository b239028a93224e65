/// Delays between attempts to reach the daemon: `initial`, doubling up to `maximum`. Pure.
public struct Backoff: Sendable, Hashable {
    public var initial: Duration
    public var maximum: Duration
    public private(set) var attempts = 0

    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(4)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before the next attempt.
    public mutating func next() -> Duration {
        let delay = attempts >= 20 ? maximum : min(initial * (1 << attempts), maximum)
        attempts += 1
        return delay
    }

    /// After a success: the next failure starts from `initial` again.
    public mutating func reset() {
        attempts = 0
    }
}
