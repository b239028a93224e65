import Foundation
import TicTacToeTestSupport
import XCTest

/// `tictactoe lobby` outside the lab: only what happens before anything joins the group (the machine's own network
/// namespace must never carry multicast; the group itself is tested in LobbyLabTests). Each test has its own HOME, so
/// the decision is never "allowed" here.
final class LobbyCommandTests: ProcessTestCase {
    private func home() throws -> [String: String] {
        let path = Scratch.path("tictactoe-lobby-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return ["HOME": path, "XDG_CONFIG_HOME": path + "/config", "XDG_STATE_HOME": path + "/state"]
    }

    private func lobby(_ arguments: [String], environment: [String: String]) throws -> (TicTacToeProcess, Int32?) {
        let process = track(try TicTacToeProcess(["lobby"] + arguments, environment: environment))
        return (process, process.waitForExit(timeout: 30))
    }

    func testWithoutTheEntitlementTheLobbyFailsAtOnceWithExit15AndNoPrompt() throws {
        let environment = try home()
        let app = environment["HOME"]! + "/app"
        try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: EngineSandbox.packageRoot.path + "/Assets/Info.plist", toPath: app + "/Info.plist")
        for json in [false, true] {
            let (process, status) = try lobby(
                ["--name", "alice", "--info-plist", app + "/Info.plist"] + (json ? ["--json"] : []),
                environment: environment)
            XCTAssertEqual(status, 15, process.standardError)
            let text = process.output.joined(separator: "\n")
            XCTAssertTrue(text.contains(
                "the app is not entitled to com.apple.developer.networking.multicast (multicast and browsing every "
                    + "service type need it, as on iOS): \(app)/TicTacToe.entitlements must declare it as <true/>"),
                text)
            XCTAssertFalse(text.contains("waiting"), "no prompt, no wait: \(text)")
            if json { XCTAssertEqual(process.events(named: "lobby-end").count, 1, text) }
        }
    }

    func testWithTheShippedEntitlementItWaitsForPermissionLikeEveryLANOperation() throws {
        let (process, status) = try lobby(["--name", "alice", "--json", "--wait-timeout", "1"], environment: try home())
        XCTAssertEqual(status, 11, process.standardError)
        let waiting = try XCTUnwrap(process.events(named: "state").first, "\(process.output)")
        // No terminal, so no prompt: the reason names what can be done.
        XCTAssertEqual(waiting["reason"] as? String,
                       "local network permission not determined, and there is no terminal to ask on: "
                           + "run `tictactoe privacy grant`")
        XCTAssertEqual(process.events(named: "lobby-joined").count, 0, "never joined")
    }

    func testUsageErrors() throws {
        let environment = try home()
        for (arguments, says) in [
            (["--challenge", "bob", "--accept"], "--challenge and --accept cannot go together"),
            (["--greet", "bell\u{7}"], "--greet: a greeting must be printable text"),
            (["--greet", String(repeating: "x", count: 141)], "--greet: a greeting must be printable text of 1-140 bytes"),
            (["--games", "0"], "--games"),
        ] {
            let (process, status) = try lobby(arguments, environment: environment)
            XCTAssertEqual(status, 64, "\(arguments): \(process.standardError)")
            XCTAssertTrue(process.standardError.contains(says), "\(arguments): \(process.standardError)")
        }
    }
}
