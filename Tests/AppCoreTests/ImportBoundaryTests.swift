import Foundation
import TicTacToeTestSupport
import XCTest

/// The C libraries stay behind their wrappers: only `Sources/Bonjour/` imports `CDNSSD` (Avahi's dns_sd
/// compatibility library), only `Sources/CursesTerminal/` imports `CNCurses` (ncursesw), only `Sources/GamePairing/`
/// imports `CSodium` (libsodium) and only `Sources/GameTransport/` imports `NIOSSL` (BoringSSL). Everything else uses the
/// Swift API of those targets. And the module graph: each module imports only what its target declares in
/// Package.swift, and the graph keeps its seams. Reads the sources as text: no build setting can hide an import from it
/// (what the built binary links and loads is `BinaryLibrariesTests`').
final class ImportBoundaryTests: XCTestCase {
    /// A C module and the only folder (relative to the package root) whose files may import it.
    private static let boundaries: [(module: String, folder: String)] = [
        ("CDNSSD", "Sources/Bonjour/"),
        ("CNCurses", "Sources/CursesTerminal/"),
        ("CSodium", "Sources/GamePairing/"),
        // BoringSSL through NIOSSL: TLS is the transport's business alone.
        ("NIOSSL", "Sources/GameTransport/"),
    ]

    /// `import M`, `@_implementationOnly import M`, `internal import M`, `@preconcurrency public import M`,
    /// `import struct M.Name`, `import M.Submodule`, … at the start of a line (a comment is not an import).
    private static func importPattern(_ module: String) throws -> NSRegularExpression {
        try NSRegularExpression(
            pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"#
                + #"(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?"#
                + NSRegularExpression.escapedPattern(for: module) + #"(?![\w])"#,
            options: [.anchorsMatchLines])
    }

    /// The package root: this file is `<root>/Tests/AppCoreTests/ImportBoundaryTests.swift`.
    private static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Every `.swift` file under `folder` (`Sources/` by default), as (path relative to the package root, contents),
    /// sorted by path.
    private func swiftSources(under folder: String = "Sources") throws -> [(path: String, text: String)] {
        let root = Self.packageRoot.standardizedFileURL.path
        let sources = Self.packageRoot.appendingPathComponent(folder)
        let enumerator = try XCTUnwrap(
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: [.isRegularFileKey]),
            "cannot list \(sources.path)")
        var files: [(path: String, text: String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let full = url.standardizedFileURL.path
            let relative = full.hasPrefix(root + "/") ? String(full.dropFirst(root.count + 1)) : full
            files.append((relative, try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The 1-based numbers of the lines of `text` that import `module`.
    private func importLines(of module: String, in text: String) throws -> [Int] {
        let pattern = try Self.importPattern(module)
        let ns = text as NSString
        return pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            ns.substring(to: match.range.location).utf16.filter { $0 == 0x0A }.count + 1
        }
    }

    func testCModulesAreImportedOnlyByTheirWrappers() throws {
        let files = try swiftSources()
        XCTAssertFalse(files.isEmpty, "no .swift file found under \(Self.packageRoot.path)/Sources")
        for (module, folder) in Self.boundaries {
            var importers: [String] = []
            for file in files {
                let lines = try importLines(of: module, in: file.text)
                guard !lines.isEmpty else { continue }
                importers.append(file.path)
                XCTAssertTrue(
                    file.path.hasPrefix(folder),
                    "\(file.path) imports \(module) (line \(lines.map(String.init).joined(separator: ", "))): only "
                        + "files under \(folder) may; use that target's Swift API instead")
            }
            XCTAssertFalse(
                importers.filter { $0.hasPrefix(folder) }.isEmpty,
                "no file under \(folder) imports \(module): the boundary check sees nothing (was the wrapper moved "
                    + "or renamed? update ImportBoundaryTests.boundaries)")
        }
    }

    /// Every target of Package.swift (targets, executables, system libraries) with the targets and products it
    /// declares as dependencies.
    private func declaredDependencies() throws -> [String: Set<String>] {
        let text = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try NSRegularExpression(
            pattern: #"\.(?:target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        // A target by name ("GameRules") or a product (.product(name: "NIOCore", package: "swift-nio")).
        let name = try NSRegularExpression(pattern: #"(?:^|,|name:)\s*"([^"]+)""#)
        let ns = text as NSString
        var declared: [String: Set<String>] = [:]
        for match in target.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            var dependencies: Set<String> = []
            if match.range(at: 2).location != NSNotFound {
                let list = ns.substring(with: match.range(at: 2))
                for found in name.matches(in: list, range: NSRange(location: 0, length: (list as NSString).length)) {
                    dependencies.insert((list as NSString).substring(with: found.range(at: 1)))
                }
            }
            declared[ns.substring(with: match.range(at: 1))] = dependencies
        }
        return declared
    }

    /// The modules a file imports, by name.
    private func importedModules(in text: String) throws -> Set<String> {
        let pattern = try NSRegularExpression(
            pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"#
                + #"(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)"#,
            options: [.anchorsMatchLines])
        let ns = text as NSString
        return Set(pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
            ns.substring(with: $0.range(at: 1))
        })
    }

    /// The graph in Package.swift holds in the sources and the tests: a module imports another of the package's
    /// targets, or a package product, only when its target declares it (SwiftPM lets a module import any module built
    /// before it, declared or not: a build that reuses a build directory passes, a clean one may not).
    func testModulesImportOnlyWhatTheirTargetDeclares() throws {
        let declared = try declaredDependencies()
        XCTAssertNotNil(declared["GameRules"], "no target read from Package.swift: update declaredDependencies()")
        XCTAssertNotNil(declared["GameRulesTests"], "no test target read from Package.swift")
        let known = Set(declared.keys).union(declared.values.flatMap { $0 })
        // The folders whose target is named otherwise.
        let targetOfFolder = ["TestSupport": "TicTacToeTestSupport"]
        var undeclared: [String] = []
        for file in try swiftSources() + swiftSources(under: "Tests") {
            let parts = file.path.split(separator: "/")
            guard parts.count > 2 else { continue }
            let target = targetOfFolder[String(parts[1])] ?? String(parts[1])
            guard let dependencies = declared[target] else { continue }
            for module in try importedModules(in: file.text) where module != target && known.contains(module)
                && !dependencies.contains(module) {
                undeclared.append("\(file.path) imports \(module)")
            }
        }
        XCTAssertEqual(undeclared, [], "declare the dependency in Package.swift (if the graph allows it)")
    }

    /// And the other way: every dependency a target declares is imported by one of its files, so that the graph in
    /// Package.swift (and its header) has no edge the code does not use.
    func testEveryDeclaredDependencyIsImported() throws {
        let declared = try declaredDependencies()
        let targetOfFolder = ["TestSupport": "TicTacToeTestSupport"]
        var imports: [String: Set<String>] = [:]
        for file in try swiftSources() + swiftSources(under: "Tests") {
            let parts = file.path.split(separator: "/")
            guard parts.count > 2 else { continue }
            imports[targetOfFolder[String(parts[1])] ?? String(parts[1]), default: []].formUnion(
                try importedModules(in: file.text))
        }
        XCTAssertFalse(imports.isEmpty, "no source read")
        var unused: [String] = []
        for (target, dependencies) in declared.sorted(by: { $0.key < $1.key }) {
            guard let imported = imports[target] else { continue }  // a system library: no Swift file
            unused += dependencies.subtracting(imported).sorted().map { "\(target) declares \($0)" }
        }
        XCTAssertEqual(unused, [], "remove the dependency from Package.swift (no file of the target imports it)")
    }

    /// Package.swift's header lists every module from the top down, and each imports only modules listed below it:
    /// the header draws the graph as it is.
    func testTheHeaderListsEveryModuleAboveWhatItImports() throws {
        let text = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let header = text.components(separatedBy: "import PackageDescription")[0]
        let entry = try NSRegularExpression(
            pattern: #"^//   ([A-Za-z][\w-]*(?:, [A-Za-z][\w-]*)*)  "#, options: [.anchorsMatchLines])
        let ns = header as NSString
        var position: [String: Int] = [:]
        for match in entry.matches(in: header, range: NSRange(location: 0, length: ns.length)) {
            for module in ns.substring(with: match.range(at: 1)).components(separatedBy: ", ") {
                position[module] = position[module] ?? position.count
            }
        }
        XCTAssertNotNil(position["GameRules"], "no module list read from Package.swift's header")
        let tools: Set<String> = ["transport-bench", "GameWireFuzzing"]
        var problems: [String] = []
        for file in try swiftSources() {
            let module = String(file.path.split(separator: "/")[1])
            guard !tools.contains(module) else { continue }
            guard let mine = position[module] else {
                problems.append("\(module) is not listed")
                continue
            }
            for imported in try importedModules(in: file.text).sorted() where imported != module {
                if let theirs = position[imported], theirs < mine {
                    problems.append("\(file.path) imports \(imported), which is listed above \(module)")
                }
            }
        }
        XCTAssertEqual(Array(Set(problems)).sorted(), [], "Package.swift's header: list each module above what it imports")
    }

    /// The seams of the graph (Package.swift's header) that keep the lower floors apart.
    func testTheGraphKeepsItsSeams() throws {
        let declared = try declaredDependencies()
        let seams: [(module: String, never: [String], why: String)] = [
            ("TerminalUI", ["GamePairing", "CSodium", "GameTransport", "Bonjour", "LocalNetworkPrivacy", "LobbyMulticast",
                            "NIOCore", "NIOPosix", "AppCore", "HeadlessUI", "AppProcess", "MatchPlay", "Series",
                            "JSONLines", "PrivacyCommands", "AppFiles"],
             "the TUI sees GameClient (and PairingCode to check a typed code), never libsodium, NIO, Bonjour, the gate "
                + "or the headless front end's and the app core's modules"),
            ("HeadlessUI", ["AppCore", "TerminalUI", "CursesTerminal", "Series", "Bonjour", "GameTransport",
                            "LobbyMulticast"],
             "the headless front end is the TUI's sibling: it reads the events, never the app core or the adapters"),
            ("GameProtocol", ["Localization", "NIOCore"], "the protocol is pure; its text helpers are TextSupport's"),
            ("Lobby", ["GameClient", "GameTransport", "LobbyMulticast", "Bonjour", "LocalNetworkPrivacy", "NIOCore",
                       "NIOPosix"],
             "the lobby is pure and below the interface: its driver in the app core carries out what it decides"),
            ("AppManifest", ["NIOCore", "LocalNetworkPrivacy", "PrivacyReport"], "the manifest is pure of the network"),
            ("PrivacyReport", ["LocalNetworkPrivacy", "NIOCore"], "the report's file knows nothing of the gate"),
            ("LocalNetworkPrivacy", ["Bonjour", "GameTransport", "LobbyMulticast"], "the gate depends on none of its users"),
            ("GameTransport", ["LobbyMulticast", "Bonjour"], "the lobby's multicast is an adapter of its own"),
        ]
        for (module, never, why) in seams {
            let dependencies = try XCTUnwrap(declared[module], "no target \(module) in Package.swift")
            XCTAssertEqual(dependencies.intersection(never), [], "\(module): \(why)")
        }
        for module in ["TextSupport", "PairingCode", "GameRules"] {
            XCTAssertEqual(declared[module], [], "\(module) imports nothing of the app or its packages")
        }
    }

    /// The app imports FoundationEssentials, never all of Foundation: Foundation brings ICU and its data, much of a
    /// host's resident memory and start time. Only the transport bench, a measuring tool that `make install` does not
    /// install, may.
    func testNoAppModuleImportsFoundation() throws {
        var importers: [String] = []
        for file in try swiftSources() where !file.path.hasPrefix("Sources/transport-bench/") {
            let lines = try importLines(of: "Foundation", in: file.text)
            importers += lines.map { "\(file.path):\($0)" }
        }
        XCTAssertEqual(
            importers, [],
            "import FoundationEssentials (and TextSupport's PathText, AppManifest's PropertyValue) instead")
    }

    /// SwiftNIO's shared group is reached through `EventLoops.group` alone (GameTransport), which settles its number
    /// of loops at the first use: code that took `MultiThreadedEventLoopGroup.singleton` first would fix NIO's per-core
    /// default, and the next `EventLoops.group` would then stop the process (SwiftNIO's setter traps once the group
    /// is in use). The tests too: whichever runs first in the test process decides.
    func testTheSharedEventLoopGroupIsReachedOnlyThroughEventLoops() throws {
        let allowed = "Sources/GameTransport/EventLoops.swift"
        var users: [String] = []
        for file in try swiftSources() + swiftSources(under: "Tests")
        where file.path != allowed && !file.path.hasSuffix("ImportBoundaryTests.swift") {
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("MultiThreadedEventLoopGroup.singleton") || line.contains("NIOSingletons") {
                users.append("\(file.path):\(number + 1)")
            }
        }
        XCTAssertEqual(users, [], "use EventLoops.group (GameTransport) instead")
        XCTAssertTrue(try String(contentsOf: Self.packageRoot.appendingPathComponent(allowed), encoding: .utf8)
            .contains("NIOSingletons.groupLoopCountSuggestion"), "\(allowed) no longer sets the loop count: update this test")
    }

    /// The matcher itself: every form of import counts, and look-alikes do not.
    func testTheMatcherSeesEveryFormOfImport() throws {
        let imports = [
            "import CDNSSD",
            "  import CDNSSD",
            "@_implementationOnly import CDNSSD",
            "internal import CDNSSD",
            "public import CDNSSD",
            "package import CDNSSD",
            "@preconcurrency import CDNSSD",
            "@preconcurrency internal import CDNSSD",
            "@testable import CDNSSD",
            "import struct CDNSSD.DNSServiceRef",
            "import func CDNSSD.DNSServiceRefDeallocate",
            "import CDNSSD.Submodule",
            "import CDNSSD // the C API",
        ]
        for line in imports {
            XCTAssertEqual(try importLines(of: "CDNSSD", in: "import Foundation\n\(line)\n"), [2], "not seen: \(line)")
        }
        let notImports = [
            "// import CDNSSD",
            "import CDNSSDExtras",
            "import Foundation",
            "let name = \"CDNSSD\"",
            "#if canImport(CDNSSD)",
        ]
        for line in notImports {
            XCTAssertEqual(try importLines(of: "CDNSSD", in: line), [], "taken for an import: \(line)")
        }
    }
}
