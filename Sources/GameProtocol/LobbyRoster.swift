/// Who is in the LAN lobby, from the messages heard (pure: time is an input): members announce themselves every few
/// seconds and are gone after `timeout` without a word (or at once when they say `leave`); greetings, challenges and
/// answers to us become events. Nothing from the network is obeyed blindly: every datagram is decoded and checked
/// (`LobbyMessage`), each source address has a token bucket (`burst` messages, then one per `refill`; the rest are
/// dropped and reported once), and at most `capacity` members are kept.
public struct LobbyRoster: Sendable {
    public struct Member: Sendable, Hashable {
        public var id: LobbyMessage.MemberID
        public var name: String
        public var hosting: LobbyMessage.Hosting
        public var port: UInt16
        public var protocolVersion: UInt8
        /// The source address of its last message (an IP literal).
        public var address: String
        /// When it was last heard.
        public var lastSeen: Duration
    }

    public enum Event: Sendable, Hashable {
        case arrived(Member)
        /// Its name, hosting or address changed.
        case updated(Member)
        /// `said`: it said leave; otherwise it went silent.
        case left(Member, said: Bool)
        case greeted(id: LobbyMessage.MemberID, name: String, address: String, text: String)
        /// A challenge to us: join `address` (the one given, or the sender's source address) at `port`.
        case challenged(id: LobbyMessage.MemberID, name: String, address: String, port: UInt16)
        case answered(id: LobbyMessage.MemberID, name: String, accepted: Bool)
        /// A source that sent more than its share: its messages are dropped until its bucket refills (said once).
        case rateLimited(address: String)
        /// A datagram that is not a valid lobby message (said once per source until it sends a good one).
        case rejected(address: String, reason: String)
    }

    public let me: LobbyMessage.MemberID
    public let timeout: Duration
    public let burst: Int
    public let refill: Duration
    public let capacity: Int
    public private(set) var members: [LobbyMessage.MemberID: Member] = [:]
    private var buckets: [String: Bucket] = [:]
    private var rejectedSources: Set<String> = []
    /// The last sequence numbers heard from each member (a message sent on both IPv4 and IPv6 arrives twice).
    private var recent: [LobbyMessage.MemberID: [UInt32]] = [:]

    private struct Bucket: Sendable {
        var tokens: Double
        var updated: Duration
        var limitedSaid = false
    }

    public init(
        me: LobbyMessage.MemberID, timeout: Duration = .seconds(7), burst: Int = 8, refill: Duration = .milliseconds(250),
        capacity: Int = 64
    ) {
        self.me = me
        self.timeout = timeout
        self.burst = burst
        self.refill = refill
        self.capacity = capacity
    }

    /// The members, by name then id.
    public var sorted: [Member] {
        members.values.sorted { ($0.name, $0.id.value) < ($1.name, $1.id.value) }
    }

    /// One datagram from `address` (an IP literal) at `now`.
    public mutating func receive(_ bytes: [UInt8], from address: String, at now: Duration) -> [Event] {
        guard take(from: address, at: now) else {
            guard !buckets[address, default: Bucket(tokens: 0, updated: now)].limitedSaid else { return [] }
            buckets[address]?.limitedSaid = true
            return [.rateLimited(address: address)]
        }
        let message: LobbyMessage
        do {
            message = try LobbyMessage(decoding: bytes)
        } catch .otherVersion {
            return []  // a later version: not ours to judge
        } catch {
            guard rejectedSources.insert(address).inserted else { return [] }
            return [.rejected(address: address, reason: "\(error)")]
        }
        rejectedSources.remove(address)
        guard message.sender != me else { return [] }  // our own, looped back
        let id = message.sender
        var heard = recent[id, default: []]
        guard !heard.contains(message.sequence) else { return [] }  // the same message by the other family
        heard.append(message.sequence)
        recent[id] = Array(heard.suffix(16))
        var events: [Event] = []
        switch message.body {
        case .announce(let hosting, let port, let version):
            var member = Member(
                id: id, name: message.name, hosting: hosting, port: port, protocolVersion: version, address: address,
                lastSeen: now)
            if let known = members[id] {
                // Heard on IPv4 and IPv6: its address stays the first one heard, unless that family's address changed.
                if Self.isIPv6(known.address) != Self.isIPv6(address) { member.address = known.address }
                members[id] = member
                if known.name != member.name || known.hosting != hosting || known.port != port
                    || known.address != member.address || known.protocolVersion != version
                {
                    events.append(.updated(member))
                }
            } else if members.count < capacity {
                members[id] = member
                events.append(.arrived(member))
            }
        case .greeting(let text):
            members[id]?.lastSeen = now
            events.append(.greeted(id: id, name: message.name, address: address, text: text))
        case .challenge(let target, let port, let given):
            guard target == me else { break }
            members[id]?.lastSeen = now
            events.append(.challenged(id: id, name: message.name, address: given ?? address, port: port))
        case .answer(let target, let accepted):
            guard target == me else { break }
            members[id]?.lastSeen = now
            events.append(.answered(id: id, name: message.name, accepted: accepted))
        case .leave:
            recent[id] = nil
            if let member = members.removeValue(forKey: id) { events.append(.left(member, said: true)) }
        }
        return events
    }

    /// Members not heard from within `timeout` of `now` leave.
    public mutating func expire(at now: Duration) -> [Event] {
        let silent = members.values.filter { now - $0.lastSeen > timeout }.sorted { $0.id.value < $1.id.value }
        for member in silent {
            members[member.id] = nil
            recent[member.id] = nil
        }
        recent = recent.filter { members[$0.key] != nil }
        // Buckets of quiet sources are forgotten (bounded memory under a spoofed flood of many addresses).
        buckets = buckets.filter { now - $0.value.updated < timeout }
        return silent.map { .left($0, said: false) }
    }

    private static func isIPv6(_ address: String) -> Bool { address.contains(":") }

    /// Takes a token from `address`'s bucket (refilled one per `refill` since it was last used, up to `burst`).
    private mutating func take(from address: String, at now: Duration) -> Bool {
        var bucket = buckets[address] ?? Bucket(tokens: Double(burst), updated: now)
        let elapsed = now - bucket.updated
        if elapsed > .zero {
            bucket.tokens = min(Double(burst), bucket.tokens + elapsed / refill)
            bucket.updated = now
        }
        guard bucket.tokens >= 1 else {
            buckets[address] = bucket
            return false
        }
        bucket.tokens -= 1
        if bucket.tokens >= 1 { bucket.limitedSaid = false }
        buckets[address] = bucket
        return true
    }
}
