import Foundation
import TicTacToeTestSupport
import XCTest

/// `tictactoe browse --all-types` through the real executable, where no Bonjour is needed: without the multicast
/// entitlement beside the manifest it ends at once with exit 15 and asks nothing; with --watch it is a usage error.
/// The TUI's "All services on this network" (s on Search) goes through the same gate: ServiceTypesCoordinatorTests
/// and ServiceTypesScreenTests. (The list itself is checked against avahi-browse in the LAN lab:
/// LabTests/AllTypesLabTests.)
final class AllTypesCommandTests: XCTestCase {
    /// A directory with Info.plist (the shipped one, without entitlements beside it) and a fresh state directory.
    private func makeManifestWithoutEntitlements() throws -> (manifest: String, state: String) {
        let directory = Scratch.path("tictactoe-all-types-e2e-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Assets")
        let manifest = directory + "/Info.plist"
        try FileManager.default.copyItem(atPath: assets.appendingPathComponent("Info.plist").path, toPath: manifest)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/TicTacToe.entitlements"))
        return (manifest, directory + "/state")
    }

    private func run(_ arguments: [String], state: String) throws -> (Int32?, [String], String) {
        let process = try TicTacToeProcess(arguments + ["--log-file", state + "/tictactoe.log"],
                                           environment: ["XDG_STATE_HOME": state])
        defer { process.terminate() }
        let status = process.waitForExit(timeout: 30)
        return (status, process.output, process.standardError)
    }

    func testWithoutTheMulticastEntitlementItExits15AtOnceAndAsksNothing() throws {
        let (manifest, state) = try makeManifestWithoutEntitlements()
        // Not determined: any other LAN operation would ask (or wait); this one is refused before that.
        let (status, output, error) = try run(["browse", "--all-types", "--info-plist", manifest], state: state)
        XCTAssertEqual(status, 15, error)
        XCTAssertEqual(output, [])
        XCTAssertTrue(error.contains("the app is not entitled to com.apple.developer.networking.multicast"), error)
        XCTAssertTrue(error.contains(manifest.replacingOccurrences(of: "Info.plist", with: "TicTacToe.entitlements")),
                      error)
        XCTAssertFalse(error.contains("would like to find"), "no prompt: \(error)")
        XCTAssertFalse(error.lowercased().contains("waiting"), "no wait: \(error)")

        let (jsonStatus, json, _) = try run(["browse", "--all-types", "--json", "--info-plist", manifest], state: state)
        XCTAssertEqual(jsonStatus, 15)
        XCTAssertEqual(json.count, 1, "\(json)")
        XCTAssertTrue(json.first?.hasPrefix(#"{"event":"error","exit":15,"message":"cannot use the local network: the app is not entitled to com.apple.developer.networking.multicast"#) == true,
                      "\(json)")
        let log = (try? String(contentsOfFile: state + "/tictactoe.log", encoding: .utf8)) ?? ""
        XCTAssertTrue(log.contains("tictactoe browse --all-types"), "the gate logs who asked: \(log)")
    }

    func testAllTypesWithWatchIsAUsageError() throws {
        let (manifest, state) = try makeManifestWithoutEntitlements()
        let (status, _, error) = try run(["browse", "--all-types", "--watch", "--info-plist", manifest], state: state)
        XCTAssertEqual(status, 64, error)
        XCTAssertTrue(error.contains("--all-types lists the types once: it cannot be combined with --watch"), error)
    }
}
