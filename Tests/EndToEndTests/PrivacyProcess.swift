import Foundation
import TicTacToeTestSupport
import XCTest

// The built `tictactoe` binary run through TestSupport's process harness, to completion.


/// Whether the built binary has the `privacy` command (checked once: `privacy status --json` prints a state).
let binaryHasPrivacyCommand: Bool = {
    guard FileManager.default.isExecutableFile(atPath: tictactoeBinary) else { return false }
    let directory = Scratch.path("tictactoe-privacy-probe-" + UUID().uuidString)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    guard let run = try? runTicTacToe(["privacy", "status", "--json"], configDirectory: directory), run.status == 0,
        let object = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    else { return false }
    return object["state"] is String
}()

/// Fails the test (and skips the rest of it) when the binary has not been built, or was built without the
/// `privacy` command.
func requireBinary(file: StaticString = #filePath, line: UInt = #line) throws {
    guard FileManager.default.isExecutableFile(atPath: tictactoeBinary) else {
        XCTFail(
            "no tictactoe binary at \(tictactoeBinary): build the package first (swift build)", file: file, line: line)
        throw XCTSkip("no binary")
    }
    guard binaryHasPrivacyCommand else {
        XCTFail(
            "\(tictactoeBinary) has no `privacy` command: Sources/tictactoe/Privacy.swift must be built in (the tictactoe "
                + "target depends on LocalNetworkPrivacy, and TicTacToe.swift lists Privacy.self)",
            file: file, line: line
        )
        throw XCTSkip("no privacy command")
    }
}

/// A finished `tictactoe` run.
struct Run {
    var status: Int32
    var output: String
    var error: String
}

/// Starts `tictactoe ARGUMENTS` with TICTACTOE_CONFIG_DIR set.
func startTicTacToe(_ arguments: [String], configDirectory: String) throws -> ChildProcess {
    try ChildProcess(arguments, environment: [
        "TICTACTOE_CONFIG_DIR": configDirectory,
        "XDG_STATE_HOME": Scratch.path("tictactoe-privacy-tests-state"),
    ], input: .null)
}

extension ChildProcess {
    /// Waits for the end (killing it after `timeout` seconds, which fails the run with status -1).
    func finish(timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) -> Run {
        let status = waitForExit(timeout: timeout, file: file, line: line)
        if status == nil { terminate() }
        return Run(status: status ?? -1, output: standardOutput, error: standardError)
    }
}

/// Runs `tictactoe ARGUMENTS` with TICTACTOE_CONFIG_DIR set and waits for it.
func runTicTacToe(_ arguments: [String], configDirectory: String) throws -> Run {
    try startTicTacToe(arguments, configDirectory: configDirectory).finish()
}
