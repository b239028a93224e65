extension AppManifest {
    /// Why `serviceType` is not a well-formed `NSBonjourServices` entry, or nil when it is. Apple: "Bonjour service
    /// type strings look like `_ipp._tcp`, and `_myservice._udp`, where the first substring identifies the
    /// application protocol and the second identifies the transport protocol"
    /// (https://developer.apple.com/documentation/bundleresources/information-property-list/nsbonjourservices). The
    /// application protocol is a service name as RFC 6335 §5.1 defines it: 1 to 15 letters, digits and hyphens, at
    /// least one letter, no hyphen first, last or next to another. A trailing dot is tolerated (`declares` ignores it).
    public static func serviceTypeProblem(_ serviceType: String) -> String? {
        var text = serviceType
        if text.hasSuffix(".") { text.removeLast() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasPrefix("_"), parts[1].hasPrefix("_") else {
            return "not of the form _name._tcp or _name._udp"
        }
        guard ["_tcp", "_udp"].contains(parts[1].lowercased()) else {
            return "the transport must be _tcp or _udp, not \(parts[1])"
        }
        let name = parts[0].dropFirst()
        guard (1...15).contains(name.count) else {
            return "the service name must be 1 to 15 characters long (RFC 6335), not \(name.count)"
        }
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            return "the service name may hold only letters, digits and hyphens (RFC 6335)"
        }
        guard name.contains(where: \.isLetter) else {
            return "the service name must contain a letter (RFC 6335)"
        }
        guard !name.hasPrefix("-"), !name.hasSuffix("-"), !name.contains("--") else {
            return "the service name must not begin or end with a hyphen, nor have two in a row (RFC 6335)"
        }
        return nil
    }
}
