import XCTest

@testable import AppManifest

/// The evaluator, table-driven: every kind of destination under every key (and their precedence), against every
/// security a connection can have, then the refusal messages word for word.
final class AppTransportSecurityEvaluationTests: XCTestCase {
    /// The securities of the table's verdict strings, in order: one character each, "+" allowed, "-" refused.
    private let securities: [ConnectionSecurity] = [
        .plaintext,  // a plaintext game (protocol 1)
        .tls(.v1_0, forwardSecrecy: false),
        .tls(.v1_2, forwardSecrecy: false),
        .encryptedGame,  // TLS 1.2 with forward secrecy (protocol 2)
        .tls(.v1_3, forwardSecrecy: true),
    ]

    private static func domain(
        _ key: String, subdomains: Bool = false, insecure: Bool = false, tls: TLSVersion = .v1_2,
        forwardSecrecy: Bool = true
    ) -> ExceptionDomain {
        let pattern: ExceptionDomain.Pattern
        if let slash = key.firstIndex(of: "/") {
            pattern = .range(
                IPAddress(literal: String(key[..<slash]))!, prefixLength: Int(key[key.index(after: slash)...])!)
        } else if let address = IPAddress(literal: key) {
            pattern = .address(address)
        } else {
            pattern = .name(TransportDestination.normalize(name: key))
        }
        return ExceptionDomain(
            key: key, pattern: pattern, includesSubdomains: subdomains, allowsInsecureLoads: insecure,
            minimumTLSVersion: tls, requiresForwardSecrecy: forwardSecrecy)
    }

    private static let exceptions = [
        domain("example.com", subdomains: true, insecure: true),
        domain("secure.example.org", tls: .v1_3),
        domain("gamebox.local", insecure: true),
        domain("gamebox", tls: .v1_0, forwardSecrecy: false),
        domain("192.168.1.20", insecure: true),
        domain("10.0.0.0/8", forwardSecrecy: false),
        domain("10.1.0.0/16", insecure: true),
        domain("fd00::/8", tls: .v1_3),
        domain("127.0.0.1", tls: .v1_3),  // no effect: loopback is always allowed
    ]

    private let policies: [String: AppTransportSecurity] = [
        "undeclared": .undeclared,
        "empty": AppTransportSecurity(isDeclared: true),
        "local": AppTransportSecurity(isDeclared: true, allowsLocalNetworking: true),
        "local false": AppTransportSecurity(isDeclared: true, allowsLocalNetworking: false),
        "arbitrary": AppTransportSecurity(isDeclared: true, allowsArbitraryLoads: true),
        "arbitrary false": AppTransportSecurity(isDeclared: true, allowsArbitraryLoads: false),
        "arbitrary, local false": AppTransportSecurity(
            isDeclared: true, allowsArbitraryLoads: true, allowsLocalNetworking: false),
        "arbitrary, local": AppTransportSecurity(
            isDeclared: true, allowsArbitraryLoads: true, allowsLocalNetworking: true),
        "arbitrary, web false": AppTransportSecurity(
            isDeclared: true, allowsArbitraryLoads: true, allowsArbitraryLoadsInWebContent: false),
        "arbitrary, media true": AppTransportSecurity(
            isDeclared: true, allowsArbitraryLoads: true, allowsArbitraryLoadsForMedia: true),
        "exceptions": AppTransportSecurity(isDeclared: true, exceptionDomains: exceptions),
        "exceptions, arbitrary": AppTransportSecurity(
            isDeclared: true, allowsArbitraryLoads: true, exceptionDomains: exceptions),
        "exceptions, local": AppTransportSecurity(
            isDeclared: true, allowsLocalNetworking: true, exceptionDomains: exceptions),
    ]

    // The verdicts: plaintext, TLS 1.0, TLS 1.2 without forward secrecy, TLS 1.2 with it (an encrypted game), TLS 1.3.
    private let any = "+++++"
    private let defaults = "---++"

    /// (policy, host, rule, verdicts).
    private var table: [(String, String, String, String)] {
        var rows: [(String, String, String, String)] = []
        let loopback = ["127.0.0.1", "127.9.9.9", "::1", "localhost", "[::ffff:127.0.0.1]"]
        let local = ["192.168.1.21", "8.8.8.8", "fe80::1%eth0", "gamebox2", "otherbox.local", "Otherbox.Local."]
        let names = ["games.example.net", "www.example.org"]
        // Loopback is always allowed, whatever the policy (even an exception domain that asks for TLS 1.3).
        for policy in policies.keys.sorted() {
            for host in loopback { rows.append((policy, host, "loopback", any)) }
        }
        // No exception domain matches: the global keys.
        for host in local + names {
            let isLocal = local.contains(host)
            rows += [
                ("undeclared", host, "default", defaults),
                ("empty", host, "default", defaults),
                ("local", host, isLocal ? "local-networking" : "default", isLocal ? any : defaults),
                ("local false", host, "default", defaults),
                ("arbitrary", host, "arbitrary-loads", any),
                ("arbitrary false", host, "default", defaults),
                // NSAllowsArbitraryLoads is ignored when NSAllowsLocalNetworking, …InWebContent or …ForMedia is
                // present, whatever their values.
                ("arbitrary, local false", host, "default", defaults),
                ("arbitrary, local", host, isLocal ? "local-networking" : "default", isLocal ? any : defaults),
                ("arbitrary, web false", host, "default", defaults),
                ("arbitrary, media true", host, "default", defaults),
                ("exceptions", host, "default", defaults),
                ("exceptions, arbitrary", host, "arbitrary-loads", any),
                ("exceptions, local", host, isLocal ? "local-networking" : "default", isLocal ? any : defaults),
            ]
        }
        // Exception domains: they decide alone, over NSAllowsArbitraryLoads and NSAllowsLocalNetworking.
        let matched: [(String, String)] = [
            ("example.com", "+--++"),  // exact name
            ("EXAMPLE.com.", "+--++"),  // without case and trailing dot
            ("www.example.com", "+--++"),  // NSIncludesSubdomains: one label below
            ("secure.example.org", "----+"),  // TLSv1.3: no game can meet it
            ("gamebox.local", "+--++"),  // a .local name
            ("gamebox", "-++++"),  // an unqualified name: TLS 1.0 without forward secrecy allowed
            ("192.168.1.20", "+--++"),  // an address
            ("10.9.8.7", "--+++"),  // in 10.0.0.0/8
            ("10.1.2.3", "+--++"),  // in 10.1.0.0/16 too: the longest prefix wins
            ("fd00::5", "----+"),  // an IPv6 range
        ]
        for (host, verdicts) in matched {
            for policy in ["exceptions", "exceptions, arbitrary", "exceptions, local"] {
                rows.append((policy, host, "exception-domain", verdicts))
            }
        }
        // Not matched by an exception: two labels below (Apple: only names with "one additional path component"),
        // a sibling, a parent, a name that only ends the same.
        for host in ["a.b.example.com", "other.example.org", "example.org", "notexample.com"] {
            rows.append(("exceptions", host, "default", defaults))
            rows.append(("exceptions, arbitrary", host, "arbitrary-loads", any))
        }
        rows.append(("exceptions", "sub.gamebox.local", "default", defaults))  // no NSIncludesSubdomains
        rows.append(("exceptions, local", "sub.gamebox.local", "local-networking", any))
        rows.append(("exceptions", "192.168.1.200", "default", defaults))
        return rows
    }

    func testEveryDestinationKindUnderEveryKey() {
        var kinds: Set<TransportDestination.Kind> = []
        var rules: Set<String> = []
        for (name, host, rule, verdicts) in table {
            let policy = policies[name]!
            let destination = TransportDestination(host: host)
            kinds.insert(destination.kind)
            rules.insert(rule)
            XCTAssertEqual(policy.requirement(for: destination).rule.name, rule, "\(name): \(host)")
            let actual = String(
                securities.map { security -> Character in
                    switch policy.evaluate(destination, security: security, manifestPath: "Info.plist") {
                    case .allowed(let requirement):
                        XCTAssertEqual(requirement.rule.name, rule, "\(name): \(host) \(security)")
                        return "+"
                    case .refused(let refusal):
                        XCTAssertEqual(refusal.requirement.rule.name, rule, "\(name): \(host) \(security)")
                        XCTAssertEqual(refusal.destination, destination)
                        XCTAssertEqual(refusal.security, security)
                        return "-"
                    }
                })
            XCTAssertEqual(actual, verdicts, "\(name): \(host)")
        }
        XCTAssertEqual(kinds, Set(TransportDestination.Kind.allCases), "every kind of destination")
        XCTAssertEqual(rules, ["loopback", "default", "local-networking", "arbitrary-loads", "exception-domain"])
    }

    func testTheRowsOfTheManifestReportAreTheKindsWithoutExceptions() {
        let policy = policies["exceptions, local"]!
        XCTAssertEqual(policy.requirement(forKind: .loopback).rule, .loopback)
        XCTAssertEqual(policy.requirement(forKind: .ipAddress).rule, .localNetworking)
        XCTAssertEqual(policy.requirement(forKind: .unqualifiedName).rule, .localNetworking)
        XCTAssertEqual(policy.requirement(forKind: .localName).rule, .localNetworking)
        XCTAssertEqual(policy.requirement(forKind: .domainName).rule, .defaults)
        let loopbackEntry = Self.exceptions.last!
        XCTAssertEqual(loopbackEntry.kind, .loopback)
        XCTAssertEqual(policy.requirement(for: loopbackEntry).rule, .loopback)
        XCTAssertEqual(Self.exceptions[0].kind, .domainName)
        XCTAssertEqual(Self.exceptions[2].kind, .localName)
        XCTAssertEqual(Self.exceptions[3].kind, .unqualifiedName)
        XCTAssertEqual(Self.exceptions[5].kind, .ipAddress)
    }

    // MARK: Refusal messages

    private func refusal(
        _ policy: String, _ host: String, _ security: ConnectionSecurity, file: StaticString = #filePath,
        line: UInt = #line
    ) -> String {
        switch policies[policy]!.evaluate(
            TransportDestination(host: host), security: security, manifestPath: "Assets/Info.plist")
        {
        case .allowed(let requirement):
            XCTFail("allowed by \(requirement.rule)", file: file, line: line)
            return ""
        case .refused(let refusal):
            return refusal.description
        }
    }

    func testAPlaintextGameToALocalAddressNamesNSAllowsLocalNetworking() {
        XCTAssertEqual(
            refusal("undeclared", "192.168.1.20", .plaintextGame),
            "App Transport Security policy requires a secure connection to 192.168.1.20 (an IP address on the local "
                + "network); the manifest (Assets/Info.plist) would allow it with NSAllowsLocalNetworking = true, or "
                + "use an encrypted game (protocol 2)")
        XCTAssertEqual(
            refusal("local false", "gamebox.local", .plaintextGame),
            "App Transport Security policy requires a secure connection to gamebox.local (a .local name); the "
                + "manifest (Assets/Info.plist) would allow it with NSAllowsLocalNetworking = true, or use an "
                + "encrypted game (protocol 2)")
        XCTAssertEqual(
            refusal("empty", "gamebox", .plaintextGame),
            "App Transport Security policy requires a secure connection to gamebox (an unqualified host name); the "
                + "manifest (Assets/Info.plist) would allow it with NSAllowsLocalNetworking = true, or use an "
                + "encrypted game (protocol 2)")
    }

    func testAPlaintextGameToADNSNameNamesAnExceptionDomain() {
        XCTAssertEqual(
            refusal("exceptions", "a.b.example.com", .plaintextGame),
            "App Transport Security policy requires a secure connection to a.b.example.com (a DNS name); the "
                + "manifest (Assets/Info.plist) would allow it with an NSExceptionDomains entry for a.b.example.com "
                + "with NSExceptionAllowsInsecureHTTPLoads = true, or use an encrypted game (protocol 2)")
    }

    func testIgnoredArbitraryLoadsAreExplained() {
        XCTAssertEqual(
            refusal("arbitrary, local false", "Games.Example.NET.", .plaintextGame),
            "App Transport Security policy requires a secure connection to Games.Example.NET. (a DNS name); the "
                + "manifest (Assets/Info.plist) would allow it with an NSExceptionDomains entry for "
                + "games.example.net with NSExceptionAllowsInsecureHTTPLoads = true (its NSAllowsArbitraryLoads = "
                + "true is ignored because NSAllowsLocalNetworking is present), or use an encrypted game (protocol 2)")
        XCTAssertEqual(
            refusal("arbitrary, media true", "10.0.0.7", .plaintextGame),
            "App Transport Security policy requires a secure connection to 10.0.0.7 (an IP address on the local "
                + "network); the manifest (Assets/Info.plist) would allow it with NSAllowsLocalNetworking = true (its "
                + "NSAllowsArbitraryLoads = true is ignored because NSAllowsArbitraryLoadsForMedia is present), or "
                + "use an encrypted game (protocol 2)")
    }

    func testAnExceptionDomainWithoutPlaintextNamesItsKey() {
        XCTAssertEqual(
            refusal("exceptions, local", "10.9.8.7", .plaintextGame),
            "App Transport Security policy requires a secure connection to 10.9.8.7 (an IP address on the local "
                + "network, under the NSExceptionDomains entry \"10.0.0.0/8\"); the manifest (Assets/Info.plist) "
                + "would allow it with NSExceptionAllowsInsecureHTTPLoads = true in that entry, or use an encrypted "
                + "game (protocol 2)")
    }

    func testTLS13CannotBeMetByAnyGame() {
        XCTAssertEqual(
            refusal("exceptions", "secure.example.org", .encryptedGame),
            "App Transport Security policy requires TLS 1.3 or later for connections to secure.example.org (a DNS "
                + "name, under the NSExceptionDomains entry \"secure.example.org\"), which no game can meet: "
                + "encrypted games use TLS 1.2 (their pre-shared-key cipher suite exists only in TLS 1.2); the "
                + "manifest (Assets/Info.plist) would allow it with NSExceptionMinimumTLSVersion = TLSv1.2 in that "
                + "entry")
        XCTAssertEqual(
            refusal("exceptions, arbitrary", "secure.example.org", .plaintextGame),
            "App Transport Security policy requires a secure connection to secure.example.org (a DNS name, under the "
                + "NSExceptionDomains entry \"secure.example.org\"); the manifest (Assets/Info.plist) would allow it "
                + "with NSExceptionAllowsInsecureHTTPLoads = true in that entry; an encrypted game would not help: the "
                + "policy requires TLS 1.3 or later, and encrypted games use TLS 1.2 (their pre-shared-key cipher "
                + "suite exists only in TLS 1.2)")
    }

    func testOldTLSAndMissingForwardSecrecy() {
        XCTAssertEqual(
            refusal("undeclared", "8.8.8.8", .tls(.v1_0, forwardSecrecy: true)),
            "App Transport Security policy requires TLS 1.2 or later for connections to 8.8.8.8 (an IP address), and "
                + "this connection uses TLS 1.0; the manifest (Assets/Info.plist) would allow it with "
                + "NSAllowsLocalNetworking = true, or use an encrypted game (protocol 2)")
        XCTAssertEqual(
            refusal("undeclared", "games.example.net", .tls(.v1_1, forwardSecrecy: true)),
            "App Transport Security policy requires TLS 1.2 or later for connections to games.example.net (a DNS "
                + "name), and this connection uses TLS 1.1; the manifest (Assets/Info.plist) would allow it with an "
                + "NSExceptionDomains entry for games.example.net with NSExceptionMinimumTLSVersion = TLSv1.1, or use "
                + "an encrypted game (protocol 2)")
        XCTAssertEqual(
            refusal("undeclared", "games.example.net", .tls(.v1_2, forwardSecrecy: false)),
            "App Transport Security policy requires forward secrecy for connections to games.example.net (a DNS "
                + "name), and this connection (TLS 1.2 without forward secrecy) has none; the manifest "
                + "(Assets/Info.plist) would allow it with an NSExceptionDomains entry for games.example.net with "
                + "NSExceptionRequiresForwardSecrecy = false, or use an encrypted game (protocol 2)")
    }

    // MARK: The check at connect time

    func testTheManifestsCheckAllowsOrThrowsTheRefusal() throws {
        let manifest = AppManifest(
            path: "/opt/tictactoe/share/tictactoe/Info.plist", displayName: "TicTacToe", usageDescription: "To play.",
            bonjourServices: ["_tictactoe._tcp"],
            transportSecurity: AppTransportSecurity(isDeclared: true, allowsLocalNetworking: false))
        XCTAssertEqual(try manifest.checkTransportSecurity(to: "127.0.0.1", security: .plaintextGame).rule, .loopback)
        XCTAssertEqual(try manifest.checkTransportSecurity(to: "[::1]", security: .plaintextGame).rule, .loopback)
        XCTAssertEqual(
            try manifest.checkTransportSecurity(to: "192.168.1.20", security: .encryptedGame).rule, .defaults)
        XCTAssertThrowsError(try manifest.checkTransportSecurity(to: "192.168.1.20", security: .plaintextGame)) {
            let refusal = $0 as? TransportSecurityRefusal
            XCTAssertEqual(refusal?.failure, .plaintext)
            XCTAssertEqual(refusal?.allowingKey, "NSAllowsLocalNetworking = true")
            XCTAssertEqual(refusal?.manifestPath, "/opt/tictactoe/share/tictactoe/Info.plist")
            XCTAssertEqual(
                refusal?.description,
                "App Transport Security policy requires a secure connection to 192.168.1.20 (an IP address on the "
                    + "local network); the manifest (/opt/tictactoe/share/tictactoe/Info.plist) would allow it with "
                    + "NSAllowsLocalNetworking = true, or use an encrypted game (protocol 2)")
        }
    }

    // MARK: Bonjour service types

    func testServiceTypes() {
        for valid in ["_tictactoe._tcp", "_ipp._tcp", "_myservice._udp", "_TicTacToe._TCP.", "_x1-2._tcp"] {
            XCTAssertNil(AppManifest.serviceTypeProblem(valid), valid)
        }
        let invalid: [(String, String)] = [
            ("tictactoe", "not of the form _name._tcp or _name._udp"),
            ("_tictactoe", "not of the form _name._tcp or _name._udp"),
            ("tictactoe._tcp", "not of the form _name._tcp or _name._udp"),
            ("_tictactoe._tcp.local", "not of the form _name._tcp or _name._udp"),
            ("_tictactoe._sctp", "the transport must be _tcp or _udp, not _sctp"),
            ("_._tcp", "the service name must be 1 to 15 characters long (RFC 6335), not 0"),
            ("_abcdefghijklmnop._tcp", "the service name must be 1 to 15 characters long (RFC 6335), not 16"),
            ("_tic_tac._tcp", "the service name may hold only letters, digits and hyphens (RFC 6335)"),
            ("_123._tcp", "the service name must contain a letter (RFC 6335)"),
            ("_-tic._tcp", "the service name must not begin or end with a hyphen, nor have two in a row (RFC 6335)"),
            ("_tic--tac._tcp", "the service name must not begin or end with a hyphen, nor have two in a row (RFC 6335)"),
        ]
        for (type, problem) in invalid {
            XCTAssertEqual(AppManifest.serviceTypeProblem(type), problem, type)
        }
    }
}
