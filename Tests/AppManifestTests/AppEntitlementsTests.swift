import Foundation
import TicTacToeTestSupport
import XCTest

@testable import AppManifest

/// `TicTacToe.entitlements` beside the manifest: none, its values, and a value of another type as an error naming
/// the key.
final class AppEntitlementsTests: XCTestCase {
    func testNoFileMeansNoneDeclared() throws {
        let directory = try makeTemporaryDirectory(self)
        let manifest = try writeManifest(standardEntries, in: directory)
        XCTAssertEqual(AppEntitlements.path(besideManifest: manifest), directory + "/TicTacToe.entitlements")
        XCTAssertNil(try AppEntitlements.load(besideManifest: manifest))
        let shipped = try XCTUnwrap(try AppEntitlements.load(besideManifest: assetsDirectory + "/Info.plist"))
        XCTAssertEqual(shipped.entries.map { "\($0.key) = \($0.value)" },
                       ["com.apple.developer.networking.multicast = true"], "the shipped app may use multicast")
        XCTAssertTrue(shipped.grants(AppEntitlements.multicastKey))
    }

    func testEveryKindOfValue() throws {
        let directory = try makeTemporaryDirectory(self)
        let manifest = try writeManifest(standardEntries, in: directory)
        let path = try writeManifest(
            [
                "com.apple.developer.networking.multicast": true,
                "com.apple.developer.team-identifier": "ABCDE12345",
                "com.example.count": 3,
                "com.apple.security.application-groups": ["group.a", "group.b"],
            ], in: directory, name: "TicTacToe.entitlements")
        let entitlements = try XCTUnwrap(try AppEntitlements.load(besideManifest: manifest))
        XCTAssertEqual(entitlements.path, path)
        XCTAssertEqual(
            entitlements.entries.map { "\($0.key) = \($0.value)" },
            [
                "com.apple.developer.networking.multicast = true",
                "com.apple.developer.team-identifier = \"ABCDE12345\"",
                "com.apple.security.application-groups = [\"group.a\", \"group.b\"]",
                "com.example.count = 3",
            ])
    }

    func testAnotherTypeIsAnErrorNamingTheKey() throws {
        let directory = try makeTemporaryDirectory(self)
        let manifest = try writeManifest(standardEntries, in: directory)
        let path = try writeManifest(
            ["com.example.ratio": 0.5], in: directory, name: "TicTacToe.entitlements")
        XCTAssertThrowsError(try AppEntitlements.load(besideManifest: manifest)) {
            XCTAssertEqual(
                "\($0)",
                "cannot use the entitlements \(path): com.example.ratio must be a Boolean, a <string>, an <integer> "
                    + "or an <array> of <string>, not <real> 0.5. Fix the file, or remove it (no entitlements)")
        }
    }
}
