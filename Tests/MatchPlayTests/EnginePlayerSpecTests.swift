import XCTest
@testable import MatchPlay

/// `--player engine:COMMAND` / `--computer engine:COMMAND`: parsing, the usage check of the command line, and the name
/// of the engine's log file.
final class EnginePlayerSpecTests: XCTestCase {
    func testEngineSpecKeepsTheCommandAsTyped() {
        XCTAssertEqual(PlayerSpec(parsing: "engine:sh Assets/engines/first-free.sh"),
                       .engine(command: "sh Assets/engines/first-free.sh"))
        XCTAssertEqual(PlayerSpec(parsing: "engine:python3 'my bot.py' --seed 3"),
                       .engine(command: "python3 'my bot.py' --seed 3"))
        XCTAssertEqual(PlayerSpec(parsing: "engine:./bot"), .engine(command: "./bot"))
        XCTAssertEqual(PlayerSpec(parsing: "engine:./bot")?.description, "engine:./bot")
        XCTAssertEqual(PlayerSpec(parsing: "engine:./bot")?.engineCommand, "./bot")
        XCTAssertNil(PlayerSpec(parsing: "engine:./bot")?.strength)
        // Other players are unchanged.
        XCTAssertEqual(PlayerSpec(parsing: "perfect"), .perfect)
        XCTAssertEqual(PlayerSpec(parsing: "script:x.txt"), .script(path: "x.txt"))
        XCTAssertNil(PlayerSpec(parsing: "perfect")?.engineCommand)
    }

    func testEmptyEngineCommandIsNoPlayer() {
        XCTAssertNil(PlayerSpec(parsing: "engine:"))
        XCTAssertNil(PlayerSpec(parsing: "engine:   "))
        XCTAssertNil(PlayerSpec(parsing: "engine"))
    }

    func testUsageProblemsOfTheCommandLine() {
        XCTAssertNil(PlayerSpec.engine(command: "python3 \"a b.py\" --level 2").usageProblem)
        XCTAssertNil(PlayerSpec.perfect.usageProblem)
        XCTAssertEqual(PlayerSpec.engine(command: "python3 'bot.py").usageProblem,
                       "engine:python3 'bot.py: the engine command has an unterminated ' quote")
        let pipe = PlayerSpec.engine(command: "sh bot.sh | tee log").usageProblem ?? ""
        XCTAssertTrue(pipe.contains("unquoted '|': no shell runs it"), pipe)
        XCTAssertNotNil(PlayerSpec.engine(command: "./bot $HOME").usageProblem)
        XCTAssertNil(PlayerSpec.engine(command: "./bot '$HOME'").usageProblem)
    }

    func testAnEngineIsNotAnInProcessPlayer() {
        XCTAssertThrowsError(try PlayerSpec.engine(command: "./bot").makePlayer(seed: 1))
        XCTAssertThrowsError(try PlayerSpec.engine(command: "./bot 'x").makePlayer(seed: 1)) { error in
            XCTAssertTrue("\(error)".contains("unterminated"), "\(error)")
        }
    }

    func testLogNamesSayWhichEngine() {
        XCTAssertEqual(EngineSeat.logName("sh /repo/Assets/engines/first-free.sh"), "first-free.sh")
        XCTAssertEqual(EngineSeat.logName("python3 perfect.py --seed 3"), "perfect.py")
        XCTAssertEqual(EngineSeat.logName("/usr/local/bin/my-bot --level 2"), "my-bot")
        XCTAssertEqual(EngineSeat.logName("python3 -u bot.py"), "python3")
        XCTAssertEqual(EngineSeat.logName("'./weird name!'"), "weird_name_")
        XCTAssertEqual(EngineSeat.logName(".."), "engine")
    }

    func testLogDirectoryFollowsXDGStateHome() {
        XCTAssertEqual(EngineSeat.defaultLogDirectory(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]),
                       "/s/tictactoe/engines")
        XCTAssertEqual(EngineSeat.defaultLogDirectory(environment: ["HOME": "/h"]),
                       "/h/.local/state/tictactoe/engines")
        let seat = EngineSeat(command: "sh first-free.sh", logDirectory: "/tmp/e", clock: ContinuousClock())
        let first = seat.nextLogPath()
        let second = seat.nextLogPath()
        XCTAssertTrue(first.hasPrefix("/tmp/e/first-free.sh-\(getpid())-"), first)
        XCTAssertNotEqual(first, second)
    }
}
