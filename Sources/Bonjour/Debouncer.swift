/// Coalesces bursts of list changes into one update (Avahi never sets kDNSServiceFlagsMoreComing, so a burst of
/// callbacks cannot be told apart from single ones). Pure: the caller passes the time.
///
/// After a change the update is due once `quiet` has passed without another change, but never later than `maxDelay`
/// after the first change of the burst, so a steady stream of changes still shows.
public struct Debouncer: Sendable {
    public var quiet: Duration
    public var maxDelay: Duration
    private var firstChange: ContinuousClock.Instant?
    private var lastChange: ContinuousClock.Instant?

    public init(quiet: Duration = .milliseconds(100), maxDelay: Duration = .milliseconds(400)) {
        self.quiet = quiet
        self.maxDelay = maxDelay
    }

    /// Records a change; returns when the update is due.
    @discardableResult
    public mutating func changed(at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        if firstChange == nil { firstChange = now }
        lastChange = now
        return deadline!
    }

    /// When the pending update is due; nil when nothing is pending.
    public var deadline: ContinuousClock.Instant? {
        guard let firstChange, let lastChange else { return nil }
        return min(lastChange + quiet, firstChange + maxDelay)
    }

    /// True (and the burst is over) when an update is due at `now`.
    public mutating func fire(at now: ContinuousClock.Instant) -> Bool {
        guard let deadline, now >= deadline else { return false }
        reset()
        return true
    }

    /// Drops the pending update (e.g. it was sent at once).
    public mutating func reset() {
        firstChange = nil
        lastChange = nil
    }
}
