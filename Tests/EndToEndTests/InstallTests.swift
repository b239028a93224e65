import Foundation
import TicTacToeTestSupport
import XCTest

/// `make install-files` and `make uninstall` into a temporary prefix, the way a Debian user runs them: the installed
/// binary runs from another directory and reads its prefix's manifest (never the checkout's), the man pages render
/// with `man -l`, the completions are in Debian's places, and uninstall takes away exactly what install put there.
///
/// No build here (`swift test` holds the .build lock): the binary is the one under test and the man pages are those
/// `make test` generated before `swift test` (`make man CONFIG=debug`, into .build/man/debug).
final class InstallTests: XCTestCase {
    /// The checkout (Tests/EndToEndTests/ → ../..).
    private let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    private var manPages: String { checkout + "/.build/man/debug" }

    private func makeDirectory() throws -> String {
        let path = Scratch.path("tictactoe-install-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Runs a program to its end: (status, standard output and error together), with Bonjour off and without what
    /// the make running these tests passes down, or what would redirect the install.
    private func run(
        _ program: String, _ arguments: [String], in directory: String? = nil,
        environment extra: [String: String] = [:], errors: Bool = true
    ) throws -> (status: Int32, output: String) {
        try runToEnd(
            program, arguments, in: directory, environment: ["TICTACTOE_BONJOUR": "off"].merging(extra) { $1 },
            removing: ["MAKEFLAGS", "MFLAGS", "MAKELEVEL", "DESTDIR", "PREFIX", "INSTALL_BIN", "MANPAGES", "CONFIG"],
            errors: errors)
    }

    private func make(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try run("/usr/bin/make", ["--no-print-directory", "-C", checkout] + arguments)
    }

    /// Every path under `root` (files, links and directories), relative to it.
    private func tree(_ root: String) -> Set<String> {
        Set(FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
    }

    /// man-db's `man`, or a skip (a failure with CI=true) when it is not installed.
    private func requireMan() throws {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") { return }
        let reason = "man-db is not installed (/usr/bin/man): run `make deps` to render the installed man pages"
        if ProcessInfo.processInfo.environment["CI"] == "true" { throw Missing(reason + " (CI=true: it must run)") }
        throw XCTSkip(reason)
    }

    private func requireManPages() throws -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: manPages)) ?? []
        let pages = files.filter { $0.hasSuffix(".1") }
        guard pages.contains("tictactoe.1") else {
            throw Missing(
                "no generated man pages in \(manPages): `make test` makes them before `swift test`; "
                    + "run `make man CONFIG=debug` first when running the tests with `swift test` alone")
        }
        return pages.sorted()
    }

    func testInstallRunFromElsewhereRenderTheManPageAndUninstall() throws {
        try requireMan()
        let pages = try requireManPages()
        let directory = try makeDirectory()
        let prefix = directory + "/prefix"
        // Someone else's files in the same prefix: uninstall must leave them and their directories alone.
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/share/man/man1", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: prefix + "/bin/other-tool", contents: Data("#!/bin/sh\n".utf8)))
        XCTAssertTrue(
            FileManager.default.createFile(atPath: prefix + "/share/man/man1/other.1", contents: Data(".TH OTHER 1\n".utf8)))
        let before = tree(prefix)

        let install = try make([
            "install-files", "PREFIX=" + prefix, "INSTALL_BIN=" + tictactoeBinary, "MANPAGES=" + manPages,
        ])
        XCTAssertEqual(install.status, 0, install.output)

        // Exactly these files, and the list of directories install created (for uninstall).
        let assets = tree(checkout + "/Assets").filter { !isDirectory(checkout + "/Assets/" + $0) }
        XCTAssertTrue(assets.contains("Info.plist"), "\(assets)")
        var expected: Set<String> = [
            "bin/tictactoe",
            "share/bash-completion/completions/tictactoe",
            "share/zsh/vendor-completions/_tictactoe",
            "share/fish/vendor_completions.d/tictactoe.fish",
            "share/tictactoe/.installed-directories",
            "share/tictactoe/VERSION",
        ]
        expected.formUnion(assets.map { "share/tictactoe/" + $0 })
        expected.formUnion(pages.map { "share/man/man1/" + $0 })
        let installedFiles = tree(prefix).subtracting(before).filter { !isDirectory(prefix + "/" + $0) }
        XCTAssertEqual(installedFiles, expected)
        for asset in assets {
            XCTAssertEqual(
                FileManager.default.contents(atPath: prefix + "/share/tictactoe/" + asset),
                FileManager.default.contents(atPath: checkout + "/Assets/" + asset), asset)
        }

        // The installed binary, run from another directory, reads its prefix's manifest.
        let elsewhere = directory + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let state = ["XDG_STATE_HOME": directory + "/state", "XDG_CONFIG_HOME": directory + "/config"]
        let installed = prefix + "/bin/tictactoe"
        let status = try run(installed, ["privacy", "status", "--json"], in: elsewhere, environment: state)
        XCTAssertEqual(status.status, 0, status.output)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any], status.output)
        XCTAssertEqual(object["manifest_path"] as? String, prefix + "/share/tictactoe/Info.plist")
        let text = try run(installed, ["privacy", "status"], in: elsewhere, environment: state)
        XCTAssertTrue(text.output.contains(prefix + "/share/tictactoe/Info.plist"), text.output)
        let manifest = try run(installed, ["manifest"], in: elsewhere, environment: state)
        XCTAssertEqual(manifest.status, 0, manifest.output)
        XCTAssertTrue(manifest.output.hasPrefix("App manifest \(prefix)/share/tictactoe/Info.plist"), manifest.output)
        let version = try run(installed, ["--version"], in: elsewhere, environment: state)
        XCTAssertEqual(version.status, 0, version.output)
        // The version scripts/version.sh gives this checkout (the commit's, past VERSION), from the prefix's VERSION.
        let expectedVersion = try run(checkout + "/scripts/version.sh", [], in: elsewhere, environment: [:])
        XCTAssertEqual(expectedVersion.status, 0, expectedVersion.output)
        XCTAssertEqual(version.output, expectedVersion.output)
        XCTAssertEqual(FileManager.default.contents(atPath: prefix + "/share/tictactoe/VERSION"),
                       Data(expectedVersion.output.utf8))
        let help = try run(installed, ["--help"], in: elsewhere, environment: state)
        XCTAssertEqual(help.status, 0, help.output)
        XCTAssertTrue(help.output.contains("USAGE: tictactoe"), help.output)

        // Without its assets the installed binary says where it looked (the prefix only), never the checkout's.
        try FileManager.default.moveItem(atPath: prefix + "/share/tictactoe", toPath: directory + "/moved-assets")
        let missing = try run(installed, ["privacy", "status", "--json"], in: elsewhere, environment: state)
        let missingObject = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(missing.output.utf8)) as? [String: Any], missing.output)
        let error = try XCTUnwrap(missingObject["manifest_error"] as? String, missing.output)
        XCTAssertTrue(
            error.hasPrefix("no app manifest (Info.plist) found; tried \(prefix)/share/tictactoe/Info.plist. "), error)
        XCTAssertFalse(error.contains(checkout + "/Assets"), error)
        try FileManager.default.moveItem(atPath: directory + "/moved-assets", toPath: prefix + "/share/tictactoe")

        // The completions, generated by the binary itself.
        let bash = try String(contentsOfFile: prefix + "/share/bash-completion/completions/tictactoe", encoding: .utf8)
        XCTAssertTrue(bash.contains("-F _tictactoe tictactoe"), String(bash.suffix(300)))
        let zsh = try String(contentsOfFile: prefix + "/share/zsh/vendor-completions/_tictactoe", encoding: .utf8)
        XCTAssertTrue(zsh.hasPrefix("#compdef tictactoe"), String(zsh.prefix(200)))
        let fish = try String(
            contentsOfFile: prefix + "/share/fish/vendor_completions.d/tictactoe.fish", encoding: .utf8)
        XCTAssertTrue(fish.contains("complete -c 'tictactoe'"), String(fish.prefix(200)))
        for subcommand in ["host", "join", "browse", "privacy"] {
            for script in [bash, zsh, fish] { XCTAssertTrue(script.contains(subcommand), subcommand) }
        }

        // The man page renders (groff's warnings about the page's blank lines aside), and `man` finds it, and the
        // page of each subcommand, by name in the prefix's man directory.
        let rendering = ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80", "LC_ALL": "C.UTF-8"]
        let page = try run(
            "/usr/bin/man", ["-l", prefix + "/share/man/man1/tictactoe.1"], in: elsewhere, environment: rendering,
            errors: false)
        XCTAssertEqual(page.status, 0, page.output)
        let lines = page.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let name = try XCTUnwrap(lines.firstIndex(of: "NAME"), page.output)
        XCTAssertEqual(lines[name + 1], "tictactoe — Terminal tic-tac-toe for two players on a LAN.", page.output)
        XCTAssertTrue(lines.contains("SYNOPSIS"), page.output)
        // The subcommand is optional: with none, `tictactoe` plays (argument-parser's defaultSubcommand).
        XCTAssertTrue(lines.contains("tictactoe [subcommand] [--version] [--help]"), page.output)
        let seeAlso = try XCTUnwrap(lines.firstIndex(of: "SEE ALSO"), page.output)
        let references = lines[(seeAlso + 1)...].joined(separator: " ")
        for subcommand in ["host", "join", "watch", "browse", "lobby", "play", "match", "replay", "privacy", "manifest"] {
            XCTAssertTrue(references.contains("tictactoe.\(subcommand)(1)"), "\(subcommand) in SEE ALSO: \(references)")
        }
        for (command, option) in [
            ("tictactoe.host", "--port"), ("tictactoe.privacy.status", "--json"), ("tictactoe.privacy.report", "--json"),
        ] {
            XCTAssertTrue(pages.contains(command + ".1"), "\(pages)")
            let sub = try run(
                "/usr/bin/man", ["-M", prefix + "/share/man", command], in: elsewhere, environment: rendering,
                errors: false)
            XCTAssertEqual(sub.status, 0, sub.output)
            XCTAssertTrue(sub.output.contains("NAME"), sub.output)
            XCTAssertTrue(sub.output.contains(command.replacingOccurrences(of: ".", with: " ") + " — "), sub.output)
            XCTAssertTrue(sub.output.contains(option), sub.output)
        }
        let byName = try run(
            "/usr/bin/man", ["-M", prefix + "/share/man", "tictactoe"], in: elsewhere, environment: rendering,
            errors: false)
        XCTAssertEqual(byName.status, 0, byName.output)
        XCTAssertEqual(byName.output, page.output, "man tictactoe shows the installed page")

        // Uninstall leaves what was there before, and nothing of ours.
        let uninstall = try make(["uninstall", "PREFIX=" + prefix])
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertEqual(tree(prefix), before)
    }

    func testDestDirStagesUnderItAndAPrefixMadeByInstallGoesWithUninstall() throws {
        let pages = try requireManPages()
        let directory = try makeDirectory()
        let stage = directory + "/stage"
        let install = try make([
            "install-files", "DESTDIR=" + stage, "PREFIX=/opt/tictactoe", "INSTALL_BIN=" + tictactoeBinary,
            "MANPAGES=" + manPages,
        ])
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: stage + "/opt/tictactoe/bin/tictactoe"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: stage + "/opt/tictactoe/share/tictactoe/Info.plist"))
        for page in pages {
            XCTAssertTrue(FileManager.default.fileExists(atPath: stage + "/opt/tictactoe/share/man/man1/" + page), page)
        }
        // The directories install created are recorded without DESTDIR (a staged tree is installed elsewhere).
        let record = try String(
            contentsOfFile: stage + "/opt/tictactoe/share/tictactoe/.installed-directories", encoding: .utf8)
        XCTAssertTrue(record.split(separator: "\n").contains("/opt/tictactoe/share/bash-completion"), record)
        XCTAssertFalse(record.contains(stage), record)
        // A second install over the first keeps the record (the directories exist now, but install made them).
        XCTAssertEqual(try make(["install-files", "DESTDIR=" + stage, "PREFIX=/opt/tictactoe",
            "INSTALL_BIN=" + tictactoeBinary, "MANPAGES=" + manPages]).status, 0)

        let uninstall = try make(["uninstall", "DESTDIR=" + stage, "PREFIX=/opt/tictactoe"])
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertEqual(tree(stage), [], "the prefix install created goes too; the stage directory stays")
        XCTAssertTrue(isDirectory(stage))
    }

    /// Why the test cannot run (a failure, with what to do).
    private struct Missing: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
