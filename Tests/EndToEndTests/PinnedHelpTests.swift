import Foundation
import TicTacToeTestSupport
import XCTest

/// The full `--help` of every command, pinned in docs/help/*.txt (the texts the languages work translates, and a
/// newcomer's reference): each is compared line by line with what the binary prints at 80 columns, with HOME=/home/you
/// and no XDG variables. A change on purpose: `make help-docs`, read the diff, commit it.
final class PinnedHelpTests: XCTestCase {
    private static let helpDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/help")

    /// (file name, command words), from docs/help/COMMANDS, which Tests/help-docs reads too.
    private func commands() throws -> [(String, [String])] {
        let list = try String(contentsOf: Self.helpDirectory.appendingPathComponent("COMMANDS"), encoding: .utf8)
        return list.split(separator: "\n").map { line in
            let words = line.split(separator: " ").map(String.init)
            return (words[0], Array(words.dropFirst()))
        }
    }

    private func help(_ command: [String]) throws -> String {
        let process = try ChildProcess(
            executable: tictactoeBinary, command + ["--help"],
            environment: ["COLUMNS": "80", "HOME": "/home/you", "PATH": "/usr/bin:/bin"], input: .null)
        defer { process.terminate() }
        XCTAssertEqual(process.waitForExit(timeout: 30), 0, "tictactoe \(command.joined(separator: " ")) --help")
        return process.standardOutput
    }

    func testEveryCommandsHelpIsThePinnedText() throws {
        let commands = try commands()
        // Every command the top-level help lists has its file (and every privacy subcommand).
        XCTAssertEqual(Set(commands.map { $0.1.first ?? "" }),
                       ["", "play", "host", "join", "watch", "browse", "lobby", "match", "replay", "privacy", "manifest"])
        XCTAssertEqual(commands.filter { $0.1.first == "privacy" }.count, 6)
        for (file, command) in commands {
            let pinned = try String(contentsOf: Self.helpDirectory.appendingPathComponent("\(file).txt"), encoding: .utf8)
            let actual = try help(command)
            let name = (["tictactoe"] + command).joined(separator: " ")
            guard actual != pinned else { continue }
            let (a, p) = (actual.split(separator: "\n", omittingEmptySubsequences: false),
                          pinned.split(separator: "\n", omittingEmptySubsequences: false))
            let first = (0..<min(a.count, p.count)).first { a[$0] != p[$0] } ?? min(a.count, p.count)
            XCTFail("""
                \(name) --help differs from docs/help/\(file).txt at line \(first + 1) \
                (run `make help-docs` if the change is meant, and commit it):
                printed: \(first < a.count ? String(a[first]) : "<end>")
                pinned:  \(first < p.count ? String(p[first]) : "<end>")
                """)
        }
    }

    /// Help wraps at word boundaries within 80 columns: no line but the usage line is longer, and no example is
    /// broken over two lines (as "--json" once was, alone at the margin under a long example).
    func testHelpWrapsAtWordBoundariesWithin80Columns() throws {
        for (file, command) in try commands() {
            let lines = try help(command).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where !line.hasPrefix("USAGE: ") {
                XCTAssertLessThanOrEqual(line.count, 80, "\(file): \(line)")
                let example = ["  tictactoe ", "Example: tictactoe ", "Examples: tictactoe "].contains { line.hasPrefix($0) }
                guard example, index + 1 < lines.count else { continue }
                let next = lines[index + 1]
                XCTAssertTrue(next.isEmpty || next.hasPrefix("  tictactoe "), "\(file): an example goes on: \(next)")
            }
        }
    }
}
