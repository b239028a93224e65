import Foundation
import TicTacToeTestSupport
import XCTest

/// Every file of the app follows the XDG variables of the process that runs, read at run time: with only `HOME`
/// set, the decision goes to `$HOME/.config/tictactoe` and the log to `$HOME/.local/state/tictactoe`, and a second
/// run with another `HOME` moves both (the log once stayed in the first HOME's state directory).
final class AppDirectoriesProcessTests: XCTestCase {
    /// Runs `tictactoe arguments` with exactly `environment` (and a PATH); returns its status and standard output.
    private func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32?, output: String) {
        let process = try ChildProcess(
            executable: tictactoeBinary, arguments,
            environment: environment.merging(["PATH": "/usr/bin:/bin", "TICTACTOE_BONJOUR": "off"]) { a, _ in a },
            input: .null)
        defer { process.terminate() }
        let status = process.waitForExit(timeout: 30)
        return (status, process.standardOutput)
    }

    private func home() throws -> String {
        let path = Scratch.path("tictactoe-home-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func status(_ environment: [String: String]) throws -> [String: Any] {
        let status = try run(["privacy", "status", "--json"], environment: environment)
        XCTAssertEqual(status.status, 0, status.output)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
    }

    func testWithOnlyHomeSetTheDecisionAndTheLogFollowHome() throws {
        for _ in 0..<2 {  // two HOMEs one after the other: each run uses its own
            let home = try home()
            let environment = ["HOME": home]
            XCTAssertEqual(try run(["privacy", "grant"], environment: environment).status, 0)
            let object = try status(environment)
            XCTAssertEqual(object["decision_file"] as? String, home + "/.config/tictactoe/local-network.json")
            XCTAssertEqual(object["log_file"] as? String, home + "/.local/state/tictactoe/tictactoe.log")
            XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/.config/tictactoe/local-network.json"))
            let log = try String(contentsOfFile: home + "/.local/state/tictactoe/tictactoe.log", encoding: .utf8)
            XCTAssertFalse(log.isEmpty, "the log was written under this HOME")
            let help = try run(["host", "--help"], environment: environment).output
            XCTAssertTrue(help.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
                .contains(home + "/.local/state/tictactoe/tictactoe.log"), help)
        }
    }

    func testTheXDGVariablesMoveTheirFilesAndARelativeOneIsIgnored() throws {
        let home = try home()
        let environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/cfg", "XDG_STATE_HOME": home + "/state"]
        XCTAssertEqual(try run(["privacy", "grant"], environment: environment).status, 0)
        let object = try status(environment)
        XCTAssertEqual(object["decision_file"] as? String, home + "/cfg/tictactoe/local-network.json")
        XCTAssertEqual(object["log_file"] as? String, home + "/state/tictactoe/tictactoe.log")
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/state/tictactoe/tictactoe.log"))
        let relative = try status(["HOME": home, "XDG_CONFIG_HOME": "cfg", "XDG_STATE_HOME": "state"])
        XCTAssertEqual(relative["decision_file"] as? String, home + "/.config/tictactoe/local-network.json",
                       "a relative XDG_CONFIG_HOME is ignored, as the spec asks")
        XCTAssertEqual(relative["log_file"] as? String, home + "/.local/state/tictactoe/tictactoe.log")
    }
}
