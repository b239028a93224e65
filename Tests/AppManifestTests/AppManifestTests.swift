import Foundation
import XCTest

@testable import AppManifest
import TicTacToeTestSupport

final class AppManifestTests: XCTestCase {
    func testTheProjectManifest() throws {
        let manifest = try AppManifest(contentsOf: assetsDirectory + "/Info.plist")
        XCTAssertEqual(manifest.displayName, "TicTacToe")
        XCTAssertEqual(manifest.usageDescription, "TicTacToe uses the local network to discover players around you.")
        XCTAssertEqual(manifest.bonjourServices, ["_tictactoe._tcp"])
        XCTAssertFalse(manifest.usesDefaultUsageDescription)
        XCTAssertEqual(
            manifest.promptTitle(),
            "\u{201C}TicTacToe\u{201D} would like to find and connect to devices on your local network."
        )
        XCTAssertEqual(manifest.promptMessage(), "TicTacToe uses the local network to discover players around you.")
        XCTAssertTrue(manifest.declares(serviceType: "_tictactoe._tcp"))
        XCTAssertTrue(manifest.declares(serviceType: "_TicTacToe._tcp."), "case and a trailing dot do not matter")
        XCTAssertFalse(manifest.declares(serviceType: "_tictactoe._udp"))
    }

    func testTheManifestWithoutBonjourServices() throws {
        let manifest = try AppManifest(contentsOf: assetsDirectory + "/Info-NoBonjourServices.plist")
        XCTAssertEqual(manifest.displayName, "TicTacToe")
        XCTAssertEqual(manifest.bonjourServices, [])
        XCTAssertNotNil(manifest.usageDescription)
        XCTAssertFalse(manifest.declares(serviceType: "_tictactoe._tcp"))
    }

    func testMissingUsageDescriptionUsesTheDefaultAndWarns() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = try writeManifest(
            ["CFBundleDisplayName": "Noughts", "NSBonjourServices": ["_tictactoe._tcp"]], in: directory)
        let lines = Recorder<String>()
        let manifest = try AppManifest(contentsOf: path, logger: recordingLogger(lines))
        XCTAssertNil(manifest.usageDescription)
        XCTAssertTrue(manifest.usesDefaultUsageDescription)
        XCTAssertEqual(manifest.promptMessage(), AppManifest.defaultUsageDescription)
        XCTAssertEqual(
            manifest.promptTitle(),
            "\u{201C}Noughts\u{201D} would like to find and connect to devices on your local network."
        )
        XCTAssertTrue(
            lines.all.contains {
                $0.hasPrefix("warning") && $0.contains("NSLocalNetworkUsageDescription") && $0.contains(path)
            },
            "\(lines.all)"
        )
    }

    func testAnEmptyUsageDescriptionCountsAsMissing() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = try writeManifest(
            ["NSLocalNetworkUsageDescription": "   ", "NSBonjourServices": [String]()], in: directory)
        let manifest = try AppManifest(contentsOf: path)
        XCTAssertNil(manifest.usageDescription)
        XCTAssertEqual(manifest.promptMessage(), AppManifest.defaultUsageDescription)
    }

    func testMissingBonjourServicesIsEmptyAndWarns() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = try writeManifest(["NSLocalNetworkUsageDescription": "To play."], in: directory)
        let lines = Recorder<String>()
        let manifest = try AppManifest(contentsOf: path, logger: recordingLogger(lines))
        XCTAssertEqual(manifest.bonjourServices, [])
        XCTAssertFalse(manifest.declares(serviceType: "_tictactoe._tcp"))
        XCTAssertTrue(
            lines.all.contains { $0.hasPrefix("warning") && $0.contains("no NSBonjourServices") }, "\(lines.all)")
    }

    func testDisplayNameFallsBackToBundleNameThenTicTacToe() throws {
        let directory = try makeTemporaryDirectory(self)
        let named = try writeManifest(["CFBundleName": "Bundle"], in: directory, name: "a.plist")
        XCTAssertEqual(try AppManifest(contentsOf: named).displayName, "Bundle")
        let unnamed = try writeManifest(["NSBonjourServices": ["_x._tcp"]], in: directory, name: "b.plist")
        XCTAssertEqual(try AppManifest(contentsOf: unnamed).displayName, "TicTacToe")
    }

    func testWrongValueTypesAreInvalid() throws {
        let directory = try makeTemporaryDirectory(self)
        let services = try writeManifest(["NSBonjourServices": "_tictactoe._tcp"], in: directory, name: "a.plist")
        XCTAssertThrowsError(try AppManifest(contentsOf: services)) { error in
            guard case ManifestError.invalid(let path, let reason)? = error as? ManifestError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(path, services)
            XCTAssertTrue(reason.contains("NSBonjourServices"))
        }
        let usage = try writeManifest(["NSLocalNetworkUsageDescription": 42], in: directory, name: "b.plist")
        XCTAssertThrowsError(try AppManifest(contentsOf: usage)) { error in
            XCTAssertTrue("\(error)".contains("NSLocalNetworkUsageDescription"), "\(error)")
        }
    }

    func testNotAPropertyListIsInvalidAndNamesThePath() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = directory + "/Info.plist"
        try Data("this is not <xml".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try AppManifest(contentsOf: path)) { error in
            guard case ManifestError.invalid? = error as? ManifestError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains(path), "\(error)")
            XCTAssertTrue("\(error)".contains("--info-plist"), "says what to do: \(error)")
        }
        let array = directory + "/array.plist"
        try PropertyListSerialization.data(fromPropertyList: ["a"], format: .xml, options: 0).write(
            to: URL(fileURLWithPath: array))
        XCTAssertThrowsError(try AppManifest(contentsOf: array)) { error in
            XCTAssertTrue("\(error)".contains("<dict>"), "\(error)")
        }
    }

    func testAnUnreadableManifestIsAnErrorNamingIt() throws {
        // A directory where the file should be (permissions do not stop root, so this is the portable case).
        let directory = try makeTemporaryDirectory(self)
        let path = directory + "/Info.plist"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        XCTAssertThrowsError(try AppManifest.locate(explicitPath: path)) { error in
            guard case ManifestError.unreadable(let reported, _)? = error as? ManifestError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(reported, path)
            XCTAssertTrue("\(error)".contains("cannot read the app manifest \(path)"), "\(error)")
            XCTAssertTrue("\(error)".contains("it is a directory"), "\(error)")
        }
    }

    func testAMissingExplicitManifestNamesThePathAndTheOption() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = directory + "/nowhere/Info.plist"
        XCTAssertThrowsError(try AppManifest.locate(explicitPath: path)) { error in
            XCTAssertEqual(error as? ManifestError, .notFound(tried: [path], explicit: true))
            XCTAssertTrue("\(error)".contains(path), "\(error)")
            XCTAssertTrue("\(error)".contains("--info-plist"), "\(error)")
        }
    }

    func testCandidatePathsOrder() {
        XCTAssertEqual(
            AppManifest.candidatePaths(
                explicitPath: nil, executablePath: "/src/tt/.build/x86_64-unknown-linux-gnu/debug/tictactoe",
                sourceTreeManifest: "/src/tt/Assets/Info.plist"
            ),
            ["/src/tt/.build/x86_64-unknown-linux-gnu/share/tictactoe/Info.plist", "/src/tt/Assets/Info.plist"],
            "a development build (its executable inside the checkout) falls back to the checkout's Assets"
        )
        XCTAssertEqual(
            AppManifest.candidatePaths(
                explicitPath: "/mine.plist", executablePath: "/opt/tt/bin/tictactoe",
                sourceTreeManifest: "/src/Info.plist"
            ),
            ["/mine.plist"], "--info-plist is the only place looked at"
        )
        XCTAssertEqual(
            AppManifest.candidatePaths(explicitPath: nil, executablePath: nil, sourceTreeManifest: nil), []
        )
        XCTAssertEqual(AppManifest.sourceTreeManifestPath, assetsDirectory + "/Info.plist")
        // Read with readlink(2) (fast at start): the same answer as FileManager's.
        XCTAssertEqual(AppManifest.currentExecutablePath,
                       try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    }

    func testOnlyADevelopmentBuildFallsBackToTheSourceTree() {
        let source = "/src/tt/Assets/Info.plist"
        XCTAssertEqual(
            AppManifest.candidatePaths(
                explicitPath: nil, executablePath: "/opt/tt/bin/tictactoe", sourceTreeManifest: source),
            ["/opt/tt/share/tictactoe/Info.plist"], "an installed binary uses its prefix only"
        )
        XCTAssertEqual(
            AppManifest.candidatePaths(
                explicitPath: nil, executablePath: "/src/tt-other/.build/debug/tictactoe", sourceTreeManifest: source),
            ["/src/tt-other/.build/share/tictactoe/Info.plist"],
            "a sibling directory whose name starts alike is not the checkout"
        )
        XCTAssertEqual(
            AppManifest.candidatePaths(
                explicitPath: nil, executablePath: "/src/tt/../elsewhere/bin/tictactoe", sourceTreeManifest: source),
            ["/src/elsewhere/share/tictactoe/Info.plist"], "compared after standardizing, not as text"
        )
        XCTAssertEqual(
            AppManifest.candidatePaths(
                explicitPath: nil, executablePath: "/src/tt/tictactoe", sourceTreeManifest: source),
            ["/src/share/tictactoe/Info.plist", source], "anywhere inside the checkout counts"
        )
        XCTAssertEqual(
            AppManifest.candidatePaths(explicitPath: nil, executablePath: nil, sourceTreeManifest: source), [],
            "without a known executable there is no telling a development build: nothing is guessed"
        )
    }

    func testACheckoutReachedThroughASymbolicLinkIsStillADevelopmentBuild() throws {
        let directory = try makeTemporaryDirectory(self)
        let checkout = directory + "/checkout"
        try FileManager.default.createDirectory(atPath: checkout + "/.build/debug", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: checkout + "/Assets", withIntermediateDirectories: true)
        let source = try writeManifest(standardEntries, in: checkout + "/Assets")
        let executable = checkout + "/.build/debug/tictactoe"
        XCTAssertTrue(FileManager.default.createFile(atPath: executable, contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: checkout)
        // The module was compiled through the link, the executable runs from the real path (/proc/self/exe).
        let linkedSource = directory + "/link/Assets/Info.plist"
        XCTAssertEqual(
            AppManifest.candidatePaths(explicitPath: nil, executablePath: executable, sourceTreeManifest: linkedSource),
            [checkout + "/.build/share/tictactoe/Info.plist", linkedSource]
        )
        XCTAssertEqual(
            AppManifest.candidatePaths(
                explicitPath: nil, executablePath: directory + "/link/.build/debug/tictactoe",
                sourceTreeManifest: source
            ).last, source
        )
    }

    func testAnInstalledBinaryWithoutItsAssetsSaysWhereItLooked() throws {
        let directory = try makeTemporaryDirectory(self)
        let checkout = directory + "/checkout"
        try FileManager.default.createDirectory(atPath: checkout + "/Assets", withIntermediateDirectories: true)
        let source = try writeManifest(standardEntries, in: checkout + "/Assets")
        let candidates = AppManifest.candidatePaths(
            explicitPath: nil, executablePath: directory + "/prefix/bin/tictactoe", sourceTreeManifest: source)
        XCTAssertEqual(candidates, [directory + "/prefix/share/tictactoe/Info.plist"])
        XCTAssertThrowsError(try AppManifest.locate(explicitPath: nil, candidates: candidates)) { error in
            XCTAssertEqual(error as? ManifestError, .notFound(tried: candidates, explicit: false))
            XCTAssertTrue("\(error)".contains("no app manifest (Info.plist) found; tried"), "\(error)")
            XCTAssertFalse("\(error)".contains(source), "the checkout is not looked at: \(error)")
        }
    }

    func testLocateTakesTheFirstExistingCandidate() throws {
        let directory = try makeTemporaryDirectory(self)
        let installed = directory + "/prefix/share/tictactoe/Info.plist"
        let source = try writeManifest(["CFBundleDisplayName": "Source"], in: directory)
        let candidates = [installed, source]
        XCTAssertEqual(try AppManifest.locate(explicitPath: nil, candidates: candidates).displayName, "Source")

        try FileManager.default.createDirectory(
            atPath: directory + "/prefix/share/tictactoe", withIntermediateDirectories: true
        )
        _ = try writeManifest(["CFBundleDisplayName": "Installed"], in: directory + "/prefix/share/tictactoe")
        XCTAssertEqual(try AppManifest.locate(explicitPath: nil, candidates: candidates).displayName, "Installed")

        let explicit = try writeManifest(["CFBundleDisplayName": "Explicit"], in: directory, name: "Explicit.plist")
        XCTAssertEqual(try AppManifest.locate(explicitPath: explicit, candidates: candidates).displayName, "Explicit")
    }

    func testLocateDoesNotSkipABrokenInstalledManifest() throws {
        let directory = try makeTemporaryDirectory(self)
        let broken = directory + "/broken.plist"
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: broken))
        let good = try writeManifest(standardEntries, in: directory)
        XCTAssertThrowsError(try AppManifest.locate(explicitPath: nil, candidates: [broken, good])) { error in
            XCTAssertTrue("\(error)".contains(broken), "\(error)")
        }
    }

    func testNothingFoundListsEveryPathTried() throws {
        let directory = try makeTemporaryDirectory(self)
        let tried = [directory + "/share/tictactoe/Info.plist", directory + "/Assets/Info.plist"]
        XCTAssertThrowsError(try AppManifest.locate(explicitPath: nil, candidates: tried)) { error in
            XCTAssertEqual(error as? ManifestError, .notFound(tried: tried, explicit: false))
            for path in tried { XCTAssertTrue("\(error)".contains(path), "\(error)") }
            XCTAssertTrue("\(error)".contains("make install"), "says what to do: \(error)")
        }
    }

    func testLocateFindsTheSourceTreeManifestInDevelopmentBuilds() throws {
        // The test bundle is not installed, so <bin>/../share/tictactoe does not exist: the checkout's Assets win.
        XCTAssertEqual(try AppManifest.locate(explicitPath: nil).path, assetsDirectory + "/Info.plist")
    }

    /// A value's JSON text comes from the one encoder: keys sorted, `/` as it is, a bidi override escaped; a value
    /// JSON cannot hold is an error, never text that is not JSON.
    func testAValuesJSONTextIsTheOneEncoders() throws {
        let value = PropertyValue.dictionary(["b": .integer(2), "a": .string("x/y\u{202E}z"), "c": .null])
        XCTAssertEqual(try value.jsonText(), #"{"a":"x/y\u202ez","b":2,"c":null}"#)
        XCTAssertEqual(try PropertyValue.string("2").jsonText(), #""2""#)
        XCTAssertEqual(try PropertyValue.bool(true).jsonText(), "true")
        XCTAssertThrowsError(try PropertyValue.real(.nan).jsonText())
        XCTAssertThrowsError(try PropertyValue.array([.real(.infinity)]).jsonText())
    }
}
