import GameProtocol

/// A game connection that the manifest's App Transport Security policy forbids (exit code 14). Its text is in the
/// spirit of NSURLErrorAppTransportSecurityRequiresSecureConnection (-1022, "The resource could not be loaded because
/// the App Transport Security policy requires the use of a secure connection"), and names the key of the manifest
/// that would allow the connection, or says that no game can meet the policy.
public struct TransportSecurityRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the connection lacks.
    public enum Failure: Sendable, Hashable {
        /// Plaintext where TLS is required.
        case plaintext
        /// TLS older than the required version.
        case tlsVersion(TLSVersion, required: TLSVersion)
        /// TLS without forward secrecy where it is required.
        case forwardSecrecy
    }

    public let destination: TransportDestination
    public let security: ConnectionSecurity
    public let requirement: TransportRequirement
    /// The manifest whose policy refused.
    public let manifestPath: String
    /// The keys that make ATS ignore `NSAllowsArbitraryLoads = true` (empty when it is not set to true).
    public let ignoredArbitraryLoadsBecause: [String]

    init(
        destination: TransportDestination, security: ConnectionSecurity, requirement: TransportRequirement,
        manifestPath: String, ignoredArbitraryLoadsBecause: [String] = []
    ) {
        self.destination = destination
        self.security = security
        self.requirement = requirement
        self.manifestPath = manifestPath
        self.ignoredArbitraryLoadsBecause = ignoredArbitraryLoadsBecause
    }

    /// What the connection lacks, from its security and the requirement.
    public var failure: Failure {
        switch security {
        case .plaintext:
            return .plaintext
        case .tls(let version, _):
            if let required = requirement.minimumTLSVersion, version < required {
                return .tlsVersion(version, required: required)
            }
            // Otherwise forward secrecy is what is missing (a refusal is made only for a connection its
            // requirement does not permit).
            return .forwardSecrecy
        }
    }

    /// The key (with its value) that would allow this connection, as a phrase: "NSAllowsLocalNetworking = true",
    /// "NSExceptionAllowsInsecureHTTPLoads = true in that entry", "an NSExceptionDomains entry for example.com with
    /// NSExceptionAllowsInsecureHTTPLoads = true".
    public var allowingKey: String {
        let (key, value): (String, String)
        switch failure {
        case .plaintext: (key, value) = (ExceptionDomain.allowsInsecureLoadsKey, "true")
        case .tlsVersion(let version, _): (key, value) = (ExceptionDomain.minimumTLSVersionKey, version.rawValue)
        case .forwardSecrecy: (key, value) = (ExceptionDomain.requiresForwardSecrecyKey, "false")
        }
        if case .exceptionDomain = requirement.rule { return "\(key) = \(value) in that entry" }
        switch destination.kind {
        case .ipAddress, .unqualifiedName, .localName:
            return "\(AppTransportSecurity.allowsLocalNetworkingKey) = true"
        case .loopback, .domainName:
            return "an \(AppTransportSecurity.exceptionDomainsKey) entry for \(destination.name ?? destination.host) "
                + "with \(key) = \(value)"
        }
    }

    public var description: String {
        var context = destination.kindDescription
        if case .exceptionDomain(let domain) = requirement.rule {
            context += ", under the \(AppTransportSecurity.exceptionDomainsKey) entry \"\(domain.key)\""
        }
        let target = "\(destination.host) (\(context))"
        let gameCannotMeet = !requirement.permits(.encryptedGame)
        let whyNoGame: String
        if let required = requirement.minimumTLSVersion, ConnectionSecurity.encryptedGame.isOlder(than: required) {
            whyNoGame = "\(required) or later, and encrypted games use TLS 1.2 (their pre-shared-key cipher suite "
                + "exists only in TLS 1.2)"
        } else {
            whyNoGame = "requirements an encrypted game does not meet"
        }
        var text = "App Transport Security policy "
        switch failure {
        case .plaintext:
            text += "requires a secure connection to \(target)"
        case .tlsVersion(let version, let required):
            text += "requires \(required) or later for connections to \(target)"
            text += gameCannotMeet && security == .encryptedGame
                ? ", which no game can meet: encrypted games use TLS 1.2 (their pre-shared-key cipher suite exists "
                    + "only in TLS 1.2)"
                : ", and this connection uses \(version)"
        case .forwardSecrecy:
            text += "requires forward secrecy for connections to \(target), and this connection (\(security)) has none"
        }
        text += "; the manifest (\(manifestPath)) would allow it with \(allowingKey)"
        if requirement.rule == .defaults, !ignoredArbitraryLoadsBecause.isEmpty {
            let verb = ignoredArbitraryLoadsBecause.count == 1 ? "is" : "are"
            text += " (its \(AppTransportSecurity.allowsArbitraryLoadsKey) = true is ignored because "
                + "\(ignoredArbitraryLoadsBecause.joined(separator: " and ")) \(verb) present)"
        }
        if security != .encryptedGame {
            text += gameCannotMeet
                ? "; an encrypted game would not help: the policy requires \(whyNoGame)"
                : ", or use an encrypted game (protocol 2)"
        }
        return text
    }
}

extension ConnectionSecurity {
    /// Whether this is TLS older than `version` (plaintext is not TLS at all: false).
    public func isOlder(than version: TLSVersion) -> Bool {
        if case .tls(let mine, _) = self { return mine < version }
        return false
    }
}

extension TransportSecurityRefusal: ExitStatusConvertible {
    /// A game connection the manifest's App Transport Security policy refuses ends the run with exit code 14.
    public var exitStatus: ExitStatus { .transportSecurityRefused }
}
