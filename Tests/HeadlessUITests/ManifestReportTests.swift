import AppCore
import AppManifest
import Foundation
import GameClient
import GameProtocol
import HeadlessUI
import LocalNetworkPrivacy
import Logging
import PrivacyCommands
import TextSupport
import TicTacToeTestSupport
import XCTest

/// `tictactoe manifest` as the core reads and renders it (the executable only prints it), pinned as text and JSON
/// against fixed manifests in a temporary directory; and the exit code of a refused connection.
final class ManifestReportTests: XCTestCase {
    /// The manifest logs what tests provoke on purpose (no usage description): not shown.
    private let quiet = Logger(label: "test.manifest-report") { _ in SwiftLogNoOpLogHandler() }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>
        """
    }

    /// A manifest with every key this report explains: exception domains of each kind, an ignored
    /// NSAllowsArbitraryLoads, malformed service types, no usage description, and entitlements beside it.
    private func richManifest(in directory: String) throws -> AppManifest {
        try write(
            plist(
                """
                <key>CFBundleDisplayName</key><string>Noughts</string>
                <key>NSBonjourServices</key>
                <array><string>_tictactoe._tcp</string><string>tictactoe</string><string>_tic_tac._udp</string></array>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSAllowsArbitraryLoads</key><true/>
                    <key>NSAllowsLocalNetworking</key><false/>
                    <key>NSPinnedDomains</key><dict/>
                    <key>NSExceptionDomains</key>
                    <dict>
                        <key>example.com</key>
                        <dict>
                            <key>NSIncludesSubdomains</key><true/>
                            <key>NSExceptionAllowsInsecureHTTPLoads</key><true/>
                        </dict>
                        <key>secure.example.org</key>
                        <dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string></dict>
                        <key>gamebox.local</key>
                        <dict/>
                        <key>192.168.7.0/24</key>
                        <dict>
                            <key>NSExceptionAllowsInsecureHTTPLoads</key><true/>
                            <key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string>
                            <key>NSExceptionRequiresForwardSecrecy</key><false/>
                        </dict>
                    </dict>
                </dict>
                """), to: directory + "/Info.plist")
        try write(
            plist(
                """
                <key>com.apple.developer.networking.multicast</key><true/>
                <key>com.apple.security.application-groups</key><array><string>group.tictactoe</string></array>
                """), to: directory + "/TicTacToe.entitlements")
        return try AppManifest(contentsOf: directory + "/Info.plist", logger: quiet)
    }

    func testEverythingTheManifestDeclaresPinnedAsText() throws {
        let directory = try makeTemporaryDirectory(self)
        let report = ManifestReport.read(manifest: try richManifest(in: directory))
        XCTAssertEqual(
            report.text,
            """
            App manifest \(directory)/Info.plist
              app:                Noughts
              usage description:  (missing: the prompt shows "This app would like to find and connect to devices \
            on your local network (no reason was given).")
              Bonjour services:   _tictactoe._tcp, tictactoe (malformed), _tic_tac._udp (malformed)
              entitlements:       \(directory)/TicTacToe.entitlements
                com.apple.developer.networking.multicast = true
                com.apple.security.application-groups = ["group.tictactoe"]
            App Transport Security (NSAppTransportSecurity): declared
              NSAllowsArbitraryLoads:             true (ignored: NSAllowsLocalNetworking is present)
              NSAllowsLocalNetworking:            false
              NSAllowsArbitraryLoadsInWebContent: not set (not applicable: tictactoe has no web views)
              NSAllowsArbitraryLoadsForMedia:     not set (not applicable: tictactoe loads no media)
              NSExceptionDomains:
                192.168.7.0/24: NSExceptionAllowsInsecureHTTPLoads = true, NSExceptionMinimumTLSVersion = TLSv1.0, \
            NSExceptionRequiresForwardSecrecy = false
                example.com: NSIncludesSubdomains = true, NSExceptionAllowsInsecureHTTPLoads = true
                gamebox.local: (no key changed: TLS 1.2 or later with forward secrecy)
                secure.example.org: NSExceptionMinimumTLSVersion = TLSv1.3
            Game connections (plaintext: protocol 1; encrypted: protocol 2, TLS 1.2 with forward secrecy):
              loopback (127.0.0.0/8, ::1, localhost): plaintext and encrypted games (loopback is always allowed)
              IP addresses: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)
              unqualified names: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)
              .local names: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)
              other names: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)
              192.168.7.0/24: plaintext and encrypted games (NSExceptionDomains: plaintext allowed, or TLS 1.0 or \
            later, forward secrecy not required)
              example.com and the names one level below it: plaintext and encrypted games (NSExceptionDomains: \
            plaintext allowed, or TLS 1.2 or later with forward secrecy)
              gamebox.local: encrypted games only (NSExceptionDomains: TLS 1.2 or later with forward secrecy)
              secure.example.org: no game (NSExceptionDomains: TLS 1.3 or later with forward secrecy)
            Warnings (as App Review would raise them):
              - NSLocalNetworkUsageDescription is missing: the local network prompt shows a generic reason, and App \
            Review expects the app to say why it uses the local network
              - NSBonjourServices entry "tictactoe" is malformed: not of the form _name._tcp or _name._udp
              - NSBonjourServices entry "_tic_tac._udp" is malformed: the service name may hold only letters, digits \
            and hyphens (RFC 6335)
              - NSAllowsArbitraryLoads = true turns App Transport Security off for every destination without an \
            exception domain: App Review asks for a justification; prefer NSAllowsLocalNetworking or an \
            NSExceptionDomains entry (here it is ignored: NSAllowsLocalNetworking is present)
              - NSExceptionDomains entry "192.168.7.0/24": NSExceptionAllowsInsecureHTTPLoads = true allows \
            plaintext: an ATS exception that App Review may ask you to justify
              - NSExceptionDomains entry "192.168.7.0/24": NSExceptionMinimumTLSVersion = TLSv1.0 is below TLS 1.2: \
            App Review asks for a justification
              - NSExceptionDomains entry "example.com": NSExceptionAllowsInsecureHTTPLoads = true allows plaintext: \
            an ATS exception that App Review may ask you to justify
              - NSExceptionDomains entry "secure.example.org": NSExceptionMinimumTLSVersion = TLSv1.3 cannot be met \
            by an encrypted game, which uses TLS 1.2 (its pre-shared-key cipher suite exists only in TLS 1.2)
              - NSAppTransportSecurity: tictactoe does not use NSPinnedDomains (ignored)
            """
        )
    }

    func testEverythingTheManifestDeclaresPinnedAsJSON() throws {
        let directory = try makeTemporaryDirectory(self)
        let report = ManifestReport.read(manifest: try richManifest(in: directory))
        func connection(
            _ destination: String, _ domain: String?, _ rule: String, plaintext: Bool, tls: String?,
            forwardSecrecy: Bool, games: (Bool, Bool)
        ) -> String {
            #"{"destination":"\#(destination)","domain":\#(domain.map { "\"\($0)\"" } ?? "null"),"#
                + #""encrypted_game":\#(games.1),"forward_secrecy_required":\#(forwardSecrecy),"#
                + #""minimum_tls_version":\#(tls.map { "\"\($0)\"" } ?? "null"),"plaintext_allowed":\#(plaintext),"#
                + #""plaintext_game":\#(games.0),"rule":"\#(rule)"}"#
        }
        let defaults = { (kind: String) in
            connection(kind, nil, "default", plaintext: false, tls: "TLSv1.2", forwardSecrecy: true, games: (false, true))
        }
        let connections = [
            connection("loopback", nil, "loopback", plaintext: true, tls: nil, forwardSecrecy: false, games: (true, true)),
            defaults("ip-address"), defaults("unqualified-name"), defaults("local-name"), defaults("other-name"),
            connection(
                "exception-domain", "192.168.7.0/24", "exception-domain", plaintext: true, tls: "TLSv1.0",
                forwardSecrecy: false, games: (true, true)),
            connection(
                "exception-domain", "example.com", "exception-domain", plaintext: true, tls: "TLSv1.2",
                forwardSecrecy: true, games: (true, true)),
            connection(
                "exception-domain", "gamebox.local", "exception-domain", plaintext: false, tls: "TLSv1.2",
                forwardSecrecy: true, games: (false, true)),
            connection(
                "exception-domain", "secure.example.org", "exception-domain", plaintext: false, tls: "TLSv1.3",
                forwardSecrecy: true, games: (false, false)),
        ]
        let expected =
            #"{"bonjour_services":[{"problem":null,"service_type":"_tictactoe._tcp","valid":true},"#
            + #"{"problem":"not of the form _name._tcp or _name._udp","service_type":"tictactoe","valid":false},"#
            + #"{"problem":"the service name may hold only letters, digits and hyphens (RFC 6335)","#
            + #""service_type":"_tic_tac._udp","valid":false}],"#
            + #""display_name":"Noughts","#
            + #""entitlements":{"com.apple.developer.networking.multicast":true,"#
            + #""com.apple.security.application-groups":["group.tictactoe"]},"#
            + #""entitlements_error":null,"entitlements_file":"\#(directory)/TicTacToe.entitlements","#
            + #""game_connections":[\#(connections.joined(separator: ","))],"#
            + #""manifest_path":"\#(directory)/Info.plist","#
            + #""transport_security":{"allows_arbitrary_loads":true,"allows_arbitrary_loads_for_media":null,"#
            + #""allows_arbitrary_loads_in_effect":false,"allows_arbitrary_loads_in_web_content":null,"#
            + #""allows_local_networking":false,"declared":true,"exception_domains":["#
            + #"{"allows_insecure_loads":true,"domain":"192.168.7.0/24","includes_subdomains":false,"#
            + #""minimum_tls_version":"TLSv1.0","requires_forward_secrecy":false},"#
            + #"{"allows_insecure_loads":true,"domain":"example.com","includes_subdomains":true,"#
            + #""minimum_tls_version":"TLSv1.2","requires_forward_secrecy":true},"#
            + #"{"allows_insecure_loads":false,"domain":"gamebox.local","includes_subdomains":false,"#
            + #""minimum_tls_version":"TLSv1.2","requires_forward_secrecy":true},"#
            + #"{"allows_insecure_loads":false,"domain":"secure.example.org","includes_subdomains":false,"#
            + #""minimum_tls_version":"TLSv1.3","requires_forward_secrecy":true}],"#
            + #""ignored_keys":["NSPinnedDomains"]},"#
            + #""usage_description":null,"usage_description_missing":true,"#
            + #""warnings":[\#(report.warnings.map { try! JSONLine.encode($0) }.joined(separator: ","))]}"#
        let json = try report.json()
        XCTAssertEqual(json, expected)
        XCTAssertEqual(report.warnings.count, 9)
    }

    /// A manifest with a name, a usage description and the game's service type, and `body` after them.
    private func plainManifest(_ body: String = "", in directory: String) throws -> AppManifest {
        try write(
            plist(
                """
                <key>CFBundleDisplayName</key><string>TicTacToe</string>
                <key>NSLocalNetworkUsageDescription</key><string>To find players around you.</string>
                <key>NSBonjourServices</key><array><string>_tictactoe._tcp</string></array>
                \(body)
                """), to: directory + "/Info.plist")
        return try AppManifest(contentsOf: directory + "/Info.plist", logger: quiet)
    }

    func testAFixedManifestWithExceptionDomainsAndNoEntitlements() throws {
        let directory = try makeTemporaryDirectory(self)
        let manifest = try plainManifest(
            """
            <key>NSAppTransportSecurity</key>
            <dict>
                <key>NSAllowsLocalNetworking</key><false/>
                <key>NSExceptionDomains</key>
                <dict>
                    <key>lab.example.net</key>
                    <dict>
                        <key>NSIncludesSubdomains</key><true/>
                        <key>NSExceptionAllowsInsecureHTTPLoads</key><true/>
                    </dict>
                    <key>vault.example.net</key>
                    <dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string></dict>
                </dict>
            </dict>
            """, in: directory)
        let expected: [String] = [
                "App manifest \(directory)/Info.plist",
                "  app:                TicTacToe",
                "  usage description:  To find players around you.",
                "  Bonjour services:   _tictactoe._tcp",
                "  entitlements:       none declared (no \(directory)/TicTacToe.entitlements)",
                "App Transport Security (NSAppTransportSecurity): declared",
                "  NSAllowsArbitraryLoads:             not set",
                "  NSAllowsLocalNetworking:            false",
                "  NSAllowsArbitraryLoadsInWebContent: not set (not applicable: tictactoe has no web views)",
                "  NSAllowsArbitraryLoadsForMedia:     not set (not applicable: tictactoe loads no media)",
                "  NSExceptionDomains:",
                "    lab.example.net: NSIncludesSubdomains = true, NSExceptionAllowsInsecureHTTPLoads = true",
                "    vault.example.net: NSExceptionMinimumTLSVersion = TLSv1.3",
                "Game connections (plaintext: protocol 1; encrypted: protocol 2, TLS 1.2 with forward secrecy):",
                "  loopback (127.0.0.0/8, ::1, localhost): plaintext and encrypted games (loopback is always allowed)",
                "  IP addresses: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)",
                "  unqualified names: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)",
                "  .local names: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)",
                "  other names: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)",
                "  lab.example.net and the names one level below it: plaintext and encrypted games "
                    + "(NSExceptionDomains: plaintext allowed, or TLS 1.2 or later with forward secrecy)",
                "  vault.example.net: no game (NSExceptionDomains: TLS 1.3 or later with forward secrecy)",
                "Warnings (as App Review would raise them):",
                "  - NSExceptionDomains entry \"lab.example.net\": NSExceptionAllowsInsecureHTTPLoads = true allows "
                    + "plaintext: an ATS exception that App Review may ask you to justify",
                "  - NSExceptionDomains entry \"vault.example.net\": NSExceptionMinimumTLSVersion = TLSv1.3 cannot be "
                    + "met by an encrypted game, which uses TLS 1.2 (its pre-shared-key cipher suite exists only in "
                    + "TLS 1.2)",
            ]
        let lines = ManifestReport.read(manifest: manifest).text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.map(String.init), expected)
    }

    /// `manifest --json` of a manifest without a policy: one line, every key, the default rules.
    func testTheJSONOfAManifestWithoutAPolicyHasEveryKey() throws {
        let directory = try makeTemporaryDirectory(self)
        let json = try ManifestReport.read(manifest: try plainManifest(in: directory)).json()
        XCTAssertFalse(json.contains("\n"), json)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(
            Set(object.keys),
            [
                "manifest_path", "display_name", "usage_description", "usage_description_missing", "bonjour_services",
                "transport_security", "game_connections", "entitlements_file", "entitlements", "entitlements_error",
                "warnings",
            ])
        XCTAssertEqual(object["manifest_path"] as? String, directory + "/Info.plist")
        XCTAssertTrue(object["entitlements"] is NSNull)
        XCTAssertEqual(object["warnings"] as? [String], [])
        let security = try XCTUnwrap(object["transport_security"] as? [String: Any])
        XCTAssertEqual(security["declared"] as? Bool, false)
        let connections = try XCTUnwrap(object["game_connections"] as? [[String: Any]])
        XCTAssertEqual(
            connections.map { $0["destination"] as? String },
            ["loopback", "ip-address", "unqualified-name", "local-name", "other-name"])
        XCTAssertEqual(connections.map { $0["plaintext_game"] as? Bool }, [true, false, false, false, false])
        XCTAssertEqual(connections.map { $0["encrypted_game"] as? Bool }, [true, true, true, true, true])
    }

    func testTheProjectManifestHasNoWarningsAndNeedsEncryptionOffLoopback() throws {
        let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Assets").path
        let report = ManifestReport.read(manifest: try AppManifest(contentsOf: assets + "/Info.plist", logger: quiet))
        XCTAssertEqual(report.warnings, [])
        XCTAssertEqual(
            report.text,
            """
            App manifest \(assets)/Info.plist
              app:                TicTacToe
              usage description:  TicTacToe uses the local network to discover players around you.
              Bonjour services:   _tictactoe._tcp
              entitlements:       \(assets)/TicTacToe.entitlements
                com.apple.developer.networking.multicast = true
            App Transport Security (NSAppTransportSecurity): declared
              NSAllowsArbitraryLoads:             false
              NSAllowsLocalNetworking:            false
              NSAllowsArbitraryLoadsInWebContent: not set (not applicable: tictactoe has no web views)
              NSAllowsArbitraryLoadsForMedia:     not set (not applicable: tictactoe loads no media)
              NSExceptionDomains:                 none
            Game connections (plaintext: protocol 1; encrypted: protocol 2, TLS 1.2 with forward secrecy):
              loopback (127.0.0.0/8, ::1, localhost): plaintext and encrypted games (loopback is always allowed)
              IP addresses: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)
              unqualified names: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)
              .local names: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)
              other names: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)
            Warnings: none
            """)
        let json = try report.json()
        XCTAssertTrue(
            json.contains(
                #""entitlements":{"com.apple.developer.networking.multicast":true},"entitlements_error":null,"#
                    + #""entitlements_file":"\#(assets)/TicTacToe.entitlements""#), json)
    }

    func testLocalNetworkingArbitraryLoadsAndUnusableEntitlements() throws {
        let directory = try makeTemporaryDirectory(self)
        try write(
            plist(
                """
                <key>NSLocalNetworkUsageDescription</key><string>To play.</string>
                <key>NSBonjourServices</key><array><string>_tictactoe._tcp</string></array>
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSAllowsArbitraryLoads</key><true/>
                    <key>NSExceptionDomains</key>
                    <dict><key>localhost</key><dict/><key>10.0.0.0/8</key><dict><key>NSIncludesSubdomains</key><true/></dict></dict>
                </dict>
                """), to: directory + "/Info.plist")
        try write("not a plist", to: directory + "/TicTacToe.entitlements")
        let report = ManifestReport.read(manifest: try AppManifest(contentsOf: directory + "/Info.plist", logger: quiet))
        let lines = report.text.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("  NSAllowsArbitraryLoads:             true"), report.text)
        XCTAssertTrue(
            lines.contains(
                "  other names: plaintext and encrypted games (NSAllowsArbitraryLoads = true: no requirement)"),
            report.text)
        XCTAssertTrue(
            lines.contains("  localhost: plaintext and encrypted games (loopback is always allowed)"), report.text)
        XCTAssertTrue(
            lines.contains("  entitlements:       unusable: \(directory)/TicTacToe.entitlements (see the warnings)"),
            report.text)
        XCTAssertEqual(
            report.warnings,
            [
                "NSAllowsArbitraryLoads = true turns App Transport Security off for every destination without an "
                    + "exception domain: App Review asks for a justification; prefer NSAllowsLocalNetworking or an "
                    + "NSExceptionDomains entry",
                "NSExceptionDomains entry \"10.0.0.0/8\": NSIncludesSubdomains has no meaning for an IP address or "
                    + "range (ignored)",
                "NSExceptionDomains entry \"localhost\" has no effect: loopback is always allowed",
                "entitlements: cannot use the entitlements \(directory)/TicTacToe.entitlements: not a property list "
                    + "(\(entitlementsParseError(directory))). Fix the file, or remove it (no entitlements)",
            ])

        let other = try makeTemporaryDirectory(self)  // without the unusable entitlements
        let local = other + "/Info.plist"
        try write(
            plist(
                """
                <key>NSLocalNetworkUsageDescription</key><string>To play.</string>
                <key>NSBonjourServices</key><array><string>_tictactoe._tcp</string></array>
                <key>NSAppTransportSecurity</key><dict><key>NSAllowsLocalNetworking</key><true/></dict>
                """), to: local)
        let localReport = ManifestReport.read(manifest: try AppManifest(contentsOf: local, logger: quiet))
        let rows = localReport.text.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.contains(" games") }
        XCTAssertEqual(
            rows,
            [
                "  loopback (127.0.0.0/8, ::1, localhost): plaintext and encrypted games (loopback is always allowed)",
                "  IP addresses: plaintext and encrypted games (NSAllowsLocalNetworking = true: no requirement)",
                "  unqualified names: plaintext and encrypted games (NSAllowsLocalNetworking = true: no requirement)",
                "  .local names: plaintext and encrypted games (NSAllowsLocalNetworking = true: no requirement)",
                "  other names: encrypted games only (ATS default: TLS 1.2 or later with forward secrecy)",
            ])
        XCTAssertEqual(localReport.warnings, [])
    }

    /// What the property list parser says about "not a plist" (its words are Foundation's).
    private func entitlementsParseError(_ directory: String) -> String {
        do {
            _ = try AppEntitlements(path: directory + "/x", data: Data("not a plist".utf8))
        } catch let error as EntitlementsError {
            return String(error.reason.dropFirst("not a property list (".count).dropLast())
        } catch {}
        return "?"
    }

    // MARK: Exit code 14

    func testARefusedConnectionExitsWith14() throws {
        let manifest = AppManifest(
            path: "/test/Info.plist", displayName: "TicTacToe", usageDescription: nil,
            bonjourServices: ["_tictactoe._tcp"])
        XCTAssertThrowsError(try manifest.checkTransportSecurity(to: "192.168.1.20", security: .plaintextGame)) {
            XCTAssertEqual(ExitStatus(failure: $0), .transportSecurityRefused)
            XCTAssertEqual(($0 as? TransportSecurityRefusal)?.exitStatus, .transportSecurityRefused)
            XCTAssertEqual(ExitStatus(failure: $0).rawValue, 14)
        }
        XCTAssertNoThrow(try manifest.checkTransportSecurity(to: "192.168.1.20", security: .encryptedGame))
        XCTAssertNoThrow(try manifest.checkTransportSecurity(to: "localhost", security: .plaintextGame))
        XCTAssertEqual(ExitStatus.transportSecurityRefused.meaning, "refused by the manifest's transport security policy")
        XCTAssertTrue(
            ExitStatus.helpTable.contains("\n  14  refused by the manifest's transport security policy\n"),
            ExitStatus.helpTable)
    }

    /// The exit-code table of docs/HEADLESS.md lists every code of `ExitStatus`, and nothing else.
    func testTheDocsListEveryExitCode() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/HEADLESS.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let table = try XCTUnwrap(text.components(separatedBy: "## Exit codes\n").dropFirst().first)
        let codes = table.split(separator: "\n", omittingEmptySubsequences: false).drop { $0.isEmpty }
            .prefix { $0.hasPrefix("|") }
            .compactMap { line -> Int32? in
                guard line.hasPrefix("| ") else { return nil }
                return Int32(line.dropFirst(2).prefix { $0 != " " })
            }
        XCTAssertEqual(codes, ExitStatus.allCases.map(\.rawValue))
        XCTAssertTrue(table.contains("| 14 | "), "docs/HEADLESS.md: exit code 14")
    }
}
