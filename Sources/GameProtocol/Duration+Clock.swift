/// Time as the app counts it: a `Duration`, read on the one clock the root hands down. A Double of seconds or
/// milliseconds is made only where a number is written or given to the system (a line of text, JSON, a poll).
extension Duration {
    /// Seconds as a Double, for what counts in them (a line of text, a poll's timeout).
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Milliseconds as a Double, for what counts in them (a JSON field, a poll's timeout).
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

extension Clock where Duration == Swift.Duration {
    /// The time on this clock since the call: how everything that times reads an elapsed time.
    public func stopwatch() -> @Sendable () -> Duration {
        let start = now
        return { start.duration(to: now) }
    }
}
