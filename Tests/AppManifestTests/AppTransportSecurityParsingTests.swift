import Foundation
import TicTacToeTestSupport
import XCTest

@testable import AppManifest

/// `NSAppTransportSecurity` read from real property list files: every key, the defaults, and a malformed dictionary
/// as a manifest error naming the key.
final class AppTransportSecurityParsingTests: XCTestCase {
    private func manifest(transportSecurity: Any?, extra: [String: Any] = [:]) throws -> AppManifest {
        var entries = standardEntries.merging(extra) { $1 }
        if let transportSecurity { entries["NSAppTransportSecurity"] = transportSecurity }
        return try AppManifest(contentsOf: try writeManifest(entries, in: try makeTemporaryDirectory(self)))
    }

    /// The manifest error for `transportSecurity`, as text (the file's path replaced by PATH).
    private func error(for transportSecurity: Any) throws -> String {
        let directory = try makeTemporaryDirectory(self)
        let path = try writeManifest(
            standardEntries.merging(["NSAppTransportSecurity": transportSecurity]) { $1 }, in: directory)
        do {
            _ = try AppManifest(contentsOf: path)
            XCTFail("\(transportSecurity) was accepted")
            return ""
        } catch let error as ManifestError {
            guard case .invalid = error else {
                XCTFail("\(error)")
                return ""
            }
            return "\(error)".replacingOccurrences(of: path, with: "PATH")
        }
    }

    /// The shipped manifest declares ATS with both global keys false and no exception domains: LAN games must be
    /// encrypted, loopback stays free.
    func testTheProjectManifestRequiresEncryptionOnTheLAN() throws {
        let manifest = try AppManifest(contentsOf: assetsDirectory + "/Info.plist")
        let ats = manifest.transportSecurity
        XCTAssertTrue(ats.isDeclared)
        XCTAssertEqual(ats.allowsArbitraryLoads, false)
        XCTAssertEqual(ats.allowsLocalNetworking, false)
        XCTAssertEqual(ats.exceptionDomains, [])
        XCTAssertFalse(ats.arbitraryLoadsInEffect)
        for kind in [TransportDestination.Kind.ipAddress, .localName, .unqualifiedName, .domainName] {
            XCTAssertFalse(ats.requirement(forKind: kind).permits(.plaintext), "\(kind)")
            XCTAssertTrue(ats.requirement(forKind: kind).permits(.encryptedGame), "\(kind)")
        }
        XCTAssertTrue(ats.requirement(forKind: .loopback).permits(.plaintext))
    }

    func testEveryKeyIsRead() throws {
        let manifest = try manifest(transportSecurity: [
            "NSAllowsArbitraryLoads": true,
            "NSAllowsLocalNetworking": false,
            "NSAllowsArbitraryLoadsInWebContent": false,
            "NSAllowsArbitraryLoadsForMedia": true,
            "NSExceptionDomains": [
                "Example.COM": [
                    "NSIncludesSubdomains": true, "NSExceptionAllowsInsecureHTTPLoads": true,
                    "NSExceptionMinimumTLSVersion": "TLSv1.0", "NSExceptionRequiresForwardSecrecy": false,
                ],
                "secure.example.org": ["NSExceptionMinimumTLSVersion": "TLSv1.3"],
                "gamebox.local.": [String: Any](),
                "192.168.1.20": ["NSExceptionAllowsInsecureHTTPLoads": true],
                "2001:db8:12::/48": ["NSExceptionMinimumTLSVersion": "TLSv1.1"],
            ],
        ])
        let policy = manifest.transportSecurity
        XCTAssertTrue(policy.isDeclared)
        XCTAssertEqual(policy.allowsArbitraryLoads, true)
        XCTAssertEqual(policy.allowsLocalNetworking, false)
        XCTAssertEqual(policy.allowsArbitraryLoadsInWebContent, false)
        XCTAssertEqual(policy.allowsArbitraryLoadsForMedia, true)
        XCTAssertEqual(
            policy.keysOverridingArbitraryLoads,
            ["NSAllowsLocalNetworking", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsArbitraryLoadsForMedia"])
        XCTAssertFalse(policy.arbitraryLoadsInEffect, "present keys override NSAllowsArbitraryLoads, whatever values")
        XCTAssertEqual(policy.ignoredKeys, [])
        XCTAssertEqual(
            policy.exceptionDomains,
            [
                ExceptionDomain(
                    key: "192.168.1.20", pattern: .address(IPAddress(literal: "192.168.1.20")!),
                    allowsInsecureLoads: true),
                ExceptionDomain(
                    key: "2001:db8:12::/48", pattern: .range(IPAddress(literal: "2001:db8:12::")!, prefixLength: 48),
                    minimumTLSVersion: .v1_1),
                ExceptionDomain(
                    key: "Example.COM", pattern: .name("example.com"), includesSubdomains: true,
                    allowsInsecureLoads: true, minimumTLSVersion: .v1_0, requiresForwardSecrecy: false),
                ExceptionDomain(key: "gamebox.local.", pattern: .name("gamebox.local")),
                ExceptionDomain(key: "secure.example.org", pattern: .name("secure.example.org"), minimumTLSVersion: .v1_3),
            ])
    }

    func testAnEmptyDictionaryIsDeclaredWithTheDefaults() throws {
        let policy = try manifest(transportSecurity: [String: Any]()).transportSecurity
        XCTAssertTrue(policy.isDeclared)
        XCTAssertNil(policy.allowsArbitraryLoads)
        XCTAssertNil(policy.allowsLocalNetworking)
        XCTAssertEqual(policy.exceptionDomains, [])
        XCTAssertEqual(policy.keysOverridingArbitraryLoads, [])
    }

    func testArbitraryLoadsAloneIsInEffect() throws {
        let policy = try manifest(transportSecurity: ["NSAllowsArbitraryLoads": true]).transportSecurity
        XCTAssertTrue(policy.arbitraryLoadsInEffect)
    }

    func testKeysTicTacToeDoesNotUseAreKeptAsIgnored() throws {
        let policy = try manifest(transportSecurity: [
            "NSPinnedDomains": [String: Any](),
            "NSAllowsLocalNetworking": true,
            "NSExceptionDomains": [
                "example.com": ["NSTemporaryExceptionAllowsInsecureHTTPLoads": true, "NSIncludesSubdomains": true]
            ],
        ]).transportSecurity
        XCTAssertEqual(
            policy.ignoredKeys,
            ["NSPinnedDomains", "NSExceptionDomains \"example.com\": NSTemporaryExceptionAllowsInsecureHTTPLoads"])
        XCTAssertEqual(policy.exceptionDomains.first?.allowsInsecureLoads, false, "the old spelling is not read")
    }

    func testAMalformedDictionaryIsAManifestErrorNamingTheKey() throws {
        let fix = ". Fix it (see Assets/Info.plist), or pass --info-plist PATH"
        let cases: [(Any, String)] = [
            ("YES", "NSAppTransportSecurity must be a <dict>"),
            (["NSAllowsArbitraryLoads": "YES"],
             "NSAllowsArbitraryLoads (in NSAppTransportSecurity) must be <true/> or <false/>, not <string> \"YES\""),
            (["NSAllowsLocalNetworking": 1],
             "NSAllowsLocalNetworking (in NSAppTransportSecurity) must be <true/> or <false/>, not <integer> 1"),
            (["NSAllowsArbitraryLoadsForMedia": [true]],
             "NSAllowsArbitraryLoadsForMedia (in NSAppTransportSecurity) must be <true/> or <false/>, not an <array>"),
            (["NSAllowsArbitraryLoadsInWebContent": 0.5],
             "NSAllowsArbitraryLoadsInWebContent (in NSAppTransportSecurity) must be <true/> or <false/>, not "
                 + "<real> 0.5"),
            (["NSExceptionDomains": ["example.com"]],
             "NSExceptionDomains (in NSAppTransportSecurity) must be a <dict> of domains"),
            (["NSExceptionDomains": ["example.com": true]],
             "the exception domain \"example.com\" (in NSAppTransportSecurity's NSExceptionDomains) must be a <dict>"),
            (["NSExceptionDomains": ["example.com": ["NSIncludesSubdomains": "true"]]],
             "NSIncludesSubdomains of the exception domain \"example.com\" (in NSAppTransportSecurity's "
                 + "NSExceptionDomains) must be <true/> or <false/>, not <string> \"true\""),
            (["NSExceptionDomains": ["example.com": ["NSExceptionAllowsInsecureHTTPLoads": 1]]],
             "NSExceptionAllowsInsecureHTTPLoads of the exception domain \"example.com\" (in "
                 + "NSAppTransportSecurity's NSExceptionDomains) must be <true/> or <false/>, not <integer> 1"),
            (["NSExceptionDomains": ["example.com": ["NSExceptionRequiresForwardSecrecy": "NO"]]],
             "NSExceptionRequiresForwardSecrecy of the exception domain \"example.com\" (in "
                 + "NSAppTransportSecurity's NSExceptionDomains) must be <true/> or <false/>, not <string> \"NO\""),
            (["NSExceptionDomains": ["example.com": ["NSExceptionMinimumTLSVersion": "1.2"]]],
             "NSExceptionMinimumTLSVersion of the exception domain \"example.com\" (in NSAppTransportSecurity's "
                 + "NSExceptionDomains) must be one of TLSv1.0, TLSv1.1, TLSv1.2, TLSv1.3, not \"1.2\""),
            (["NSExceptionDomains": ["example.com": ["NSExceptionMinimumTLSVersion": "tlsv1.2"]]],
             "NSExceptionMinimumTLSVersion of the exception domain \"example.com\" (in NSAppTransportSecurity's "
                 + "NSExceptionDomains) must be one of TLSv1.0, TLSv1.1, TLSv1.2, TLSv1.3, not \"tlsv1.2\""),
            (["NSExceptionDomains": ["example.com": ["NSExceptionMinimumTLSVersion": 1.2]]],
             "NSExceptionMinimumTLSVersion of the exception domain \"example.com\" (in NSAppTransportSecurity's "
                 + "NSExceptionDomains) must be a <string> (one of TLSv1.0, TLSv1.1, TLSv1.2, TLSv1.3), not <real> 1.2"),
            (["NSExceptionDomains": ["example.com:443": [String: Any]()]],
             "the exception domain \"example.com:443\" (in NSAppTransportSecurity's NSExceptionDomains) must not "
                 + "include a port (write the name alone)"),
            (["NSExceptionDomains": ["*.example.com": [String: Any]()]],
             "the exception domain \"*.example.com\" (in NSAppTransportSecurity's NSExceptionDomains) must not be a "
                 + "wildcard: write the domain and set NSIncludesSubdomains"),
            (["NSExceptionDomains": ["https://example.com/": [String: Any]()]],
             "the exception domain \"https://example.com/\" (in NSAppTransportSecurity's NSExceptionDomains) is not "
                 + "a domain name (no \"/\", scheme or path) nor a CIDR range"),
            (["NSExceptionDomains": ["192.168.0.0/33": [String: Any]()]],
             "the exception domain \"192.168.0.0/33\" (in NSAppTransportSecurity's NSExceptionDomains) has a bad "
                 + "prefix length: use 0–32"),
            (["NSExceptionDomains": ["2001:db8::/x": [String: Any]()]],
             "the exception domain \"2001:db8::/x\" (in NSAppTransportSecurity's NSExceptionDomains) has a bad "
                 + "prefix length: use 0–128"),
            (["NSExceptionDomains": ["example..com": [String: Any]()]],
             "the exception domain \"example..com\" (in NSAppTransportSecurity's NSExceptionDomains) is not a "
                 + "domain name"),
            (["NSExceptionDomains": ["": [String: Any]()]],
             "the exception domain \"\" (in NSAppTransportSecurity's NSExceptionDomains) is not a domain name: it is "
                 + "empty or has spaces"),
        ]
        for (value, reason) in cases {
            XCTAssertEqual(try error(for: value), "the app manifest PATH is not valid: \(reason)\(fix)", "\(value)")
        }
    }
}
