#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a pairing attempt comes from, as `PairingAttempts` counts it: the peer's IP address without its port.
///
/// - An IPv4-mapped IPv6 address (`::ffff:192.0.2.7`, what a dual-stack listener on `::` sees for an IPv4 joiner) is
///   the IPv4 address itself, so one machine is one source whichever socket family carried it.
/// - An IPv6 scope (`fe80::1%eth0`) is ignored: it names the host's own interface, not the peer. Two peers that use
///   the same link-local address on different interfaces then share one source, which only makes the limit stricter.
/// - Every other IPv6 address is its own source (no grouping by /64: on a LAN every machine shares one /64, so
///   grouping would let a stranger's attempts hold back the real joiner). A peer that can use many addresses is
///   bounded by `PairingAttempts`'s limits across all sources, not by this one.
///
/// No name resolution happens here: text is parsed with `inet_pton` only.
public struct AttemptSource: Sendable, Hashable {
    private enum Address: Sendable, Hashable {
        case v4(UInt32)
        case v6(UInt64, UInt64)
    }

    private let address: Address

    private init(address: Address) { self.address = address }

    /// The four bytes of an IPv4 address, in network order.
    public init(ipv4 bytes: (UInt8, UInt8, UInt8, UInt8)) {
        self.init(address: .v4(UInt32(bytes.0) << 24 | UInt32(bytes.1) << 16 | UInt32(bytes.2) << 8 | UInt32(bytes.3)))
    }

    /// The sixteen bytes of an IPv6 address, in network order; an IPv4-mapped address becomes its IPv4 source.
    /// `nil` unless `bytes` has exactly 16 elements.
    public init?(ipv6 bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        guard bytes.count == 16 else { return nil }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            self.init(ipv4: (bytes[12], bytes[13], bytes[14], bytes[15]))
            return
        }
        let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(address: .v6(high, low))
    }

    /// An address as text (`192.0.2.7`, `2001:db8::7`, `::ffff:192.0.2.7`, `fe80::1%eth0`), as NIO's
    /// `SocketAddress.ipAddress` gives it; `nil` when it is not an IP address literal.
    public init?(ipAddress text: String) {
        let withoutScope = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let literal = String(withoutScope)
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            let bytes = withUnsafeBytes(of: &v4) { Array($0) }
            self.init(ipv4: (bytes[0], bytes[1], bytes[2], bytes[3]))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, literal, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        self.init(ipv6: bytes)
    }

    /// Whether this source is an IPv4 address (mapped IPv6 included).
    public var isIPv4: Bool {
        if case .v4 = address { return true }
        return false
    }
}

extension AttemptSource: CustomStringConvertible {
    /// The address in its usual text form (`192.0.2.7`, `2001:db8::7`), without port or scope: what the host shows.
    public var description: String {
        switch address {
        case .v4(let value):
            return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xff) }.joined(separator: ".")
        case .v6(let high, let low):
            var raw = in6_addr()
            withUnsafeMutableBytes(of: &raw) { buffer in
                for index in 0..<8 {
                    buffer[index] = UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * index))
                    buffer[8 + index] = UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * index))
                }
            }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil else { return "?" }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
