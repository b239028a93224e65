import Foundation
import TicTacToeTestSupport
import XCTest

/// Play against an engine in the real full-screen UI (tmux): the sample engine's process, its moves, and a failing
/// engine's reason and log on the screen.
final class TUIEngineTests: XCTestCase {
    private func startEngineGame(_ tmux: Tmux, _ pane: String, command: String) throws {
        try tmux.start(pane, tuiCommand("--name solo"))
        XCTAssertNotNil(tmux.waitFor(pane, text: "Play against an engine"), tmux.screen(pane))
        try tmux.keys(pane, "e")
        XCTAssertNotNil(tmux.waitFor(pane, text: "Engine command"), tmux.screen(pane))
        try tmux.literal(pane, command)
        try tmux.keys(pane, "Enter")
    }

    func testAGameAgainstTheSampleEngineFirstFree() throws {
        let tmux = try Tmux()
        let engine = EngineSandbox.packageRoot.appendingPathComponent("Assets/engines/first-free.sh").path
        try startEngineGame(tmux, "solo", command: "sh '\(engine)'")
        // Game 1: we are X and start. first-free answers each move with the first free cell: 5 (1), 4 (2), 6 wins.
        XCTAssertNotNil(tmux.waitFor("solo", text: "Your turn"), tmux.screen("solo"))
        for cell in ["5", "4"] {
            // Our move shows "thinking" until the engine has answered: the next "Your turn" is after its move.
            let before = tmux.screen("solo")
            try tmux.keys("solo", cell)
            let screen = tmux.waitFor("solo", timeout: 15) { $0 != before && $0.contains("Your turn") }
            XCTAssertNotNil(screen, tmux.screen("solo"))
        }
        try tmux.keys("solo", "6")
        let over = try XCTUnwrap(tmux.waitFor("solo", text: "You win!"), tmux.screen("solo"))
        XCTAssertTrue(over.contains("first-free"), "the engine's name:\n\(over)")
        try tmux.keys("solo", "r")
        XCTAssertNotNil(tmux.waitFor("solo", text: "Game 2"), tmux.screen("solo"))
        try tmux.keys("solo", "q")
        XCTAssertNotNil(tmux.waitFor("solo", text: "Play against an engine"), tmux.screen("solo"))
    }

    func testAnEngineThatCrashesLosesTheGameAndTheScreenNamesItsLog() throws {
        let sandbox = try EngineSandbox()
        let crasher = try sandbox.engine(named: "crash.sh", overrides: "genmove) exit 3 ;;")
        let tmux = try Tmux()
        try startEngineGame(tmux, "crash", command: "sh '\(crasher)'")
        XCTAssertNotNil(tmux.waitFor("crash", text: "Your turn"), tmux.screen("crash"))
        try tmux.keys("crash", "5")
        let screen = try XCTUnwrap(
            tmux.waitFor("crash", timeout: 20) { screenWords($0).contains("it loses the game") }, tmux.screen("crash"))
        let words = screenWords(screen)
        XCTAssertTrue(words.contains("ended unexpectedly (exited with status 3)"), screen)
        XCTAssertTrue(words.contains(".log"), screen)
        XCTAssertTrue(words.contains("You win!"), screen)
        // The UI is still there and answers.
        try tmux.keys("crash", "q")
        XCTAssertNotNil(tmux.waitFor("crash", text: "Play against an engine"), tmux.screen("crash"))
    }
}
