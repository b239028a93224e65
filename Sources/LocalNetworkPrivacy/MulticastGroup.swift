import GameProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A multicast group descriptor, as NWMulticastGroup takes one: the group's addresses (an administratively scoped
/// IPv4 group, 239.0.0.0/8, and a link-local IPv6 group, ff02::/16: neither leaves the local network) and a UDP port.
/// At least one address; sends and joins use each one given.
public struct MulticastGroup: Sendable, Hashable, CustomStringConvertible {
    public let ipv4: String?
    public let ipv6: String?
    public let port: Int

    /// Throws `MulticastGroupError` for an address that is not a group of the right scope, or a port out of range.
    public init(ipv4: String?, ipv6: String?, port: Int) throws(MulticastGroupError) {
        guard ipv4 != nil || ipv6 != nil else { throw .noAddress }
        guard (1...65535).contains(port) else { throw .badPort(port) }
        if let ipv4 {
            var address = in_addr()
            guard inet_pton(AF_INET, ipv4, &address) == 1 else { throw .notAnAddress(ipv4) }
            // 239.0.0.0/8: administratively scoped (RFC 2365), never routed beyond the organisation; the lobby uses
            // 239.255.0.0/16, the local scope.
            guard UInt32(bigEndian: address.s_addr) >> 24 == 239 else { throw .notAdministrativelyScoped(ipv4) }
        }
        if let ipv6 {
            var address = in6_addr()
            guard inet_pton(AF_INET6, ipv6, &address) == 1 else { throw .notAnAddress(ipv6) }
            let bytes = withUnsafeBytes(of: address) { Array($0) }
            // ff02::/16: multicast (ff), scope 2 (link-local): it never crosses a router.
            guard bytes[0] == 0xff, bytes[1] & 0x0f == 0x02 else { throw .notLinkLocal(ipv6) }
        }
        self.ipv4 = ipv4
        self.ipv6 = ipv6
        self.port = port
    }

    /// "239.255.77.77 and [ff02::7474], port 7879".
    public var description: String {
        let addresses = [ipv4, ipv6.map { "[\($0)]" }].compactMap { $0 }.joined(separator: " and ")
        return "\(addresses), port \(port)"
    }
}

/// Why a group descriptor was refused.
public enum MulticastGroupError: Error, Sendable, Hashable, CustomStringConvertible {
    case noAddress
    case badPort(Int)
    case notAnAddress(String)
    case notAdministrativelyScoped(String)
    case notLinkLocal(String)

    public var description: String {
        switch self {
        case .noAddress: return "a multicast group needs an IPv4 or an IPv6 group address"
        case .badPort(let port): return "a multicast group's port must be 1-65535 (got \(port))"
        case .notAnAddress(let text): return "'\(text)' is not an IP address"
        case .notAdministrativelyScoped(let text):
            return "\(text) is not an administratively scoped IPv4 group (239.0.0.0/8, e.g. 239.255.77.77)"
        case .notLinkLocal(let text):
            return "\(text) is not a link-local IPv6 multicast group (ff02::/16, e.g. ff02::7474)"
        }
    }
}
