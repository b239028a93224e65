import Foundation
import TicTacToeTestSupport
import XCTest

/// What the built binary links and loads (the import rules in Sources are `ImportBoundaryTests`'): FoundationEssentials
/// without ICU, and Avahi's dns_sd library only when Bonjour is used.
final class BinaryLibrariesTests: XCTestCase {
    /// What the built binary loads: FoundationEssentials, not Foundation, FoundationInternationalization or ICU (a
    /// dependency that imported Foundation would bring them back without any import in Sources/).
    func testTheBinaryDoesNotLoadFoundationOrICU() throws {
        let output = try runCapturing(["/usr/bin/ldd", tictactoeBinary])
        let libraries = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertFalse(libraries.isEmpty, "ldd printed nothing for \(tictactoeBinary)")
        let unwanted = libraries.filter { line in
            ["libFoundation.so", "libFoundationInternationalization", "_FoundationICU", "libFoundationNetworking",
             "libFoundationXML"].contains { line.contains($0) }
        }
        XCTAssertEqual(unwanted, [], "the binary loads all of Foundation:\n\(output)")
    }

    /// The libraries Avahi's dns_sd compatibility library brings (itself, avahi-client, D-Bus, systemd).
    private static let dnssdLibraries = ["libdns_sd", "libavahi-client", "libavahi-common", "libdbus-1", "libsystemd"]

    /// Avahi's dns_sd library is not linked: the Bonjour module loads it (dlopen) when Bonjour is first used, so the
    /// binary needs neither it nor what it pulls in (start-up time and resident memory).
    func testTheBinaryDoesNotLinkTheDNSSDLibrary() throws {
        let output = try runCapturing(["/usr/bin/ldd", tictactoeBinary])
        XCTAssertFalse(output.isEmpty, "ldd printed nothing for \(tictactoeBinary)")
        let linked = output.split(separator: "\n").filter { line in Self.dnssdLibraries.contains { line.contains($0) } }
        XCTAssertEqual(linked, [], "the binary links Avahi's dns_sd library (or its dependencies):\n\(output)")
    }

    /// Commands that use no Bonjour never load the dns_sd library: what the dynamic loader opens (LD_DEBUG=files, on
    /// standard error) for --version, --help, a usage error, privacy status, line mode against the computer and a
    /// join by address (to a closed loopback port). Bonjour stays off (TICTACTOE_BONJOUR=off) as in every test outside
    /// the LAN lab; none of these would touch it anyway.
    func testCommandsWithoutBonjourDoNotLoadTheDNSSDLibrary() throws {
        let directory = URL(fileURLWithPath: Scratch.path("tictactoe-dnssd-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "files"
        environment["TICTACTOE_BONJOUR"] = "off"
        environment["LANGUAGE"] = "en"
        environment["HOME"] = directory.path
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        let commands: [[String]] = [
            ["--version"], ["--help"], ["host", "--no-such-option"], ["privacy", "status"],
            ["play", "--plain", "--seed", "1"], ["join", "127.0.0.1:9", "--headless", "--connect-timeout", "0.1"],
        ]
        for arguments in commands {
            let trace = try runCapturing([tictactoeBinary] + arguments, environment: environment, standardError: true)
            XCTAssertTrue(
                trace.contains("file="), "LD_DEBUG=files printed nothing for \(arguments): \(trace.prefix(500))")
            let loaded = trace.split(separator: "\n").filter { line in
                line.contains("file=") && Self.dnssdLibraries.contains { line.contains($0) }
            }
            XCTAssertEqual(loaded, [], "tictactoe \(arguments.joined(separator: " ")) loaded the dns_sd library")
        }
    }

    /// Runs a program (standard input empty) to its end and returns its standard output, or its standard error.
    private func runCapturing(
        _ arguments: [String], environment: [String: String]? = nil, standardError: Bool = false
    ) throws -> String {
        let process = try ChildProcess(
            executable: arguments[0], Array(arguments.dropFirst()),
            environment: environment ?? ProcessInfo.processInfo.environment, input: .null)
        defer { process.terminate() }
        XCTAssertNotNil(process.waitForExit(timeout: 60), "\(arguments) still runs")
        return standardError ? process.standardError : process.standardOutput
    }
}
