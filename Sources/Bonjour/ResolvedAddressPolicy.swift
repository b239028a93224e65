import GameProtocol

#if canImport(Glibc)
import Glibc
#endif

/// What kind of destination an IP address is, as far as joining a game found on the LAN is concerned.
public enum AddressScope: Sendable, Hashable, CaseIterable {
    /// One host: a LAN address (private, public or link-local), this machine's own LAN addresses included.
    case unicast
    /// 127.0.0.0/8, ::1 (and ::ffff:127.x.y.z): this machine itself, never a host on the LAN.
    case loopback
    /// 0.0.0.0/8 ("this network"), :: (and ::ffff:0.x.y.z): no host at all (Linux connects 0.0.0.0 to this machine).
    case unspecified
    /// 224.0.0.0/4, ff00::/8: a group, not a host.
    case multicast
    /// 255.255.255.255: every host on the link, not one.
    case broadcast

    /// The scope of an IPv4 (4 bytes) or IPv6 (16 bytes) address in network order; nil for any other length.
    public init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4:
            self = Self.ipv4(bytes)
        case 16:
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                self = Self.ipv4(Array(bytes[12..<16]))  // IPv4-mapped (::ffff:a.b.c.d): what the kernel connects to
            } else if bytes[0..<15].allSatisfy({ $0 == 0 }) {
                self = bytes[15] == 1 ? .loopback : (bytes[15] == 0 ? .unspecified : .unicast)
            } else if bytes[0] == 0xFF {
                self = .multicast
            } else {
                self = .unicast
            }
        default:
            return nil
        }
    }

    /// The scope of an IP address in text ("127.0.0.1", "::1", "fe80::1%eth0"); nil when it is not an IP literal.
    public init?(address text: String) {
        let address = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? text
        var buffer = [UInt8](repeating: 0, count: 16)
        if !address.contains(":"), inet_pton(AF_INET, address, &buffer) == 1 {
            self.init(bytes: Array(buffer[0..<4]))
        } else if inet_pton(AF_INET6, address, &buffer) == 1 {
            self.init(bytes: buffer)
        } else {
            return nil
        }
    }

    private static func ipv4(_ bytes: [UInt8]) -> AddressScope {
        switch bytes[0] {
        case 127: return .loopback
        case 0: return .unspecified
        case 224...239: return .multicast
        case 255 where bytes.allSatisfy { $0 == 255 }: return .broadcast
        default: return .unicast
        }
    }

    /// Why an address of this scope is no place for a game on the LAN (nil for unicast).
    public var why: String? {
        switch self {
        case .unicast: return nil
        case .loopback: return "loopback: this machine itself, not a host on the LAN"
        case .unspecified: return "unspecified: no host at all; it would connect to this machine"
        case .multicast: return "multicast: a group, not a host"
        case .broadcast: return "broadcast: every host, not one"
        }
    }
}

/// An address a resolved game's record named that `join NAME` will not connect to.
public struct RefusedAddress: Sendable, Hashable, CustomStringConvertible {
    public var address: String
    public var scope: AddressScope

    public init(address: String, scope: AddressScope) {
        self.address = address
        self.scope = scope
    }

    public var description: String { "\(address) (\(scope.why ?? "refused"))" }
}

/// Which addresses from a LAN record `join NAME` connects to.
///
/// The rule: a record resolved from the LAN may name any unicast address (a host's LAN addresses, this machine's own
/// ones too: that is how a game hosted here is joined by name). It may not name an address that is no host on the LAN:
/// unspecified (0.0.0.0/8, ::), multicast or broadcast addresses are always refused, and so is loopback (127.0.0.0/8,
/// ::1), because a record that points a joiner at its own loopback makes it connect to whatever listens on its own
/// machine at the record's port (an SSH server, say) and send its player name there. Loopback is accepted only when
/// the address record arrived on this machine's own loopback interface (an interface index that getifaddrs lists with
/// IFF_LOOPBACK): only this machine can send there, so only this machine published it. Nothing else can show that a
/// record is this machine's own: Avahi's dns_sd compatibility library drops Avahi's "local" flag, and a host name can
/// be claimed by anyone on the LAN. Avahi does not use the loopback interface unless configured to, and never
/// publishes loopback addresses for its host, so in practice a record naming loopback is refused; a game on this
/// machine is still found by name (through its LAN addresses) or joined by address (`join 127.0.0.1:7878`, which no
/// record is involved in).
public enum ResolvedAddressPolicy {
    /// Nil when `bytes` (an A or AAAA record's address) may be joined; otherwise the refusal. `interfaceIndex` is the
    /// interface the record arrived on; `isLoopbackInterface` says whether an index is this machine's loopback.
    public static func refusal(
        address: String, bytes: [UInt8], interfaceIndex: UInt32,
        isLoopbackInterface: (UInt32) -> Bool = LocalInterfaces.isLoopback(index:)
    ) -> RefusedAddress? {
        guard let scope = AddressScope(bytes: bytes) else { return nil }
        switch scope {
        case .unicast:
            return nil
        case .loopback where interfaceIndex != 0 && isLoopbackInterface(interfaceIndex):
            return nil
        case .loopback, .unspecified, .multicast, .broadcast:
            return RefusedAddress(address: address, scope: scope)
        }
    }
}

/// This machine's network interfaces, as getifaddrs lists them.
public enum LocalInterfaces {
    /// Whether `index` names one of this machine's interfaces that is a loopback interface (IFF_LOOPBACK).
    public static func isLoopback(index: UInt32) -> Bool {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return false }
        defer { freeifaddrs(list) }
        var next: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = next?.pointee {
            next = entry.ifa_next
            guard entry.ifa_flags & UInt32(IFF_LOOPBACK) != 0, let name = entry.ifa_name else { continue }
            if if_nametoindex(name) == index { return true }
        }
        return false
    }
}

extension ResolvedGame {
    /// The endpoints `join NAME` tries. When the record named only refused addresses this throws
    /// `ConnectionError.badAddress` (exit 5) saying which addresses, why, and what to do; refused addresses next to
    /// usable ones are skipped, and `warn` is told.
    public func endpointsToJoin(warn: (String) -> Void = { _ in }) throws -> [Endpoint] {
        guard !refusedAddresses.isEmpty else { return endpoints }
        let listed = refusedAddresses.map(\.description).joined(separator: ", ")
        guard endpoints.isEmpty else {
            warn("'\(name)': skipping \(listed), named by its Bonjour record: not an address of a host on the LAN")
            return endpoints
        }
        var advice = "check the host that advertises it"
        if let loopback = refusedAddresses.first(where: { $0.scope == .loopback }) {
            let address = loopback.address.contains(":") ? "[\(loopback.address)]" : loopback.address
            advice = "if you do mean this machine, join it by address: tictactoe join \(address):\(port)"
        }
        throw ConnectionError.badAddress(
            "refusing to join '\(name)': its Bonjour record names only \(listed); nothing was connected to. "
                + advice.prefix(1).uppercased() + advice.dropFirst())
    }
}
