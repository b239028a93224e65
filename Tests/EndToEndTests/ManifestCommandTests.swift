import Foundation
import TicTacToeTestSupport
import XCTest

/// `tictactoe manifest` through the real executable: a malformed policy or no manifest ends the command with exit 12
/// and the reason on stderr. The report itself is tested in process (`ManifestReportTests`), the help is pinned
/// (`PinnedHelpTests`).
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
}
