/// Why an `NSAppTransportSecurity` dictionary cannot be used; `reason` names the key (the manifest error says which
/// file).
public struct TransportSecurityParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

extension AppTransportSecurity {
    /// Reads the value of the manifest's `NSAppTransportSecurity` key (nil: absent, so ATS's defaults). Wrong value
    /// types, an exception domain key that is not a DNS name, IP address or CIDR range, and unknown
    /// `NSExceptionMinimumTLSVersion` strings are errors naming the key; keys tictactoe does not use are kept in
    /// `ignoredKeys`.
    public init(plistValue: PropertyValue?) throws(TransportSecurityParseError) {
        guard let plistValue else {
            self = .undeclared
            return
        }
        let top = "NSAppTransportSecurity"
        guard let dictionary = plistValue.dictionary else { throw .init(reason: "\(top) must be a <dict>") }
        var ignored: [String] = []
        func bool(_ key: String) throws(TransportSecurityParseError) -> Bool? {
            try Self.bool(dictionary[key], key: "\(key) (in \(top))")
        }
        let arbitrary = try bool(Self.allowsArbitraryLoadsKey)
        let local = try bool(Self.allowsLocalNetworkingKey)
        let web = try bool(Self.allowsArbitraryLoadsInWebContentKey)
        let media = try bool(Self.allowsArbitraryLoadsForMediaKey)
        var domains: [ExceptionDomain] = []
        if let value = dictionary[Self.exceptionDomainsKey] {
            guard let entries = value.dictionary else {
                throw .init(reason: "\(Self.exceptionDomainsKey) (in \(top)) must be a <dict> of domains")
            }
            for key in entries.keys.sorted() {
                let (domain, unknown) = try ExceptionDomain.parse(key: key, value: entries[key]!)
                domains.append(domain)
                ignored += unknown.map { "\(Self.exceptionDomainsKey) \"\(key)\": \($0)" }
            }
        }
        let known: Set = [
            Self.allowsArbitraryLoadsKey, Self.allowsLocalNetworkingKey, Self.allowsArbitraryLoadsInWebContentKey,
            Self.allowsArbitraryLoadsForMediaKey, Self.exceptionDomainsKey,
        ]
        ignored = dictionary.keys.filter { !known.contains($0) }.sorted() + ignored
        self.init(
            isDeclared: true, allowsArbitraryLoads: arbitrary, allowsLocalNetworking: local,
            allowsArbitraryLoadsInWebContent: web, allowsArbitraryLoadsForMedia: media, exceptionDomains: domains,
            ignoredKeys: ignored)
    }

    /// A property list Boolean (`<true/>` or `<false/>`), or nil when absent. An `<integer>` or `<string>` is an
    /// error.
    static func bool(_ value: PropertyValue?, key: String) throws(TransportSecurityParseError) -> Bool? {
        guard let value else { return nil }
        if case .bool(let flag) = value { return flag }
        throw .init(reason: "\(key) must be <true/> or <false/>, not \(value.plistDescription)")
    }
}

extension ExceptionDomain {
    static let knownKeys: Set = [
        includesSubdomainsKey, allowsInsecureLoadsKey, minimumTLSVersionKey, requiresForwardSecrecyKey,
    ]

    /// One `NSExceptionDomains` entry, and the keys in it that tictactoe does not use.
    static func parse(
        key: String, value: PropertyValue
    ) throws(TransportSecurityParseError) -> (ExceptionDomain, [String]) {
        let entry = "the exception domain \"\(key)\" (in NSAppTransportSecurity's NSExceptionDomains)"
        let pattern = try pattern(of: key, entry: entry)
        guard let dictionary = value.dictionary else { throw .init(reason: "\(entry) must be a <dict>") }
        func bool(_ name: String) throws(TransportSecurityParseError) -> Bool? {
            try AppTransportSecurity.bool(dictionary[name], key: "\(name) of \(entry)")
        }
        var version = TLSVersion.v1_2
        if let raw = dictionary[minimumTLSVersionKey] {
            let allowed = TLSVersion.allCases.map(\.rawValue).joined(separator: ", ")
            guard let text = raw.string else {
                throw .init(
                    reason: "\(minimumTLSVersionKey) of \(entry) must be a <string> (one of \(allowed)), not "
                        + raw.plistDescription)
            }
            guard let parsed = TLSVersion(rawValue: text) else {
                throw .init(reason: "\(minimumTLSVersionKey) of \(entry) must be one of \(allowed), not \"\(text)\"")
            }
            version = parsed
        }
        let domain = ExceptionDomain(
            key: key, pattern: pattern, includesSubdomains: try bool(includesSubdomainsKey) ?? false,
            allowsInsecureLoads: try bool(allowsInsecureLoadsKey) ?? false, minimumTLSVersion: version,
            requiresForwardSecrecy: try bool(requiresForwardSecrecyKey) ?? true)
        return (domain, dictionary.keys.filter { !knownKeys.contains($0) }.sorted())
    }

    /// A DNS name, an IP address or a CIDR range, as Apple's rules for the key allow: no port, no wildcard, no
    /// scheme or path (…/nsapptransportsecurity/nsexceptiondomains, see `AppTransportSecurity`).
    static func pattern(of key: String, entry: String) throws(TransportSecurityParseError) -> Pattern {
        if key.isEmpty || key.trimmingASCIIWhitespace != key || key.contains(" ") {
            throw .init(reason: "\(entry) is not a domain name: it is empty or has spaces")
        }
        if let slash = key.firstIndex(of: "/") {
            let network = String(key[..<slash])
            let length = String(key[key.index(after: slash)...])
            guard let address = IPAddress(literal: network) else {
                throw .init(reason: "\(entry) is not a domain name (no \"/\", scheme or path) nor a CIDR range")
            }
            guard let prefix = Int(length), prefix >= 0, prefix <= address.bytes.count * 8,
                length.allSatisfy({ $0.isASCII && $0.isNumber })
            else {
                throw .init(reason: "\(entry) has a bad prefix length: use 0–\(address.bytes.count * 8)")
            }
            return .range(address, prefixLength: prefix)
        }
        if let address = IPAddress(literal: key) { return .address(address) }
        if key.contains(":") { throw .init(reason: "\(entry) must not include a port (write the name alone)") }
        if key.contains("*") {
            throw .init(reason: "\(entry) must not be a wildcard: write the domain and set NSIncludesSubdomains")
        }
        let normalized = TransportDestination.normalize(name: key)
        guard !normalized.isEmpty, !normalized.hasPrefix("."), !normalized.contains("..") else {
            throw .init(reason: "\(entry) is not a domain name")
        }
        return .name(normalized)
    }
}
