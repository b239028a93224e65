/// Coalesces bursts of list changes into one update (Avahi never sets kDNSServiceFlagsMoreComing, so a burst of
/// callbacks cannot be told apart from single ones). Pure: the caller passes the time.
///
/// The first change after a quiet spell is due at once (no fixed delay on a game that appears or goes). Changes that
/// follow within `quiet` of an update form a burst: that update is due once `quiet`
/// has passed without another change, but never later than `maxDelay` after the burst's first change, so a steady
/// stream of changes still shows.
public struct Debouncer: Sendable {
    public var quiet: Duration
    public var maxDelay: Duration
    private var firstChange: ContinuousClock.Instant?
    private var lastChange: ContinuousClock.Instant?
    /// When the last update went out (`fire`, `flushed`); nil before the first.
    private var lastUpdate: ContinuousClock.Instant?

    public init(quiet: Duration = .milliseconds(100), maxDelay: Duration = .milliseconds(400)) {
        self.quiet = quiet
        self.maxDelay = maxDelay
    }

    /// Records a change; returns when the update is due (`now` itself after a quiet spell).
    @discardableResult
    public mutating func changed(at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        if firstChange == nil { firstChange = now }
        lastChange = now
        return deadline!
    }

    /// When the pending update is due; nil when nothing is pending.
    public var deadline: ContinuousClock.Instant? {
        guard let firstChange, let lastChange else { return nil }
        let afterQuietSpell = lastUpdate.map { firstChange - $0 >= quiet } ?? true
        if afterQuietSpell && firstChange == lastChange { return firstChange }
        return min(lastChange + quiet, firstChange + maxDelay)
    }

    /// True (and the burst is over) when an update is due at `now`.
    public mutating func fire(at now: ContinuousClock.Instant) -> Bool {
        guard let deadline, now >= deadline else { return false }
        flushed(at: now)
        return true
    }

    /// An update went out at `now` by other means (everything pending with it): later changes count from here.
    public mutating func flushed(at now: ContinuousClock.Instant) {
        reset()
        lastUpdate = now
    }

    /// Drops the pending update (e.g. it was sent at once).
    public mutating func reset() {
        firstChange = nil
        lastChange = nil
    }
}
