/// What App Transport Security asks of connections to one destination, and which rule of the manifest says so.
public struct TransportRequirement: Sendable, Hashable {
    /// The rule that decided.
    public enum Rule: Sendable, Hashable {
        /// Loopback: always allowed (tictactoe's rule; nothing leaves the machine).
        case loopback
        /// `NSAllowsArbitraryLoads = true`, in effect: no requirement.
        case arbitraryLoads
        /// `NSAllowsLocalNetworking = true` for an IP address, an unqualified or a `.local` name: no requirement.
        case localNetworking
        /// An `NSExceptionDomains` entry matched: its own requirements, whatever the global keys say.
        case exceptionDomain(ExceptionDomain)
        /// ATS's defaults: TLS 1.2 or later with forward secrecy.
        case defaults
    }

    public var rule: Rule
    public var allowsPlaintext: Bool
    /// The lowest TLS version allowed; nil when any is (ATS does not apply).
    public var minimumTLSVersion: TLSVersion?
    public var requiresForwardSecrecy: Bool

    /// No requirement at all (loopback, arbitrary loads, local networking).
    static func unrestricted(_ rule: Rule) -> TransportRequirement {
        TransportRequirement(rule: rule, allowsPlaintext: true, minimumTLSVersion: nil, requiresForwardSecrecy: false)
    }

    /// ATS's defaults.
    static let defaults = TransportRequirement(
        rule: .defaults, allowsPlaintext: false, minimumTLSVersion: .v1_2, requiresForwardSecrecy: true)

    /// Whether a connection with `security` meets this requirement.
    public func permits(_ security: ConnectionSecurity) -> Bool {
        switch security {
        case .plaintext:
            return allowsPlaintext
        case .tls(let version, let forwardSecrecy):
            if let minimumTLSVersion, version < minimumTLSVersion { return false }
            return forwardSecrecy || !requiresForwardSecrecy
        }
    }
}

extension TransportRequirement.Rule {
    /// The rule's name (JSON, tests): loopback, arbitrary-loads, local-networking, exception-domain, default.
    public var name: String {
        switch self {
        case .loopback: return "loopback"
        case .arbitraryLoads: return "arbitrary-loads"
        case .localNetworking: return "local-networking"
        case .exceptionDomain: return "exception-domain"
        case .defaults: return "default"
        }
    }
}

/// The evaluator's answer for one connection.
public enum TransportSecurityDecision: Sendable, Hashable {
    case allowed(TransportRequirement)
    case refused(TransportSecurityRefusal)
}

extension AppTransportSecurity {
    /// What connections to `destination` must meet. In order: loopback is always allowed; an exception domain that
    /// matches decides alone (Apple: domains in NSExceptionDomains "aren't affected by" NSAllowsArbitraryLoads);
    /// then NSAllowsLocalNetworking = true for IP addresses, unqualified and `.local` names; then
    /// NSAllowsArbitraryLoads = true if it is in effect (not overridden, see `arbitraryLoadsInEffect`); else ATS's
    /// defaults.
    public func requirement(for destination: TransportDestination) -> TransportRequirement {
        if destination.kind == .loopback { return .unrestricted(.loopback) }
        if let domain = exceptionDomain(matching: destination) { return requirement(for: domain) }
        return requirement(forKind: destination.kind)
    }

    /// What connections that `domain` matches must meet (loopback stays always allowed).
    public func requirement(for domain: ExceptionDomain) -> TransportRequirement {
        if domain.kind == .loopback { return .unrestricted(.loopback) }
        return TransportRequirement(
            rule: .exceptionDomain(domain), allowsPlaintext: domain.allowsInsecureLoads,
            minimumTLSVersion: domain.minimumTLSVersion, requiresForwardSecrecy: domain.requiresForwardSecrecy)
    }

    /// The requirement for a kind of destination that no exception domain matches (the rows of `tictactoe manifest`).
    public func requirement(forKind kind: TransportDestination.Kind) -> TransportRequirement {
        switch kind {
        case .loopback:
            return .unrestricted(.loopback)
        case .ipAddress, .unqualifiedName, .localName:
            if allowsLocalNetworking == true { return .unrestricted(.localNetworking) }
        case .domainName:
            break
        }
        return arbitraryLoadsInEffect ? .unrestricted(.arbitraryLoads) : .defaults
    }

    /// The `NSExceptionDomains` entry for `destination`, if any. Names match exactly, or as a subdomain one label
    /// deeper with NSIncludesSubdomains (Apple's documented rule); the exact entry wins. Names are compared without
    /// case and without a trailing dot on either side (Apple matches "example.com." only to a key with the dot; a
    /// trailing dot spells the same DNS name, so tictactoe treats them alike). IP literals match an address entry,
    /// else the range entry with the longest prefix.
    public func exceptionDomain(matching destination: TransportDestination) -> ExceptionDomain? {
        if let name = destination.name, destination.kind != .loopback {
            if let exact = exceptionDomains.first(where: { $0.pattern == .name(name) }) { return exact }
            guard let dot = name.firstIndex(of: ".") else { return nil }
            let parent = String(name[name.index(after: dot)...])
            return exceptionDomains.first { $0.includesSubdomains && $0.pattern == .name(parent) }
        }
        guard let address = destination.address else { return nil }
        if let exact = exceptionDomains.first(where: { $0.pattern == .address(address) }) { return exact }
        var best: (domain: ExceptionDomain, length: Int)?
        for domain in exceptionDomains {
            guard case .range(let network, let length) = domain.pattern, address.isIn(network, prefixLength: length)
            else { continue }
            if best == nil || length > best!.length { best = (domain, length) }
        }
        return best?.domain
    }

    /// Whether a connection to `destination` with `security` may go ahead; a refusal says why and which key of the
    /// manifest at `manifestPath` would allow it.
    public func evaluate(
        _ destination: TransportDestination, security: ConnectionSecurity, manifestPath: String
    ) -> TransportSecurityDecision {
        let requirement = requirement(for: destination)
        if requirement.permits(security) { return .allowed(requirement) }
        return .refused(
            TransportSecurityRefusal(
                destination: destination, security: security, requirement: requirement, manifestPath: manifestPath,
                ignoredArbitraryLoadsBecause: allowsArbitraryLoads == true ? keysOverridingArbitraryLoads : []))
    }
}

extension AppManifest {
    /// The check before a game connection: allowed (with the rule that allowed it), or `TransportSecurityRefusal`
    /// (exit code 14) naming the key of this manifest that would allow it. `host` is what the connection goes to: a
    /// name or an IP literal.
    @discardableResult
    public func checkTransportSecurity(
        to host: String, security: ConnectionSecurity
    ) throws(TransportSecurityRefusal) -> TransportRequirement {
        switch transportSecurity.evaluate(TransportDestination(host: host), security: security, manifestPath: path) {
        case .allowed(let requirement): return requirement
        case .refused(let refusal): throw refusal
        }
    }
}
