/// The browser's list, kept from dns_sd add/remove callbacks. Pure: no dns_sd calls, no clock.
///
/// Avahi reports each instance once per interface and IP version, and removes it the same way, so each name keeps a
/// count per interface; a name is present while any count is positive. A present name is listed once its TXT record
/// was read (to tell compatible games from other programs of the same service type) or reading it failed.
public struct BrowseRegistry: Sendable {
    /// What an add or remove did to a name.
    public enum Change: Sendable, Hashable {
        /// First sighting: resolve it to read its TXT record.
        case appeared
        /// Last sighting gone: stop resolving it.
        case disappeared
        /// Another interface or IP version of a name already known (or a remove of one still seen elsewhere).
        case unchanged
    }

    private struct Instance {
        var presence: [UInt32: Int] = [:]
        var compatibility: Compatibility?
        var isPresent: Bool { presence.values.contains { $0 > 0 } }
    }

    private var instances: [String: Instance] = [:]

    public init() {}

    /// An add callback (kDNSServiceFlagsAdd) for `name` on `interface`.
    public mutating func add(_ name: String, interface: UInt32) -> Change {
        var instance = instances[name] ?? Instance()
        let wasPresent = instance.isPresent
        instance.presence[interface, default: 0] += 1
        instances[name] = instance
        return wasPresent ? .unchanged : .appeared
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

    /// The TXT record of a present name was read (or reading it failed: pass `.incompatible(reason:)`).
    public mutating func classify(_ name: String, as compatibility: Compatibility) {
        guard instances[name]?.isPresent == true else { return }
        instances[name]?.compatibility = compatibility
    }

    /// Forgets everything (the daemon went away: its results are stale).
    public mutating func flush() {
        instances = [:]
    }

    /// Present names not classified yet.
    public var unclassifiedNames: [String] {
        instances.filter { $0.value.isPresent && $0.value.compatibility == nil }.map(\.key).sorted()
    }

    public func isPresent(_ name: String) -> Bool { instances[name]?.isPresent == true }

    /// The list to show: present and classified, hidden names left out, sorted by name (case-insensitively).
    public func games(hiding hidden: Set<String> = []) -> [DiscoveredGame] {
        instances.compactMap { name, instance -> DiscoveredGame? in
            guard instance.isPresent, !hidden.contains(name), let compatibility = instance.compatibility else {
                return nil
            }
            return DiscoveredGame(name: name, compatibility: compatibility)
        }
        .sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
    }
}
