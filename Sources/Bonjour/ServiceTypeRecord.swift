/// A service type advertised on the local network, as the service-type enumeration (RFC 6763 §9) names it: the PTR
/// records of `_services._dns-sd._udp.local` point at names like `_http._tcp.local.`.
public struct ServiceType: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The type's two labels, e.g. `_http._tcp` (dots and backslashes inside a label escaped as `\.` and `\\`).
    public let name: String
    /// The domain, e.g. `local.`.
    public let domain: String

    public init(name: String, domain: String = GameService.domain) {
        self.name = name
        self.domain = domain
    }

    /// The whole name, e.g. `_http._tcp.local.`.
    public var fullName: String { "\(name).\(domain)" }

    public var description: String { fullName }

    /// By name, then domain (ASCII case first: mDNS names compare without case, but two spellings stay apart here
    /// as they came).
    public static func < (lhs: ServiceType, rhs: ServiceType) -> Bool {
        (lhs.name.lowercased(), lhs.name, lhs.domain) < (rhs.name.lowercased(), rhs.name, rhs.domain)
    }
}

/// Reads the record data of a PTR answer: a DNS name in wire format (RFC 1035 §3.1), as `DNSServiceQueryRecord`'s
/// callback hands it over (uncompressed: dns_sd expands names before it calls back). Pure.
public enum PTRRecord {
    /// The longest name DNS allows, in wire bytes.
    public static let maximumNameLength = 255
    /// The longest label.
    public static let maximumLabelLength = 63

    /// The labels of the name in `rdata` (without the root's empty label), or nil when the data is not exactly one
    /// well-formed name: a label longer than 63 bytes, a length running past the end, a compression pointer (a
    /// length byte with its top bits set: never in a callback's data), bytes after the root label, no root label,
    /// or more than 255 bytes.
    public static func labels(_ rdata: [UInt8]) -> [[UInt8]]? {
        guard !rdata.isEmpty, rdata.count <= maximumNameLength else { return nil }
        var labels: [[UInt8]] = []
        var index = 0
        while index < rdata.count {
            let length = Int(rdata[index])
            index += 1
            if length == 0 {
                return index == rdata.count ? labels : nil  // the root ends the name: nothing may follow
            }
            guard length <= maximumLabelLength, index + length <= rdata.count else { return nil }
            labels.append(Array(rdata[index..<(index + length)]))
            index += length
        }
        return nil  // no root label
    }

    /// The service type a PTR of `_services._dns-sd._udp.DOMAIN` points at: its first two labels are the type and
    /// the rest the domain, e.g. `_http._tcp` in `local.`. Nil for malformed data (see `labels`), a name of fewer
    /// than three labels, an empty label, or a label that is not UTF-8.
    public static func serviceType(_ rdata: [UInt8]) -> ServiceType? {
        guard let labels = labels(rdata), labels.count >= 3 else { return nil }
        var texts: [String] = []
        for label in labels {
            guard !label.isEmpty, let text = String(validating: label, as: UTF8.self) else { return nil }
            texts.append(escaped(text))
        }
        return ServiceType(name: texts[0] + "." + texts[1], domain: texts[2...].joined(separator: ".") + ".")
    }

    /// A label as DNS-SD writes it in a name: `.` and `\` escaped with a backslash, control characters as `\DDD`.
    static func escaped(_ label: String) -> String {
        var result = ""
        for scalar in label.unicodeScalars {
            switch scalar {
            case ".", "\\": result += "\\" + String(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let digits = String(scalar.value)
                result += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
