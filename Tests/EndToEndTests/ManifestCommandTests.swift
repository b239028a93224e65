import Foundation
import TicTacToeTestSupport
import XCTest

/// `tictactoe manifest` through the real executable: the whole text for a fixed manifest in a temporary directory,
/// the JSON keys, a malformed policy (exit 12 naming the key), the help, and exit code 14 in `tictactoe --help`.
final class ManifestCommandTests: XCTestCase {
    private func makeDirectory() throws -> String {
        let path = Scratch.path("tictactoe-manifest-e2e-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func writeManifest(_ body: String, in directory: String) throws -> String {
        let path = directory + "/Info.plist"
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <key>CFBundleDisplayName</key><string>TicTacToe</string>
                <key>NSLocalNetworkUsageDescription</key><string>To find players around you.</string>
                <key>NSBonjourServices</key><array><string>_tictactoe._tcp</string></array>
            \(body)
            </dict>
            </plist>
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs `tictactoe ARGUMENTS` to its end: (exit code, stdout lines, stderr).
    private func run(_ arguments: [String], directory: String) throws -> (Int32?, [String], String) {
        let process = try TicTacToeProcess(arguments + ["--log-file", directory + "/tictactoe.log"])
        defer { process.terminate() }
        let status = process.waitForExit(timeout: 30)
        return (status, process.output, process.standardError)
    }

    func testTheReportOfAFixedManifest() throws {
        let directory = try makeDirectory()
        let path = try writeManifest(
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
        let (status, output, error) = try run(["manifest", "--info-plist", path], directory: directory)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            output,
            [
                "App manifest \(path)",
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
            ])
        XCTAssertEqual(error, "")
    }

    func testJSONHasEveryKey() throws {
        let directory = try makeDirectory()
        let path = try writeManifest("", in: directory)
        let (status, output, error) = try run(["manifest", "--json", "--info-plist", path], directory: directory)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(output.count, 1, "\(output)")
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data((output.first ?? "").utf8)) as? [String: Any])
        XCTAssertEqual(
            Set(object.keys),
            [
                "manifest_path", "display_name", "usage_description", "usage_description_missing", "bonjour_services",
                "transport_security", "game_connections", "entitlements_file", "entitlements", "entitlements_error",
                "warnings",
            ])
        XCTAssertEqual(object["manifest_path"] as? String, path)
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

    func testAMalformedPolicyOrNoManifestExitsWith12NamingTheKey() throws {
        let directory = try makeDirectory()
        let path = try writeManifest(
            """
                <key>NSAppTransportSecurity</key>
                <dict>
                    <key>NSExceptionDomains</key>
                    <dict><key>lab.example.net</key><dict><key>NSExceptionMinimumTLSVersion</key><string>1.2</string></dict></dict>
                </dict>
            """, in: directory)
        var (status, output, error) = try run(["manifest", "--info-plist", path], directory: directory)
        XCTAssertEqual(status, 12)
        XCTAssertEqual(output, [])
        XCTAssertEqual(
            error,
            "tictactoe: the app manifest \(path) is not valid: NSExceptionMinimumTLSVersion of the exception domain "
                + "\"lab.example.net\" (in NSAppTransportSecurity's NSExceptionDomains) must be one of TLSv1.0, "
                + "TLSv1.1, TLSv1.2, TLSv1.3, not \"1.2\". Fix it (see Assets/Info.plist), or pass --info-plist PATH\n")

        (status, output, error) = try run(["manifest", "--info-plist", directory + "/none.plist"], directory: directory)
        XCTAssertEqual(status, 12)
        XCTAssertTrue(error.contains("cannot read the app manifest \(directory)/none.plist"), error)
    }

    func testTheHelpExplainsTheKeysAndTheExitCodes() throws {
        func help(_ arguments: [String]) throws -> String {
            let process = try TicTacToeProcess(arguments + ["--help"])
            defer { process.terminate() }
            XCTAssertEqual(process.waitForExit(timeout: 30), 0, process.standardError)
            let output = process.output
            // The help is wrapped to the terminal's width: compare with the words on one line.
            return output.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let manifest = try help(["manifest"])
        for needle in [
            "NSAllowsLocalNetworking = true: IP addresses, unqualified names (no dot) and .local names may be plaintext",
            "ignored when NSAllowsLocalNetworking, NSAllowsArbitraryLoadsInWebContent or NSAllowsArbitraryLoadsForMedia "
                + "is present",
            "NSIncludesSubdomains also the names one level below it",
            "NSExceptionMinimumTLSVersion (TLSv1.0 to TLSv1.3, default TLSv1.2)",
            "a destination that requires TLSv1.3 admits no game",
            "12 the manifest is missing, unreadable or not valid",
            "--info-plist <path>",
        ] {
            XCTAssertTrue(manifest.contains(needle), "manifest --help lacks \(needle):\n\(manifest)")
        }
        let top = try help([])
        XCTAssertTrue(top.contains("14 refused by the manifest's transport security policy"), top)
        XCTAssertTrue(top.contains("manifest Show what the app manifest (Info.plist) declares"), top)
    }
}
