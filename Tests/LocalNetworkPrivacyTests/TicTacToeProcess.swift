import Foundation
import TicTacToeTestSupport
import XCTest

// A small copy of Tests/EndToEndTests/TicTacToeProcess.swift: runs the built `tictactoe` binary to completion.


/// Whether the built binary has the `privacy` command (checked once: `privacy status --json` prints a state).
let binaryHasPrivacyCommand: Bool = {
    guard FileManager.default.isExecutableFile(atPath: tictactoeBinary) else { return false }
    let directory = NSTemporaryDirectory() + "tictactoe-privacy-probe-" + UUID().uuidString
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

/// A started `tictactoe` process, with its output going to files (so many can run at once without pipes filling).
final class StartedRun {
    let process = Process()
    private let outPath: String
    private let errPath: String

    init(_ arguments: [String], configDirectory: String, environment extra: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: tictactoeBinary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TICTACTOE_CONFIG_DIR"] = configDirectory
        environment["XDG_STATE_HOME"] = NSTemporaryDirectory() + "tictactoe-privacy-tests-state"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let base = NSTemporaryDirectory() + "tictactoe-privacy-run-" + UUID().uuidString
        outPath = base + ".out"
        errPath = base + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the end (killing it after `timeout` seconds, which fails the run with status -1).
    func finish(timeout: TimeInterval = 60) -> Run {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        var status: Int32 = -1
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        } else {
            process.waitUntilExit()
            status = process.terminationStatus
        }
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return Run(status: status, output: output, error: error)
    }
}

/// Runs `tictactoe ARGUMENTS` with TICTACTOE_CONFIG_DIR set and waits for it.
func runTicTacToe(_ arguments: [String], configDirectory: String) throws -> Run {
    try StartedRun(arguments, configDirectory: configDirectory).finish()
}
