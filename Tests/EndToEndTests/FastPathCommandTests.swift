import Foundation
import TicTacToeTestSupport
import XCTest

/// The two command lines the binary runs before argument-parser (`FastPath`): `tictactoe --version` prints
/// exactly what argument-parser printed for it, and `tictactoe` with no terminal plays the line-mode game as
/// `tictactoe play` does. Any other line is argument-parser's, unchanged (the pinned help: PinnedHelpTests).
final class FastPathCommandTests: ProcessTestCase {
    /// Runs the binary with standard input from /dev/null; returns its status and its exact output bytes.
    private func run(_ arguments: [String]) throws -> (status: Int32?, output: [UInt8], error: String) {
        let process = try TicTacToeProcess(arguments, input: .null)
        defer { process.terminate() }
        let status = process.waitForExit(timeout: 30)
        return (status, Array(process.standardOutput.utf8), process.standardError)
    }

    /// `tictactoe --version` alone is the fast path: the version and a newline, nothing on standard error, exit 0,
    /// byte for byte what argument-parser printed before.
    func testVersionPrintsExactlyTheVersionAndANewline() throws {
        let result = try run(["--version"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(result.output, Array("0.1.0\n".utf8))
        XCTAssertEqual(result.error, "")
    }

    /// `--version` with other arguments still goes to argument-parser, which prints the same; `-V` is no spelling
    /// of it (argument-parser's usage error, as before).
    func testOtherVersionLinesAreArgumentParsers() throws {
        for arguments in [["--version", "--version"], ["--plain", "--version"], ["--version", "--plain"],
                          ["play", "--version"], ["help", "--version"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.error)")
            XCTAssertEqual(result.output, Array("0.1.0\n".utf8), "\(arguments)")
            XCTAssertEqual(result.error, "", "\(arguments)")
        }
        for spelling in ["-V", "-v", "--versio"] {
            let result = try run([spelling])
            XCTAssertEqual(result.status, 64, "\(spelling): \(result.error)")
            XCTAssertEqual(result.output, [], spelling)
            let lines = result.error.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "Error: Unknown option '\(spelling)'", result.error)
            XCTAssertEqual(lines.last, "  See 'tictactoe play --help' for more information.", result.error)
        }
    }

    /// `tictactoe` with no terminal (the fast path) starts the line-mode game, exactly as `tictactoe play` does
    /// (argument-parser's way): the same lines up to the first prompt, and `q` ends it with exit 0.
    func testNoArgumentsWithoutATerminalPlaysTheLineGameAsPlayDoes() throws {
        var transcripts: [[String]] = []
        for arguments in [[], ["play"]] {
            let game = track(try TicTacToeProcess(arguments))
            XCTAssertNotNil(game.waitForLine { $0.hasPrefix("Game 1: ") }, "\(arguments): \(game.standardError)")
            game.writeInput("q\n")
            XCTAssertEqual(game.waitForExit(timeout: 30), 0, "\(arguments): \(game.standardError)")
            XCTAssertEqual(game.standardError, "", "\(arguments)")
            let lines = game.output
            XCTAssertEqual(lines.first, "Tic-tac-toe against the computer (perfect). Cells are numbered like a phone "
                + "keypad (1 top-left, 9 bottom-right).", "\(arguments): \(lines)")
            XCTAssertTrue(lines.last?.hasSuffix("Bye. Score: you 0, computer 0, draws 0") == true,
                          "\(arguments): \(lines)")
            transcripts.append(lines)
        }
        XCTAssertEqual(transcripts[0], transcripts[1], "tictactoe and tictactoe play differ")
    }
}
