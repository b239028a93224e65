#if canImport(Glibc)
import Glibc
#endif

/// Where a game connection goes, classified as App Transport Security sees it (see `AppTransportSecurity`).
public struct TransportDestination: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of destination ATS tells apart, plus loopback (always allowed here).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// 127.0.0.0/8, ::1, ::ffff:127.x.y.z, "localhost" (`Loopback.isLoopback`).
        case loopback
        /// Any other IPv4 or IPv6 literal.
        case ipAddress = "ip-address"
        /// A name without a dot ("gamebox").
        case unqualifiedName = "unqualified-name"
        /// A name in `.local` (multicast DNS: "gamebox.local").
        case localName = "local-name"
        /// Any other DNS name ("games.example.com").
        case domainName = "other-name"

        /// How the kind reads in a row of `tictactoe manifest`.
        public var plural: String {
            switch self {
            case .loopback: return "loopback (127.0.0.0/8, ::1, localhost)"
            case .ipAddress: return "IP addresses"
            case .unqualifiedName: return "unqualified names"
            case .localName: return ".local names"
            case .domainName: return "other names"
            }
        }
    }

    /// The host as given (surrounding brackets removed).
    public let host: String
    public let kind: Kind
    /// For names: lowercased, without a trailing dot. Nil for IP literals.
    public let name: String?
    /// For IP literals (loopback ones included): the address.
    public let address: IPAddress?

    /// Classifies `host`: a name or an IP literal (IPv6 also in brackets or with a "%zone"; IPv4 in any form
    /// getaddrinfo takes as numeric, like "10.1"). Names are compared without case and without a trailing dot.
    public init(host: String) {
        var text = host.trimmingASCIIWhitespace
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        self.host = text
        let address = IPAddress(literal: text)
        self.address = address
        if Loopback.isLoopback(host: text) {
            kind = .loopback
            name = address == nil ? text.lowercased() : nil
            return
        }
        if address != nil {
            kind = .ipAddress
            name = nil
            return
        }
        let normalized = Self.normalize(name: text)
        name = normalized
        if !normalized.contains(".") {
            kind = .unqualifiedName
        } else if normalized.hasSuffix(".local") {
            kind = .localName
        } else {
            kind = .domainName
        }
    }

    /// How the destination reads in a message: "an IP address on the local network", "a .local name", …
    public var kindDescription: String {
        switch kind {
        case .loopback: return "loopback"
        case .ipAddress: return address?.isLocalNetwork == true ? "an IP address on the local network" : "an IP address"
        case .unqualifiedName: return "an unqualified host name"
        case .localName: return "a .local name"
        case .domainName: return "a DNS name"
        }
    }

    public var description: String { host }

    /// A name lowercased, trailing dots removed ("Box.Local." → "box.local").
    static func normalize(name: String) -> String {
        var text = name.lowercased()
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// An IPv4 or IPv6 address as bytes (4 or 16), for matching exception domains and describing destinations.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address.
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            self.bytes = Array(bytes[12...])
        } else {
            self.bytes = bytes
        }
    }

    /// Parses an IP literal: IPv6 (a "%zone" suffix is dropped), or IPv4 as `inet_aton` reads it (what getaddrinfo
    /// takes as numeric: "10.1" is 10.0.0.1). Nil for anything else.
    public init?(literal: String) {
        var text = literal
        if text.contains(":") {
            if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
            self.init(bytes: withUnsafeBytes(of: &v6) { Array($0) })
        } else {
            guard let first = text.first, first.isASCII, first.isNumber,
                text.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "." || $0 == "x" || $0 == "X") })
            else { return nil }
            var v4 = in_addr()
            guard inet_aton(text, &v4) != 0 else { return nil }
            self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) })
        }
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// Whether the first `prefixLength` bits equal `network`'s (same family only).
    public func isIn(_ network: IPAddress, prefixLength: Int) -> Bool {
        guard bytes.count == network.bytes.count, prefixLength >= 0, prefixLength <= bytes.count * 8 else {
            return false
        }
        var remaining = prefixLength
        for (mine, theirs) in zip(bytes, network.bytes) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if mine & mask != theirs & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// Private, link-local and unique-local ranges: 10/8, 172.16/12, 192.168/16, 169.254/16, fe80::/10, fc00::/7.
    public var isLocalNetwork: Bool {
        let ranges: [(String, Int)] =
            isIPv4
            ? [("10.0.0.0", 8), ("172.16.0.0", 12), ("192.168.0.0", 16), ("169.254.0.0", 16)]
            : [("fe80::", 10), ("fc00::", 7)]
        return ranges.contains { text, length in
            IPAddress(literal: text).map { isIn($0, prefixLength: length) } == true
        }
    }

    public var description: String {
        var storage = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isIPv4 ? AF_INET : AF_INET6
        let ok = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &storage, socklen_t(storage.count)) != nil
        }
        guard ok else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: storage.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines (no Foundation here).
    var trimmingASCIIWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
