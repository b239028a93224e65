import GameProtocol

/// The browser's list, kept from dns_sd add/remove callbacks. Pure: no dns_sd calls, no clock.
///
/// Avahi reports each instance once per interface and IP version, and removes it the same way, so each name keeps a
/// count per interface; a name is present while any count is positive. A present name is listed while it is present:
/// first as `.pending`, then with what resolving it said (its TXT record tells compatible games from other programs
/// of the same service type), or `.notAnswering` when resolving it failed. An add for a name that did not answer is
/// a re-announcement: it is resolved again (`.appeared`). A game that answered follows its TXT record as a live query
/// reports it (`txt(_:of:interface:added:)`): a host that starts or ends a match is relisted at once.
public struct BrowseRegistry: Sendable {
    /// What an add or remove did to a name.
    public enum Change: Sendable, Hashable {
        /// First sighting, or a re-announcement of a name that did not answer: resolve it.
        case appeared
        /// Last sighting gone: stop resolving it.
        case disappeared
        /// Another interface or IP version of a name already known (or a remove of one still seen elsewhere).
        case unchanged
    }

    private struct Instance {
        var presence: [UInt32: Int] = [:]
        var lookup: DiscoveredGame.Lookup = .pending
        var activity = GameActivity()
        /// Why it cannot be joined whatever its TXT record says: its record names no address on the LAN.
        var addressProblem: String?
        /// The TXT records a live query reports present, oldest first: the newest is what the host says now.
        var txts: [(interface: UInt32, wire: [UInt8])] = []
        var isPresent: Bool { presence.values.contains { $0 > 0 } }

        /// Relists an answered game with the newest TXT record present, if any.
        mutating func applyNewestTXT() {
            guard let wire = txts.last?.wire, case .answered(_, let host, let addresses) = lookup else { return }
            let txt = TXTRecord(wire: wire)
            let compatibility = addressProblem.map { .incompatible(reason: $0) } ?? GameService.compatibility(of: txt)
            lookup = .answered(compatibility, host: host, addresses: addresses)
            activity = GameService.activity(of: txt)
        }
    }

    private var instances: [String: Instance] = [:]

    public init() {}

    /// An add callback (kDNSServiceFlagsAdd) for `name` on `interface`.
    public mutating func add(_ name: String, interface: UInt32) -> Change {
        var instance = instances[name] ?? Instance()
        let wasPresent = instance.isPresent
        instance.presence[interface, default: 0] += 1
        let retry = instance.lookup == .notAnswering
        if retry { instance.lookup = .pending }
        instances[name] = instance
        return wasPresent && !retry ? .unchanged : .appeared
    }

    /// A remove callback for `name` on `interface`. Removes never seen added are ignored.
    public mutating func remove(_ name: String, interface: UInt32) -> Change {
        guard var instance = instances[name], let count = instance.presence[interface], count > 0 else {
            return .unchanged
        }
        instance.presence[interface] = count - 1 > 0 ? count - 1 : nil
        if instance.isPresent {
            instances[name] = instance
            return .unchanged
        }
        instances[name] = nil  // forget its classification too: it may come back as something else
        return .disappeared
    }

    /// A present name was resolved: what its TXT record says, its host and addresses. A record that named only
    /// `refused` addresses (loopback, multicast: `ResolvedAddressPolicy`) and no usable one is listed as not joinable,
    /// saying which. A TXT record a live query reported since is newer than the resolve's: it stays what is listed.
    public mutating func classify(
        _ name: String, as compatibility: Compatibility, activity: GameActivity = GameActivity(), host: String = "",
        addresses: [String] = [], refused: [RefusedAddress] = []
    ) {
        guard var instance = instances[name], instance.isPresent else { return }
        instance.addressProblem = addresses.isEmpty && !refused.isEmpty
            ? "its record names no address on the LAN, only " + refused.map(\.description).joined(separator: ", ")
            : nil
        let listed = instance.addressProblem.map { .incompatible(reason: $0) } ?? compatibility
        instance.lookup = .answered(listed, host: host, addresses: addresses)
        instance.activity = activity
        instance.applyNewestTXT()
        instances[name] = instance
    }

    /// A live TXT query's report for a present name: `wire` added on `interface`, or removed. The newest record still
    /// present is what the game says now; a game that answered is relisted with it. True when its listing changed.
    public mutating func txt(_ wire: [UInt8], of name: String, interface: UInt32, added: Bool) -> Bool {
        guard var instance = instances[name], instance.isPresent else { return false }
        let before = (instance.lookup, instance.activity)
        instance.txts.removeAll { $0.interface == interface && $0.wire == wire }
        if added { instance.txts.append((interface, wire)) }
        instance.applyNewestTXT()
        instances[name] = instance
        return before != (instance.lookup, instance.activity)
    }

    /// Resolving a present name got no answer in time: listed as not answering until it is announced again.
    public mutating func notAnswering(_ name: String) {
        record(name, .notAnswering)
    }

    /// Tries a name that did not answer again (its lookup is pending until the answer); false when it is gone or
    /// was not "not answering".
    public mutating func retry(_ name: String) -> Bool {
        guard instances[name]?.isPresent == true, instances[name]?.lookup == .notAnswering else { return false }
        instances[name]?.lookup = .pending
        return true
    }

    private mutating func record(_ name: String, _ lookup: DiscoveredGame.Lookup) {
        guard instances[name]?.isPresent == true else { return }
        instances[name]?.lookup = lookup
    }

    /// Forgets everything (the daemon went away: its results are stale).
    public mutating func flush() {
        instances = [:]
    }

    /// Present names not resolved yet.
    public var unclassifiedNames: [String] {
        instances.filter { $0.value.isPresent && $0.value.lookup == .pending }.map(\.key).sorted()
    }

    public func isPresent(_ name: String) -> Bool { instances[name]?.isPresent == true }

    /// Whether `name` is present and not resolved yet (listed as being looked up).
    public func isPending(_ name: String) -> Bool { isPresent(name) && instances[name]?.lookup == .pending }

    /// The list to show: every present name, hidden names left out, sorted by name (case-insensitively).
    public func games(hiding hidden: Set<String> = []) -> [DiscoveredGame] {
        instances.compactMap { name, instance -> DiscoveredGame? in
            guard instance.isPresent, !hidden.contains(name) else { return nil }
            return DiscoveredGame(name: name, lookup: instance.lookup, activity: instance.activity)
        }
        .sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
    }
}
