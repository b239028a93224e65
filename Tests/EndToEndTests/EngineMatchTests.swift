import Foundation
import XCTest
import TicTacToeTestSupport

/// Engines (`--player engine:COMMAND`, `--computer engine:COMMAND`) as real processes of real `tictactoe` processes
/// over loopback: the sample engine plays a match in one process, an engine is told its game time left and loses on
/// its game clock, a misbehaving one loses its game and the next game gets a fresh process, a command line that
/// cannot be split is a usage error, and `play --plain` plays against one. Each kind of engine failure is proven in
/// process (GameEnginesTests), and the transcript's wording of one too (TranscriptWordingTests); a joiner's game clock
/// against a host that does not move, in process too (MoveTimeoutTests).
final class EngineMatchTests: ProcessTestCase {
    private static let firstFree = EngineSandbox.packageRoot.path + "/Assets/engines/first-free.sh"

    private var sandbox: EngineSandbox!

    override func setUpWithError() throws {
        sandbox = try EngineSandbox()
    }

    override func tearDown() {
        super.tearDown()
        sandbox = nil
    }

    private func join(_ port: Int, _ extra: [String]) throws -> TicTacToeProcess {
        track(try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--headless", "--json"] + extra))
    }

    func testSampleEngineHostLosesToPerfectJoiner() throws {
        let (host, port) = try startHost(["--player", "engine:sh '\(Self.firstFree)'", "--games", "4", "--seed", "5"])
        _ = track(host)
        let joiner = try join(port, ["--player", "perfect", "--seed", "6"])
        XCTAssertEqual(joiner.waitForExit(timeout: 120), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        let summary = try XCTUnwrap(joiner.events(named: "summary").last, joiner.standardError)
        XCTAssertEqual(summary["games"] as? Int, 4)
        XCTAssertEqual(summary["losses"] as? Int, 0)
        XCTAssertGreaterThan(summary["wins"] as? Int ?? 0, 0, "first-free should lose to perfect")
        // One process for the whole match, its log named; no failure.
        let started = host.events(named: "engine-started")
        XCTAssertEqual(started.count, 1, "\(host.events)")
        XCTAssertEqual(started.first?["engine"] as? String, "first-free.sh")
        let log = try XCTUnwrap(started.first?["log"] as? String)
        XCTAssertTrue(log.contains("/tictactoe/engines/first-free.sh-"), log)
        XCTAssertTrue(FileManager.default.fileExists(atPath: log), log)
        XCTAssertTrue(host.events(named: "engine-failed").isEmpty, "\(host.events(named: "engine-failed"))")
        XCTAssertEqual(host.events(named: "game-over").count, 4)
    }

    func testWithGameTimeTheHostsEngineIsToldItsGameTimeLeft() throws {
        let told = sandbox.directory.appendingPathComponent("genmove.txt").path
        let recorder = try sandbox.engine(
            named: "recorder.sh",
            overrides: "genmove) echo \"$2\" >> '\(told)'; firstfree; put \"$n\" \"$1\"; printf '=%s %s\\n\\n' \"$id\" \"$n\" ;;")
        let (host, port) = try startHost(
            ["--player", "engine:sh '\(recorder)'", "--games", "2", "--seed", "5", "--game-time", "600",
             "--move-timeout", "3600"])
        _ = track(host)
        let joiner = try join(port, ["--player", "perfect", "--seed", "6"])
        XCTAssertEqual(joiner.waitForExit(timeout: 120), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        let times = try String(contentsOfFile: told, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(times.count, 2, "\(times)")
        for time in times {
            let seconds = try XCTUnwrap(Double(time), time)
            XCTAssertLessThanOrEqual(seconds, 600, "its game time left, not the move timeout: \(times)")
            XCTAssertGreaterThan(seconds, 500, "\(times)")
        }
    }

    func testAJoiningEngineWhoseGameClockRunsOutLosesItsGameWithTheReason() throws {
        let silent = try sandbox.engine(named: "silent.sh", overrides: "genmove) ;;")  // never answers genmove
        let (host, port) = try startHost(["--player", "perfect", "--games", "1", "--seed", "5"])
        _ = track(host)
        let joiner = try join(port, ["--player", "engine:sh '\(silent)'", "--game-time", "0.3"])
        XCTAssertEqual(joiner.waitForExit(timeout: 120), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        let failure = try XCTUnwrap(joiner.events(named: "engine-failed").first, "\(joiner.events)")
        XCTAssertEqual(failure["kind"] as? String, "game-time")
        XCTAssertEqual(failure["game"] as? Int, 1)
        XCTAssertTrue(
            (failure["reason"] as? String ?? "").hasPrefix("ran out of its game time (0.300 s for the whole game; "),
            "\(failure)")
        let over = try XCTUnwrap(joiner.events(named: "game-over").first)
        XCTAssertEqual(over["winner"] as? String, "O", "the engine (X) lost game 1")
    }

    /// An engine that misbehaves in its first process only (a marker file says it has run), then is the sample
    /// engine: `misbehaviour` is what it does on `genmove`.
    private func flakyEngine(_ misbehaviour: String) throws -> String {
        try sandbox.engine(
            named: "flaky.sh",
            overrides: """
                name) printf '=%s flaky\\n\\n' "$id" ;;
                genmove) \(misbehaviour) ;;
                """,
            preamble: """
                if [ -e '\(sandbox.path)/started' ]; then exec sh '\(Self.firstFree)'; fi
                : > '\(sandbox.path)/started'
                echo "flaky engine: first start" >&2
                """)
    }

    private func checkFailedFirstGame(misbehaviour: String, kind: String, reason: String) throws {
        let engine = try flakyEngine(misbehaviour)
        let (host, port) = try startHost(["--player", "engine:sh \(engine)", "--games", "3", "--seed", "7"])
        _ = track(host)
        let joiner = try join(port, ["--player", "perfect", "--seed", "8"])
        XCTAssertEqual(joiner.waitForExit(timeout: 120), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        // Game 1 (the engine plays O, the joiner moves first): the engine fails on its first genmove and loses.
        let failures = host.events(named: "engine-failed")
        XCTAssertEqual(failures.count, 1, "\(failures)")
        let failure = try XCTUnwrap(failures.first)
        XCTAssertEqual(failure["game"] as? Int, 1)
        XCTAssertEqual(failure["kind"] as? String, kind)
        XCTAssertEqual(failure["engine"] as? String, "flaky")
        XCTAssertTrue((failure["reason"] as? String ?? "").contains(reason), "\(failure)")
        let log = try XCTUnwrap(failure["log"] as? String)
        let logText = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertTrue(logText.contains("flaky engine: first start"), "log \(log): \(logText)")
        let hostGames = host.events(named: "game-over")
        XCTAssertEqual(hostGames.first?["reason"] as? String, "resignation")
        XCTAssertEqual(hostGames.first?["resigned"] as? String, "O")
        // The next games run with a fresh process (the sample engine this time).
        let started = host.events(named: "engine-started")
        XCTAssertEqual(started.map { $0["engine"] as? String }, ["flaky", "first-free.sh"])
        XCTAssertNotEqual(started.first?["pid"] as? Int, started.last?["pid"] as? Int)
        XCTAssertNotEqual(started.first?["log"] as? String, started.last?["log"] as? String)
        XCTAssertEqual(hostGames.count, 3)
        let summary = try XCTUnwrap(joiner.events(named: "summary").last)
        XCTAssertEqual(summary["games"] as? Int, 3)
        XCTAssertEqual(summary["losses"] as? Int, 0)
        let joinerFirst = try XCTUnwrap(joiner.events(named: "game-over").first)
        XCTAssertEqual(joinerFirst["winner"] as? String, "X")
    }

    func testEngineThatExitsLosesItsGameAndTheNextGameHasAFreshProcess() throws {
        try checkFailedFirstGame(misbehaviour: "exit 3", kind: "exited", reason: "ended unexpectedly (exited with status 3)")
    }

    func testCommandLineThatCannotBeSplitIsAUsageError() throws {
        for (arguments, needle) in [
            (["host", "--headless", "--no-advertise", "--bind", "127.0.0.1", "--player", "engine:sh bot.sh | tee x"],
             "no shell runs it"),
            (["join", "127.0.0.1:9", "--headless", "--player", "engine:python3 'bot.py"], "unterminated ' quote"),
            (["play", "--plain", "--computer", "engine:sh bot.sh > log"], "no shell runs it"),
            (["host", "--headless", "--no-advertise", "--player", "engine:"], "invalid"),
        ] {
            let process = track(try TicTacToeProcess(arguments))
            XCTAssertEqual(process.waitForExit(), 64, "\(arguments): \(process.standardError)")
            XCTAssertTrue(process.standardError.lowercased().contains(needle), "\(arguments): \(process.standardError)")
            XCTAssertTrue(process.output.isEmpty, "\(arguments) printed \(process.output)")
        }
    }

    func testPlainGameAgainstAnEngine() throws {
        // You move first (X): 5; first-free (O) plays 1; 9; O 2; 3 (blocks 1-2-3); O 4; 7 wins 3-5-7. No rematch.
        let play = track(try TicTacToeProcess(["play", "--plain", "--computer", "engine:sh '\(Self.firstFree)'",
                                               "--first", "you"]))
        play.writeInput("5\n9\n3\n7\nn\n")
        XCTAssertEqual(play.waitForExit(), 0, play.standardError)
        let text = play.output.joined(separator: "\n")
        for needle in ["against the computer (engine sh ", "Engine 'first-free.sh' started (pid ", "Computer plays 1",
                       "Computer plays 2", "Computer plays 4", "You win!", "Bye. Score: you 1, computer 0, draws 0"] {
            XCTAssertTrue(text.contains(needle), "output lacks '\(needle)':\n\(text)")
        }
    }
}
