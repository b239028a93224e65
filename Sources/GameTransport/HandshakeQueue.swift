/// The connections a listener has accepted that have not sent their first frame yet, oldest first, with a cap.
///
/// Pure bookkeeping (the listener keeps the channels in it): `admit` adds a connection and, when that goes over
/// `capacity`, hands back the oldest one for the caller to close; `finish` takes a connection out once its first
/// frame has arrived (or it failed). Closing the oldest, not refusing the newest, means that idle sockets cannot
/// keep a real joiner out: a joiner sends its hello as soon as it is connected, so only a flood of more than
/// `capacity` new connections within that moment could push it out.
struct HandshakeQueue<Member: Sendable>: Sendable {
    /// How many connections may wait for their first frame at once.
    let capacity: Int
    private var waiting: [(ticket: Int, member: Member)] = []
    private var nextTicket = 0

    init(capacity: Int) {
        precondition(capacity >= 1, "a listener must let at least one connection shake hands")
        self.capacity = capacity
    }

    /// How many connections are waiting for their first frame.
    var count: Int { waiting.count }

    /// Adds `member`; returns its ticket and, if the queue was full, the oldest member, now taken out.
    mutating func admit(_ member: Member) -> (ticket: Int, evicted: Member?) {
        let ticket = nextTicket
        nextTicket += 1
        waiting.append((ticket, member))
        guard waiting.count > capacity else { return (ticket, nil) }
        return (ticket, waiting.removeFirst().member)
    }

    /// Whether the member with `ticket` is still waiting.
    func contains(_ ticket: Int) -> Bool {
        waiting.contains { $0.ticket == ticket }
    }

    /// Takes the member with `ticket` out (its first frame came, or it ended); nothing if it was already evicted.
    mutating func finish(_ ticket: Int) {
        waiting.removeAll { $0.ticket == ticket }
    }

    /// Takes every member out (the listener stops), oldest first.
    mutating func removeAll() -> [Member] {
        defer { waiting = [] }
        return waiting.map(\.member)
    }
}
