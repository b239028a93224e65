import AppManifest
import GameProtocol
import LocalNetworkPrivacy
import Localization
import PrivacyCommands
import TextSupport

extension ManifestReport {
    /// `tictactoe manifest`: what the manifest declares, App Transport Security key by key, what that means for game
    /// connections by destination, and the warnings.
    public var text: String {
        var lines = [tr("App manifest %@", manifest.path)]
        func row(_ label: String, _ text: String, width: Int = 20) {
            // The label is an English literal of this file, looked up like every message; padded by terminal columns.
            lines.append("  " + DisplayWidth.padded(tr("%@:", tr(label)), to: width) + text)
        }
        row("app", manifest.displayName)
        row(
            "usage description",
            manifest.usageDescription ?? "(missing: the prompt shows \"\(AppManifest.defaultUsageDescription)\")")
        row(
            "Bonjour services",
            serviceTypes.isEmpty
                ? "(none declared: browsing and advertising fail with NoAuth)"
                : serviceTypes.map { $0.problem == nil ? $0.serviceType : "\($0.serviceType) (malformed)" }
                    .joined(separator: ", "))
        switch entitlements {
        case .none(let path): row("entitlements", "none declared (no \(path))")
        case .unusable(let path, _): row("entitlements", "unusable: \(path) (see the warnings)")
        case .declared(let loaded):
            row("entitlements", loaded.entries.isEmpty ? "none declared (\(loaded.path) is empty)" : loaded.path)
            for entry in loaded.entries { lines.append("    \(entry.key) = \(entry.value)") }
        }

        let policy = manifest.transportSecurity
        lines.append(
            "App Transport Security (NSAppTransportSecurity): "
                + (policy.isDeclared ? "declared" : "not declared, so ATS's defaults apply"))
        func flag(_ value: Bool?) -> String { value.map { $0 ? "true" : "false" } ?? "not set" }
        let keyWidth = 36
        var arbitrary = flag(policy.allowsArbitraryLoads)
        if policy.allowsArbitraryLoads == true, !policy.keysOverridingArbitraryLoads.isEmpty {
            let keys = policy.keysOverridingArbitraryLoads
            arbitrary += " (ignored: \(keys.joined(separator: " and ")) \(keys.count == 1 ? "is" : "are") present)"
        }
        row(AppTransportSecurity.allowsArbitraryLoadsKey, arbitrary, width: keyWidth)
        row(AppTransportSecurity.allowsLocalNetworkingKey, flag(policy.allowsLocalNetworking), width: keyWidth)
        row(
            AppTransportSecurity.allowsArbitraryLoadsInWebContentKey,
            flag(policy.allowsArbitraryLoadsInWebContent) + " (not applicable: tictactoe has no web views)",
            width: keyWidth)
        row(
            AppTransportSecurity.allowsArbitraryLoadsForMediaKey,
            flag(policy.allowsArbitraryLoadsForMedia) + " (not applicable: tictactoe loads no media)",
            width: keyWidth)
        if policy.exceptionDomains.isEmpty {
            row(AppTransportSecurity.exceptionDomainsKey, "none", width: keyWidth)
        } else {
            lines.append("  \(AppTransportSecurity.exceptionDomainsKey):")
            for domain in policy.exceptionDomains { lines.append("    \(domain.key): \(domain.keysText)") }
        }

        lines.append(
            "Game connections (plaintext: protocol 1; encrypted: protocol 2, TLS 1.2 with forward secrecy):")
        for destination in destinations {
            lines.append("  \(destination.label): \(destination.verdict) (\(destination.requirement.summary))")
        }

        let warnings = warnings
        lines.append(warnings.isEmpty ? "Warnings: none" : "Warnings (as App Review would raise them):")
        lines += warnings.map { "  - " + $0 }
        return lines.joined(separator: "\n")
    }
}

extension ManifestReport.Destination {
    /// "IP addresses", "example.com and the names one level below it", "192.168.0.0/16".
    public var label: String {
        guard let domain = exceptionDomain else { return kind?.plural ?? "" }
        if domain.includesSubdomains, case .name = domain.pattern {
            return "\(domain.key) and the names one level below it"
        }
        return domain.key
    }

    /// Which games may connect.
    public var verdict: String {
        switch (plaintextGame, encryptedGame) {
        case (true, true): return "plaintext and encrypted games"
        case (false, true): return "encrypted games only"
        case (true, false): return "plaintext games only"
        case (false, false): return "no game"
        }
    }
}

extension TransportRequirement {
    /// Why: the rule and what it asks.
    public var summary: String {
        switch rule {
        case .loopback: return "loopback is always allowed"
        case .arbitraryLoads: return "NSAllowsArbitraryLoads = true: no requirement"
        case .localNetworking: return "NSAllowsLocalNetworking = true: no requirement"
        case .defaults: return "ATS default: \(tlsText)"
        case .exceptionDomain:
            return "NSExceptionDomains: " + (allowsPlaintext ? "plaintext allowed, or " : "") + tlsText
        }
    }

    private var tlsText: String {
        let version = minimumTLSVersion.map { "\($0) or later" } ?? "any TLS"
        return version + (requiresForwardSecrecy ? " with forward secrecy" : ", forward secrecy not required")
    }
}

extension ExceptionDomain {
    /// The entry's keys that differ from their defaults, or "(defaults: …)".
    var keysText: String {
        var keys: [String] = []
        if includesSubdomains { keys.append("\(Self.includesSubdomainsKey) = true") }
        if allowsInsecureLoads { keys.append("\(Self.allowsInsecureLoadsKey) = true") }
        if minimumTLSVersion != .v1_2 { keys.append("\(Self.minimumTLSVersionKey) = \(minimumTLSVersion.rawValue)") }
        if !requiresForwardSecrecy { keys.append("\(Self.requiresForwardSecrecyKey) = false") }
        return keys.isEmpty ? "(no key changed: TLS 1.2 or later with forward secrecy)" : keys.joined(separator: ", ")
    }
}
