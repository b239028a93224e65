import FoundationEssentials
import Localization
import GameClient
import GameProtocol
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// One address of one of this machine's network interfaces, as getifaddrs lists it.
public struct InterfaceAddress: Sendable, Hashable {
    public enum Family: Sendable, Hashable { case ipv4, ipv6 }

    /// The interface's name ("eth0").
    public var interface: String
    public var family: Family
    /// The numeric address, maybe with a `%scope` (which is dropped).
    public var address: String
    /// The interface is up and running (IFF_UP and IFF_RUNNING).
    public var isUp: Bool
    /// A loopback interface (IFF_LOOPBACK).
    public var isLoopback: Bool

    public init(interface: String, family: Family, address: String, isUp: Bool = true, isLoopback: Bool = false) {
        self.interface = interface
        self.family = family
        self.address = address
        self.isUp = isUp
        self.isLoopback = isLoopback
    }
}

/// The addresses a joiner can use to reach a host, in the order to show them: global and private IPv4, then global
/// and private (ULA) IPv6, then IPv4 link-local (169.254/16), then IPv6 link-local (flagged: the joiner adds its own
/// `%interface`). Loopback interfaces and addresses, interfaces that are down, unspecified, multicast and IPv4-mapped
/// addresses are skipped, and each address is listed once. Pure: the interfaces are given (`InterfaceAddress.current`
/// reads this machine's).
public enum JoinAddresses {
    /// The join addresses of a host listening on `host` (the listener's bind address: `::` is every interface, IPv6
    /// and IPv4; `0.0.0.0` every IPv4 one; anything else is that one address, loopback included) at `port`.
    public static func list(listeningOn host: String, port: Int, interfaces: [InterfaceAddress]) -> [JoinAddress] {
        switch host {
        case "::", "[::]":
            return fromInterfaces(interfaces, port: port, families: [.ipv4, .ipv6])
        case "0.0.0.0":
            return fromInterfaces(interfaces, port: port, families: [.ipv4])
        default:
            return [one(host, port: port)]
        }
    }

    /// The one address a host bound to `host` is reached at.
    private static func one(_ host: String, port: Int) -> JoinAddress {
        var text = host.trimmingWhitespace()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.lowercased() == "localhost" { return JoinAddress(host: text, port: port, kind: .loopback) }
        guard let parsed = ParsedAddress(text) else { return JoinAddress(host: text, port: port, kind: .routable) }
        let address = parsed.unmapped
        switch address.scope {
        case .loopback: return JoinAddress(host: address.text, port: port, kind: .loopback)
        case .linkLocal where address.isIPv6: return JoinAddress(host: address.text, port: port, kind: .linkLocal)
        default: return JoinAddress(host: address.text, port: port, kind: .routable)
        }
    }

    private static func fromInterfaces(
        _ interfaces: [InterfaceAddress], port: Int, families: Set<InterfaceAddress.Family>
    ) -> [JoinAddress] {
        var seen: Set<String> = []
        var ranked: [(rank: Int, address: JoinAddress)] = []
        for entry in interfaces where entry.isUp && !entry.isLoopback && families.contains(entry.family) {
            guard let address = ParsedAddress(entry.address), address.isIPv6 == (entry.family == .ipv6) else { continue }
            let rank: Int
            switch (address.scope, address.isIPv6) {
            case (.routable, false): rank = 0
            case (.routable, true): rank = 1
            case (.linkLocal, false): rank = 2
            case (.linkLocal, true): rank = 3
            case (.loopback, _), (.unusable, _): continue
            }
            guard seen.insert(address.text).inserted else { continue }
            ranked.append((rank, JoinAddress(host: address.text, port: port, kind: rank == 3 ? .linkLocal : .routable)))
        }
        // A stable sort: within a rank, the interfaces' own order.
        return ranked.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
            .map(\.element.address)
    }
}

extension JoinAddresses {
    /// The endpoints a joiner tries for `endpoint` as typed. A link-local IPv6 address (fe80::/10) is reached through
    /// one of the joiner's own interfaces, which the address alone does not name: without `%interface`, or with one
    /// this machine does not have (another machine's, copied from its join line), it is tried on each interface that
    /// is up and has a link-local IPv6 address, in the system's order. Anything else is tried as it is. Throws
    /// `ConnectionError.badAddress`, saying what the address needs, when no interface can reach a link-local address.
    public static func zoned(_ endpoint: Endpoint, interfaces: [InterfaceAddress]) throws -> [Endpoint] {
        let parts = endpoint.host.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        let zone = parts.count > 1 ? String(parts[1]) : ""
        guard let address = ParsedAddress(endpoint.host), address.isIPv6, address.scope == .linkLocal else {
            return [endpoint]
        }
        if !zone.isEmpty, zone.allSatisfy(\.isNumber) || interfaces.contains(where: { $0.interface == zone }) {
            return [endpoint]  // an interface of this machine: as the player wrote it
        }
        var names: [String] = []
        for entry in interfaces where entry.isUp && !entry.isLoopback && entry.family == .ipv6 {
            guard let own = ParsedAddress(entry.address), own.scope == .linkLocal, !names.contains(entry.interface)
            else { continue }
            names.append(entry.interface)
        }
        guard !names.isEmpty else {
            let unknown = zone.isEmpty ? "" : "; '\(zone)' is no interface of this machine"
            throw ConnectionError.badAddress(
                "\(address.text) is a link-local IPv6 address: it is reached through one of this machine's network "
                    + "interfaces (written [\(address.text)%INTERFACE]:\(endpoint.port)), and none is up with IPv6"
                    + unknown + " (see ip addr)")
        }
        return names.map { Endpoint(host: "\(address.text)%\($0)", port: endpoint.port) }
    }
}

/// A numeric IPv4 or IPv6 address, its scope and its canonical text (inet_ntop's: lower case, `::` shortened).
private struct ParsedAddress {
    enum Scope { case routable, linkLocal, loopback, unusable }

    var bytes: [UInt8]
    var isIPv6: Bool { bytes.count == 16 }

    /// Parses a numeric address; a `%scope` is dropped. Nil for anything else (a name).
    init?(_ input: String) {
        let text = input.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? input
        if text.contains(":") {
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            var v4 = in_addr()
            guard inet_pton(AF_INET, text, &v4) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        }
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// An IPv4-mapped IPv6 address (::ffff:a.b.c.d).
    var isMapped: Bool { isIPv6 && bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff }

    /// The IPv4 address of an IPv4-mapped one; itself otherwise.
    var unmapped: ParsedAddress { isMapped ? ParsedAddress(bytes: Array(bytes[12...])) : self }

    var scope: Scope {
        if isIPv6 {
            if isMapped { return .unusable }  // an interface never has one; a bind address is unmapped first
            if bytes[0..<15].allSatisfy({ $0 == 0 }) { return bytes[15] == 1 ? .loopback : .unusable }  // ::1, ::
            if bytes[0] == 0xff { return .unusable }  // multicast
            if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 { return .linkLocal }  // fe80::/10
            return .routable
        }
        switch bytes[0] {
        case 127: return .loopback
        case 0, 224...255: return .unusable  // unspecified ("this network"), multicast, reserved, broadcast
        case 169 where bytes[1] == 254: return .linkLocal
        default: return .routable
        }
    }

    var text: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isIPv6 ? AF_INET6 : AF_INET
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension InterfaceAddress {
    /// This machine's interface addresses now (getifaddrs): IPv4 and IPv6 only, in the system's order.
    public static func current() -> [InterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [InterfaceAddress] = []
        var next: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = next?.pointee {
            next = entry.ifa_next
            guard let name = entry.ifa_name, let socketAddress = entry.ifa_addr else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let family: Family
            switch Int32(socketAddress.pointee.sa_family) {
            case AF_INET:
                family = .ipv4
                var address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                guard inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count)) != nil else { continue }
            case AF_INET6:
                family = .ipv6
                var address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_addr
                }
                guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { continue }
            default:
                continue
            }
            let flags = entry.ifa_flags
            found.append(InterfaceAddress(
                interface: String(cString: name), family: family,
                address: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                isUp: flags & UInt32(IFF_UP) != 0 && flags & UInt32(IFF_RUNNING) != 0,
                isLoopback: flags & UInt32(IFF_LOOPBACK) != 0))
        }
        return found
    }
}
