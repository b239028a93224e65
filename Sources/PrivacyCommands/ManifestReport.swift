import AppManifest
import LocalNetworkPrivacy
import TextSupport

/// What `tictactoe manifest` shows: what the app manifest declares (display name, usage description, Bonjour service
/// types, App Transport Security, entitlements) and what it means for game connections, with the warnings App Review
/// would raise. Read once (`read(manifest:)`), then printed as text (`text`) or as one JSON object (`json`).
public struct ManifestReport: Sendable, Hashable {
    /// The entitlements beside the manifest (`AppEntitlements`).
    public enum Entitlements: Sendable, Hashable {
        /// No entitlements file at `lookedFor`.
        case none(lookedFor: String)
        case declared(AppEntitlements)
        /// The file is there but cannot be used: why.
        case unusable(path: String, error: String)
    }

    /// One `NSBonjourServices` entry and what is wrong with it (nil: well-formed).
    public struct ServiceType: Sendable, Hashable {
        public let serviceType: String
        public let problem: String?
    }

    /// What game connections to one kind of destination, or to one exception domain, must meet.
    public struct Destination: Sendable, Hashable {
        /// The kind (for an exception domain: the kind its key names).
        public let kind: TransportDestination.Kind?
        /// The exception domain, for its rows.
        public let exceptionDomain: ExceptionDomain?
        public let requirement: TransportRequirement

        /// Whether a plaintext game (protocol 1) may connect.
        public var plaintextGame: Bool { requirement.permits(.plaintextGame) }
        /// Whether an encrypted game (protocol 2: TLS 1.2 with forward secrecy) may connect.
        public var encryptedGame: Bool { requirement.permits(.encryptedGame) }
    }

    public let manifest: AppManifest
    public let entitlements: Entitlements

    public init(manifest: AppManifest, entitlements: Entitlements) {
        self.manifest = manifest
        self.entitlements = entitlements
    }

    /// The report of `manifest`, with the entitlements beside it.
    public static func read(manifest: AppManifest) -> ManifestReport {
        let entitlements: Entitlements
        do {
            if let loaded = try AppEntitlements.load(besideManifest: manifest.path) {
                entitlements = .declared(loaded)
            } else {
                entitlements = .none(lookedFor: AppEntitlements.path(besideManifest: manifest.path))
            }
        } catch {
            entitlements = .unusable(path: AppEntitlements.path(besideManifest: manifest.path), error: "\(error)")
        }
        return ManifestReport(manifest: manifest, entitlements: entitlements)
    }

    public var serviceTypes: [ServiceType] {
        manifest.bonjourServices.map { ServiceType(serviceType: $0, problem: AppManifest.serviceTypeProblem($0)) }
    }

    /// One row per kind of destination (loopback, IP addresses, unqualified, `.local` and other names), then one
    /// per exception domain.
    public var destinations: [Destination] {
        let policy = manifest.transportSecurity
        let kinds = TransportDestination.Kind.allCases.map {
            Destination(kind: $0, exceptionDomain: nil, requirement: policy.requirement(forKind: $0))
        }
        let domains = policy.exceptionDomains.map { domain in
            Destination(kind: domain.kind, exceptionDomain: domain, requirement: policy.requirement(for: domain))
        }
        return kinds + domains
    }

    /// What App Review (and tictactoe) would point out, one sentence each.
    public var warnings: [String] {
        var warnings: [String] = []
        if manifest.usageDescription == nil {
            warnings.append(
                "NSLocalNetworkUsageDescription is missing: the local network prompt shows a generic reason, and App "
                    + "Review expects the app to say why it uses the local network")
        }
        if manifest.bonjourServices.isEmpty {
            warnings.append(
                "NSBonjourServices declares no service type: browsing and advertising fail with NoAuth (-65555)")
        }
        for service in serviceTypes {
            if let problem = service.problem {
                warnings.append("NSBonjourServices entry \"\(service.serviceType)\" is malformed: \(problem)")
            }
        }
        warnings += transportSecurityWarnings
        if case .unusable(_, let error) = entitlements { warnings.append("entitlements: \(error)") }
        return warnings
    }

    private var transportSecurityWarnings: [String] {
        let policy = manifest.transportSecurity
        var warnings: [String] = []
        if policy.allowsArbitraryLoads == true {
            var text = "NSAllowsArbitraryLoads = true turns App Transport Security off for every destination "
                + "without an exception domain: App Review asks for a justification; prefer NSAllowsLocalNetworking "
                + "or an NSExceptionDomains entry"
            let overriding = policy.keysOverridingArbitraryLoads
            if !overriding.isEmpty {
                text += " (here it is ignored: \(overriding.joined(separator: " and ")) "
                    + "\(overriding.count == 1 ? "is" : "are") present)"
            }
            warnings.append(text)
        }
        for domain in policy.exceptionDomains {
            let entry = "NSExceptionDomains entry \"\(domain.key)\""
            if domain.allowsInsecureLoads {
                warnings.append(
                    "\(entry): NSExceptionAllowsInsecureHTTPLoads = true allows plaintext: an ATS exception that "
                        + "App Review may ask you to justify")
            }
            if domain.minimumTLSVersion < .v1_2 {
                warnings.append(
                    "\(entry): NSExceptionMinimumTLSVersion = \(domain.minimumTLSVersion.rawValue) is below TLS 1.2: "
                        + "App Review asks for a justification")
            }
            if ConnectionSecurity.encryptedGame.isOlder(than: domain.minimumTLSVersion) {
                warnings.append(
                    "\(entry): NSExceptionMinimumTLSVersion = \(domain.minimumTLSVersion.rawValue) cannot be met by an "
                        + "encrypted game, which uses TLS 1.2 (its pre-shared-key cipher suite exists only in TLS 1.2)")
            }
            if domain.kind == .loopback {
                warnings.append("\(entry) has no effect: loopback is always allowed")
            }
            if domain.includesSubdomains, domain.kind == .ipAddress {
                warnings.append("\(entry): NSIncludesSubdomains has no meaning for an IP address or range (ignored)")
            }
        }
        for key in policy.ignoredKeys {
            warnings.append("NSAppTransportSecurity: tictactoe does not use \(key) (ignored)")
        }
        return warnings
    }
}

extension ManifestReport: Encodable {
    /// `manifest --json`: one object, keys sorted (see `manifest --help` for the list).
    /// Throws what `JSONLine.encode` throws.
    public func json() throws -> String { try JSONLine.encode(self) }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode(manifest.path, forKey: "manifest_path")
        try object.encode(manifest.displayName, forKey: "display_name")
        try object.encodeOrNull(manifest.usageDescription, forKey: "usage_description")
        try object.encode(manifest.usesDefaultUsageDescription, forKey: "usage_description_missing")
        try object.encode(serviceTypes.map(JSONServiceType.init), forKey: "bonjour_services")
        try object.encode(JSONTransportSecurity(manifest.transportSecurity), forKey: "transport_security")
        try object.encode(destinations.map(JSONDestination.init), forKey: "game_connections")
        switch entitlements {
        case .none(let path):
            try object.encode(path, forKey: "entitlements_file")
            try object.encodeNil(forKey: "entitlements")
            try object.encodeNil(forKey: "entitlements_error")
        case .declared(let loaded):
            try object.encode(loaded.path, forKey: "entitlements_file")
            try object.encode(JSONEntitlements(loaded), forKey: "entitlements")
            try object.encodeNil(forKey: "entitlements_error")
        case .unusable(let path, let error):
            try object.encode(path, forKey: "entitlements_file")
            try object.encodeNil(forKey: "entitlements")
            try object.encode(error, forKey: "entitlements_error")
        }
        try object.encode(warnings, forKey: "warnings")
    }
}

private struct JSONServiceType: Encodable {
    let service: ManifestReport.ServiceType
    init(_ service: ManifestReport.ServiceType) { self.service = service }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode(service.serviceType, forKey: "service_type")
        try object.encode(service.problem == nil, forKey: "valid")
        try object.encodeOrNull(service.problem, forKey: "problem")
    }
}

private struct JSONTransportSecurity: Encodable {
    let policy: AppTransportSecurity
    init(_ policy: AppTransportSecurity) { self.policy = policy }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode(policy.isDeclared, forKey: "declared")
        try object.encodeOrNull(policy.allowsArbitraryLoads, forKey: "allows_arbitrary_loads")
        try object.encode(policy.arbitraryLoadsInEffect, forKey: "allows_arbitrary_loads_in_effect")
        try object.encodeOrNull(policy.allowsLocalNetworking, forKey: "allows_local_networking")
        try object.encodeOrNull(
            policy.allowsArbitraryLoadsInWebContent, forKey: "allows_arbitrary_loads_in_web_content")
        try object.encodeOrNull(policy.allowsArbitraryLoadsForMedia, forKey: "allows_arbitrary_loads_for_media")
        try object.encode(policy.exceptionDomains.map(JSONExceptionDomain.init), forKey: "exception_domains")
        try object.encode(policy.ignoredKeys, forKey: "ignored_keys")
    }
}

private struct JSONExceptionDomain: Encodable {
    let domain: ExceptionDomain
    init(_ domain: ExceptionDomain) { self.domain = domain }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode(domain.key, forKey: "domain")
        try object.encode(domain.includesSubdomains, forKey: "includes_subdomains")
        try object.encode(domain.allowsInsecureLoads, forKey: "allows_insecure_loads")
        try object.encode(domain.minimumTLSVersion.rawValue, forKey: "minimum_tls_version")
        try object.encode(domain.requiresForwardSecrecy, forKey: "requires_forward_secrecy")
    }
}

private struct JSONDestination: Encodable {
    let row: ManifestReport.Destination
    init(_ row: ManifestReport.Destination) { self.row = row }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode(row.exceptionDomain == nil ? row.kind?.rawValue : "exception-domain", forKey: "destination")
        try object.encodeOrNull(row.exceptionDomain?.key, forKey: "domain")
        try object.encode(row.requirement.rule.name, forKey: "rule")
        try object.encode(row.requirement.allowsPlaintext, forKey: "plaintext_allowed")
        try object.encodeOrNull(row.requirement.minimumTLSVersion?.rawValue, forKey: "minimum_tls_version")
        try object.encode(row.requirement.requiresForwardSecrecy, forKey: "forward_secrecy_required")
        try object.encode(row.plaintextGame, forKey: "plaintext_game")
        try object.encode(row.encryptedGame, forKey: "encrypted_game")
    }
}

private struct JSONEntitlements: Encodable {
    let entitlements: AppEntitlements
    init(_ entitlements: AppEntitlements) { self.entitlements = entitlements }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        for entry in entitlements.entries { try object.encode(entry.value, forKey: JSONKey(entry.key)) }
    }
}
