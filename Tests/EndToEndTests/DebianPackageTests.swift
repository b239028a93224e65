import Foundation
import TicTacToeTestSupport
import XCTest

/// `scripts/deb.sh` (what `make deb` runs on the release build) run on the debug build into a temporary directory:
/// the control file and the file list, then the package unpacked into a temporary root (`dpkg-deb -x`, never
/// installed on this machine), where its binary prints the version and finds its manifest under `<root>/usr/share`.
/// Needs root (as the package's files are root's) and dpkg-dev; skipped without them, a failure with CI=true.
final class DebianPackageTests: XCTestCase {
    /// The checkout (Tests/EndToEndTests/ → ../..).
    private let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    private let maintainer = "Package Test <package-test@example.invalid>"

    /// Runs a program to its end in the checkout, Bonjour off: (status, standard output and error together).
    private func run(_ program: String, _ arguments: [String], environment extra: [String: String] = [:]) throws
        -> (status: Int32, output: String)
    {
        try runToEnd(program, arguments, in: checkout,
                     environment: ["TICTACTOE_BONJOUR": "off"].merging(extra) { $1 })
    }

    func testPackageOfTheDebugBuildUnpacksAndRuns() throws {
        let ci = ProcessInfo.processInfo.environment["CI"] == "true"
        for (missing, reason) in [(getuid() != 0, "not root"),
                                  (!FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-shlibdeps"),
                                   "no dpkg-shlibdeps (make deps installs dpkg-dev)")] where missing {
            if ci { XCTFail("DebianPackageTests: \(reason), and CI=true") }
            throw XCTSkip("DebianPackageTests: \(reason)")
        }
        let directory = Scratch.path("tictactoe-deb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let version = try run(checkout + "/scripts/version.sh", [])
        XCTAssertEqual(version.status, 0, version.output)
        let arch = try run("/usr/bin/dpkg", ["--print-architecture"])
        let built = try run(checkout + "/scripts/deb.sh", [".build/debug/tictactoe", ".build/man/debug", directory],
                            environment: ["DEB_MAINTAINER": maintainer])
        XCTAssertEqual(built.status, 0, built.output)
        let deb = directory + "/tictactoe_\(version.output.dropLast())_\(arch.output.dropLast()).deb"
        XCTAssertEqual(built.output.split(separator: "\n").last.map(String.init), deb, built.output)

        let info = try run("/usr/bin/dpkg-deb", ["-I", deb])
        XCTAssertEqual(info.status, 0, info.output)
        let fields = info.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for field in ["Package: tictactoe", "Version: \(version.output.dropLast())", "Maintainer: \(maintainer)",
                      "Recommends: avahi-daemon", "Section: games"] {
            XCTAssertTrue(fields.contains(field), "\(field) in \(info.output)")
        }
        let depends = fields.first { $0.hasPrefix("Depends: ") } ?? ""
        XCTAssertTrue(depends.contains("libc6"), info.output)
        XCTAssertTrue(depends.hasSuffix(", libavahi-compat-libdnssd1"), info.output)

        let contents = try run("/usr/bin/dpkg-deb", ["-c", deb])
        XCTAssertEqual(contents.status, 0, contents.output)
        let paths = Set(contents.output.split(separator: "\n").compactMap { $0.split(separator: " ").last }
            .map(String.init))
        for path in ["./usr/bin/tictactoe", "./usr/share/tictactoe/Info.plist", "./usr/share/tictactoe/VERSION",
                     "./usr/share/tictactoe/TicTacToe.entitlements", "./usr/share/tictactoe/engines/perfect.py",
                     "./usr/share/tictactoe/en.lproj/InfoPlist.strings", "./usr/share/man/man1/tictactoe.1.gz",
                     "./usr/share/man/man1/tictactoe.privacy.status.1.gz",
                     "./usr/share/bash-completion/completions/tictactoe",
                     "./usr/share/zsh/vendor-completions/_tictactoe",
                     "./usr/share/fish/vendor_completions.d/tictactoe.fish", "./usr/share/doc/tictactoe/copyright",
                     "./usr/share/doc/tictactoe/changelog.gz", "./usr/share/lintian/overrides/tictactoe"] {
            XCTAssertTrue(paths.contains(path), "\(path) in \(contents.output)")
        }
        XCTAssertEqual(paths.filter { $0 != "./" && !$0.hasPrefix("./usr/") }, [], contents.output)
        XCTAssertFalse(paths.contains("./usr/share/tictactoe/.installed-directories"), contents.output)

        let root = directory + "/root"
        let unpacked = try run("/usr/bin/dpkg-deb", ["-x", deb, root])
        XCTAssertEqual(unpacked.status, 0, unpacked.output)
        let home = ["HOME": directory + "/home", "XDG_STATE_HOME": directory + "/state",
                    "XDG_CONFIG_HOME": directory + "/config"]
        let shown = try run(root + "/usr/bin/tictactoe", ["--version"], environment: home)
        XCTAssertEqual(shown.status, 0, shown.output)
        XCTAssertEqual(shown.output, version.output)
        let status = try run(root + "/usr/bin/tictactoe", ["privacy", "status"], environment: home)
        XCTAssertEqual(status.status, 0, status.output)
        XCTAssertTrue(status.output.contains(root + "/usr/share/tictactoe/Info.plist"), status.output)
    }
}
