/// What a private host says of the connections it refuses before their handshake (too soon after another from the
/// same address): the first from an address in full, then how many more came, at most once every `interval` while
/// they go on and once after they stop. A flood from one address is a few lines, not one a connection. Pure: the
/// time is an input.
struct RefusalDigest: Sendable {
    enum Line: Sendable, Hashable {
        /// The first refusal from `source` (since it was last quiet for `interval`): why.
        case first(source: String, reason: String)
        /// `count` more refusals from `source` since it was last said.
        case more(source: String, count: Int)
    }

    let interval: Duration
    /// The addresses refused lately: refusals not said yet, when it was last said, the latest refusal.
    private var sources: [String: (unsaid: Int, said: Duration, latest: Duration)] = [:]

    init(interval: Duration = .seconds(5)) {
        self.interval = interval
    }

    /// A connection from `source` was refused at `now`.
    mutating func refused(_ source: String, reason: String, at now: Duration) -> [Line] {
        guard var known = sources[source] else {
            sources[source] = (0, now, now)
            return [.first(source: source, reason: reason)]
        }
        known.unsaid += 1
        known.latest = now
        sources[source] = known
        return due(source, at: now)
    }

    /// The counts due at `now` (`interval` after an address's last line), oldest address first; addresses quiet for
    /// `interval` with nothing left to say are forgotten (their next refusal is said in full again).
    mutating func tick(at now: Duration) -> [Line] {
        var lines: [Line] = []
        for source in sources.keys.sorted() {
            lines += due(source, at: now)
            if let known = sources[source], known.unsaid == 0, now - known.latest >= interval {
                sources[source] = nil
            }
        }
        return lines
    }

    /// Whether any address is still remembered (a tick has something to do).
    var isEmpty: Bool { sources.isEmpty }

    private mutating func due(_ source: String, at now: Duration) -> [Line] {
        guard var known = sources[source], known.unsaid > 0, now - known.said >= interval else { return [] }
        defer {
            known.unsaid = 0
            known.said = now
            sources[source] = known
        }
        return [.more(source: source, count: known.unsaid)]
    }
}
