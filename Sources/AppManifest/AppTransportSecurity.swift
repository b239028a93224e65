/// App Transport Security (ATS) as the manifest declares it: the `NSAppTransportSecurity` dictionary of an iOS
/// app's Info.plist. Apple's pages are under
/// https://developer.apple.com/documentation/bundleresources/information-property-list/ (written "…/" below).
///
/// Apple applies ATS to URL loading (URLSession and what is built on it), not to raw sockets. tictactoe deliberately
/// applies the same rules to every outgoing game connection: `evaluate(_:security:manifestPath:)` (in
/// AppTransportSecurity+Evaluation.swift) says whether a connection to a destination with a given security may go
/// ahead. The keys, with Apple's meaning (…/nsapptransportsecurity and the page of each key):
///
/// - `NSAllowsArbitraryLoads`: turns ATS off for every destination not in `NSExceptionDomains` ("Domains you specify
///   in that dictionary aren't affected by this key's value"; App Review asks for a justification). On iOS 10 and
///   later its value is ignored when `NSAllowsLocalNetworking`, `NSAllowsArbitraryLoadsInWebContent` or
///   `NSAllowsArbitraryLoadsForMedia` is present, whatever their values: "if you include this key with any value,
///   then App Transport Security ignores the value of NSAllowsArbitraryLoads"
///   (…/nsapptransportsecurity/nsallowsarbitraryloadsinwebcontent); rdar://29553627 (openradar.appspot.com) shows the
///   same for `NSAllowsLocalNetworking` on iOS 10.1.1 (a -1022 error to a plain http URL with both keys true).
/// - `NSAllowsLocalNetworking`: allows connections to "unqualified domains, `.local` domains, and IP addresses using
///   IPv4 or IPv6" without ATS's requirements (…/nsapptransportsecurity/nsallowslocalnetworking). Apple's page goes
///   on to describe how the default for these destinations changed between iOS versions; tictactoe takes one fixed
///   reading, the issue's: without `NSAllowsLocalNetworking = true` they get ATS's requirements like any other name.
/// - `NSExceptionDomains`: per domain (a DNS name; since iOS 17 also an IP address or a CIDR range), a dictionary
///   that replaces the global keys for that domain: `NSIncludesSubdomains` (default NO),
///   `NSExceptionAllowsInsecureHTTPLoads` (plaintext allowed; "Using only this key also doesn't change the TLS or
///   forward secrecy requirements"),
///   `NSExceptionMinimumTLSVersion` (default TLSv1.2) and `NSExceptionRequiresForwardSecrecy` (default YES: "limits
///   the accepted ciphers to those that support PFS through Elliptic Curve Diffie-Hellman Ephemeral (ECDHE) key
///   exchange") (…/nsapptransportsecurity/nsexceptiondomains and the pages of each key).
/// - `NSAllowsArbitraryLoadsInWebContent`, `NSAllowsArbitraryLoadsForMedia`: web views and AV Foundation media, which
///   tictactoe has none of: read, reported as not applicable, and counted only for the rule above.
///
/// Without the dictionary ATS's defaults apply everywhere: TLS 1.2 or later with forward secrecy, no plaintext.
/// Loopback is always allowed (a tictactoe rule: nothing leaves the machine).
public struct AppTransportSecurity: Sendable, Hashable {
    /// Whether the manifest has an `NSAppTransportSecurity` dictionary at all.
    public var isDeclared: Bool
    /// `NSAllowsArbitraryLoads` as written (nil: absent).
    public var allowsArbitraryLoads: Bool?
    /// `NSAllowsLocalNetworking` as written (nil: absent).
    public var allowsLocalNetworking: Bool?
    /// `NSAllowsArbitraryLoadsInWebContent` as written (nil: absent). Not applicable to tictactoe.
    public var allowsArbitraryLoadsInWebContent: Bool?
    /// `NSAllowsArbitraryLoadsForMedia` as written (nil: absent). Not applicable to tictactoe.
    public var allowsArbitraryLoadsForMedia: Bool?
    /// `NSExceptionDomains`, sorted by their key.
    public var exceptionDomains: [ExceptionDomain]
    /// Keys in the dictionary (or in an exception domain's) that tictactoe does not use, as "KEY" or
    /// "DOMAIN: KEY" (`NSPinnedDomains`, the old `NSTemporaryException…` spellings, misspellings): ignored, reported.
    public var ignoredKeys: [String]

    /// The dictionary's top-level keys that tictactoe reads.
    public static let allowsArbitraryLoadsKey = "NSAllowsArbitraryLoads"
    public static let allowsLocalNetworkingKey = "NSAllowsLocalNetworking"
    public static let allowsArbitraryLoadsInWebContentKey = "NSAllowsArbitraryLoadsInWebContent"
    public static let allowsArbitraryLoadsForMediaKey = "NSAllowsArbitraryLoadsForMedia"
    public static let exceptionDomainsKey = "NSExceptionDomains"

    /// A manifest without `NSAppTransportSecurity`: ATS's defaults.
    public static let undeclared = AppTransportSecurity()

    public init(
        isDeclared: Bool = false, allowsArbitraryLoads: Bool? = nil, allowsLocalNetworking: Bool? = nil,
        allowsArbitraryLoadsInWebContent: Bool? = nil, allowsArbitraryLoadsForMedia: Bool? = nil,
        exceptionDomains: [ExceptionDomain] = [], ignoredKeys: [String] = []
    ) {
        self.isDeclared = isDeclared
        self.allowsArbitraryLoads = allowsArbitraryLoads
        self.allowsLocalNetworking = allowsLocalNetworking
        self.allowsArbitraryLoadsInWebContent = allowsArbitraryLoadsInWebContent
        self.allowsArbitraryLoadsForMedia = allowsArbitraryLoadsForMedia
        self.exceptionDomains = exceptionDomains.sorted { $0.key < $1.key }
        self.ignoredKeys = ignoredKeys
    }

    /// The keys present that make ATS ignore `NSAllowsArbitraryLoads` (iOS 10 and later), in Apple's order.
    public var keysOverridingArbitraryLoads: [String] {
        var keys: [String] = []
        if allowsLocalNetworking != nil { keys.append(Self.allowsLocalNetworkingKey) }
        if allowsArbitraryLoadsInWebContent != nil { keys.append(Self.allowsArbitraryLoadsInWebContentKey) }
        if allowsArbitraryLoadsForMedia != nil { keys.append(Self.allowsArbitraryLoadsForMediaKey) }
        return keys
    }

    /// `NSAllowsArbitraryLoads = true` and not overridden: ATS is off for destinations without an exception domain.
    public var arbitraryLoadsInEffect: Bool {
        allowsArbitraryLoads == true && keysOverridingArbitraryLoads.isEmpty
    }
}

/// One entry of `NSExceptionDomains`.
public struct ExceptionDomain: Sendable, Hashable {
    /// What the entry's key names.
    public enum Pattern: Sendable, Hashable {
        /// A DNS name, lowercased, without a trailing dot.
        case name(String)
        /// One IP address (iOS 17 and later).
        case address(IPAddress)
        /// A CIDR range ("192.168.42.0/24", "2001:db8:12::/48"; iOS 17 and later).
        case range(IPAddress, prefixLength: Int)
    }

    /// The key as written in the manifest.
    public var key: String
    public var pattern: Pattern
    /// `NSIncludesSubdomains` (default NO). For names only: Apple applies the entry to "all subdomains of the domain
    /// that have one additional path component" ("math.example.com" for "example.com", but not
    /// "advanced.math.example.com"; …/nsincludessubdomains).
    public var includesSubdomains: Bool
    /// `NSExceptionAllowsInsecureHTTPLoads` (default NO): plaintext allowed. TLS connections still meet the entry's
    /// TLS version and forward secrecy requirements.
    public var allowsInsecureLoads: Bool
    /// `NSExceptionMinimumTLSVersion` (default TLSv1.2).
    public var minimumTLSVersion: TLSVersion
    /// `NSExceptionRequiresForwardSecrecy` (default YES).
    public var requiresForwardSecrecy: Bool

    public static let includesSubdomainsKey = "NSIncludesSubdomains"
    public static let allowsInsecureLoadsKey = "NSExceptionAllowsInsecureHTTPLoads"
    public static let minimumTLSVersionKey = "NSExceptionMinimumTLSVersion"
    public static let requiresForwardSecrecyKey = "NSExceptionRequiresForwardSecrecy"

    public init(
        key: String, pattern: Pattern, includesSubdomains: Bool = false, allowsInsecureLoads: Bool = false,
        minimumTLSVersion: TLSVersion = .v1_2, requiresForwardSecrecy: Bool = true
    ) {
        self.key = key
        self.pattern = pattern
        self.includesSubdomains = includesSubdomains
        self.allowsInsecureLoads = allowsInsecureLoads
        self.minimumTLSVersion = minimumTLSVersion
        self.requiresForwardSecrecy = requiresForwardSecrecy
    }

    /// The kind of destination the entry's key names (an address or a range: IP addresses).
    public var kind: TransportDestination.Kind {
        switch pattern {
        case .address(let address): return TransportDestination(host: address.description).kind
        case .range: return .ipAddress
        case .name(let name): return TransportDestination(host: name).kind
        }
    }
}

/// A TLS protocol version, spelled as `NSExceptionMinimumTLSVersion` spells it.
public enum TLSVersion: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case v1_0 = "TLSv1.0"
    case v1_1 = "TLSv1.1"
    case v1_2 = "TLSv1.2"
    case v1_3 = "TLSv1.3"

    /// "TLS 1.2".
    public var description: String { "TLS " + rawValue.dropFirst("TLSv".count) }

    public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// The security of a game connection, as the evaluator weighs it.
public enum ConnectionSecurity: Sendable, Hashable, CustomStringConvertible {
    /// No encryption: protocol 1.
    case plaintext
    /// TLS of a version, with or without forward secrecy (an ephemeral key exchange).
    case tls(TLSVersion, forwardSecrecy: Bool)

    /// A plaintext game (protocol 1).
    public static let plaintextGame = ConnectionSecurity.plaintext
    /// An encrypted game (protocol 2): TLS 1.2 with ECDHE-PSK-CHACHA20-POLY1305, so forward secrecy from its
    /// ephemeral ECDHE. Pre-shared-key cipher suites of this kind are TLS 1.2 ones, so a game never offers TLS 1.3.
    public static let encryptedGame = ConnectionSecurity.tls(.v1_2, forwardSecrecy: true)

    public var description: String {
        switch self {
        case .plaintext: return "plaintext"
        case .tls(let version, true): return "\(version) with forward secrecy"
        case .tls(let version, false): return "\(version) without forward secrecy"
        }
    }
}
