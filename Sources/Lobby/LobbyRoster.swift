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
        /// The source address it was first heard from (an IP literal; a link-local IPv6 one with its interface).
        public var address: String
        /// Every address it is heard from: one per family at most. Messages with its id from any other address are
        /// not its own (ids are unauthenticated) and are dropped.
        public var addresses: Set<String>
        /// When it was last heard.
        public var lastSeen: Duration

        public init(
            id: LobbyMessage.MemberID, name: String, hosting: LobbyMessage.Hosting, port: UInt16, protocolVersion: UInt8,
            address: String, addresses: Set<String>, lastSeen: Duration
        ) {
            self.id = id
            self.name = name
            self.hosting = hosting
            self.port = port
            self.protocolVersion = protocolVersion
            self.address = address
            self.addresses = addresses
            self.lastSeen = lastSeen
        }
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
    /// The whole group's budget on top of each source's: a flood from many (spoofed) addresses is not obeyed either.
    private var overall: Bucket
    private var overallLimitedSaid = false
    /// What `.rateLimited` says when the flood is the whole group's, not one address's.
    public static let manySources = "*"
    /// The most sources tracked at once (buckets, rejected-once marks).
    public static let maximumSources = 256
    /// The most members one address may announce.
    public static let membersPerAddress = 4
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
        overall = Bucket(tokens: Double(burst * 8), updated: .zero)
    }

    /// The members, by name then id.
    public var sorted: [Member] {
        members.values.sorted { ($0.name, $0.id.value) < ($1.name, $1.id.value) }
    }

    /// One datagram from `address` (an IP literal) at `now`.
    public mutating func receive(_ bytes: [UInt8], from address: String, at now: Duration) -> [Event] {
        let sourceAllowed = take(from: address, at: now)
        guard sourceAllowed, take(overallAt: now) else {
            if !sourceAllowed, buckets[address] != nil {
                guard buckets[address]?.limitedSaid == false else { return [] }
                buckets[address]?.limitedSaid = true
                return [.rateLimited(address: address)]
            }
            // The group's budget is spent, or too many sources are sending: said once until it refills.
            guard !overallLimitedSaid else { return [] }
            overallLimitedSaid = true
            return [.rateLimited(address: Self.manySources)]
        }
        let message: LobbyMessage
        do {
            message = try LobbyMessage(decoding: bytes)
        } catch .otherVersion {
            return []  // a later version: not ours to judge
        } catch {
            guard rejectedSources.count < Self.maximumSources, rejectedSources.insert(address).inserted else { return [] }
            return [.rejected(address: address, reason: "\(error)")]
        }
        rejectedSources.remove(address)
        guard message.sender != me else { return [] }  // our own, looped back
        let id = message.sender
        if let known = members[id], !known.addresses.contains(address) {
            // Its first message by the other family is welcome; from another address of a family it is known by, the
            // message is someone else's using its id.
            guard !known.addresses.contains(where: { Self.isIPv6($0) == Self.isIPv6(address) }) else { return [] }
            members[id]?.addresses.insert(address)
        }
        var heard = recent[id, default: []]
        guard !heard.contains(message.sequence) else { return [] }  // the same message by the other family
        heard.append(message.sequence)
        recent[id] = Array(heard.suffix(16))
        var events: [Event] = []
        switch message.body {
        case .announce(let hosting, let port, let version):
            if let event = announce(
                id: id, name: message.name, hosting: hosting, port: port, version: version, from: address, at: now)
            {
                events.append(event)
            }
        case .greeting(let text):
            members[id]?.lastSeen = now
            events.append(.greeted(id: id, name: message.name, address: address, text: text))
        case .challenge(let target, let port, let given):
            guard target == me else { break }
            members[id]?.lastSeen = now
            // Without an address, the challenger's own: its IPv4 one where it has one (the challenge's IPv4 and IPv6
            // copies race; either way the same address is joined).
            let own = members[id].map { member in
                member.addresses.filter { !Self.isIPv6($0) }.min() ?? member.addresses.min() ?? address
            } ?? address
            events.append(.challenged(id: id, name: message.name, address: given ?? own, port: port))
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

    /// An announcement from member `id`: a known member is updated (`.updated` if something it shows changed), a new
    /// one arrives if there is room for it (`capacity`, `membersPerAddress`).
    private mutating func announce(
        id: LobbyMessage.MemberID, name: String, hosting: LobbyMessage.Hosting, port: UInt16, version: UInt8,
        from address: String, at now: Duration
    ) -> Event? {
        if var member = members[id] {
            // Heard on IPv4 and IPv6: it keeps the address it was first heard from.
            let before = member
            member.name = name
            member.hosting = hosting
            member.port = port
            member.protocolVersion = version
            member.lastSeen = now
            members[id] = member
            if before.name != member.name || before.hosting != hosting || before.port != port
                || before.protocolVersion != version
            {
                return .updated(member)
            }
        } else if members.count < capacity,
                  members.values.filter({ $0.addresses.contains(address) }).count < Self.membersPerAddress
        {
            let member = Member(
                id: id, name: name, hosting: hosting, port: port, protocolVersion: version, address: address,
                addresses: [address], lastSeen: now)
            members[id] = member
            return .arrived(member)
        }
        return nil
    }

    /// Members not heard from within `timeout` of `now` leave.
    public mutating func expire(at now: Duration) -> [Event] {
        let silent = members.values.filter { now - $0.lastSeen > timeout }.sorted { $0.id.value < $1.id.value }
        for member in silent {
            members[member.id] = nil
            recent[member.id] = nil
        }
        recent = recent.filter { members[$0.key] != nil }
        if rejectedSources.count >= Self.maximumSources { rejectedSources = [] }
        // Buckets of quiet sources are forgotten (bounded memory under a spoofed flood of many addresses).
        buckets = buckets.filter { now - $0.value.updated < timeout }
        return silent.map { .left($0, said: false) }
    }

    private static func isIPv6(_ address: String) -> Bool { address.contains(":") }

    /// Takes a token from the whole group's budget.
    private mutating func take(overallAt now: Duration) -> Bool {
        let elapsed = now - overall.updated
        if elapsed > .zero {
            overall.tokens = min(Double(burst * 8), overall.tokens + elapsed / refill * 8)
            overall.updated = now
        }
        guard overall.tokens >= 1 else { return false }
        overall.tokens -= 1
        if overall.tokens >= Double(burst) { overallLimitedSaid = false }
        return true
    }

    /// Takes a token from `address`'s bucket (refilled one per `refill` since it was last used, up to `burst`).
    private mutating func take(from address: String, at now: Duration) -> Bool {
        guard buckets[address] != nil || buckets.count < Self.maximumSources else { return false }
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
