import EngineProtocol
import Foundation
import GameEngines
import GameRules
import TicTacToeTestSupport
import XCTest

/// Adjudication: every misbehaviour ends in an `EngineFailure` with the process gone (killed and reaped), never a hang.
final class EnginePlayerTests: XCTestCase {
    /// What `move` failed with; a move it played fails the test (nil).
    private func failure(
        of move: Task<Int, any Error>, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> EngineFailure? {
        do {
            let cell = try await move.value
            XCTFail("played \(cell)", file: file, line: line)
            return nil
        } catch let failure as EngineFailure {
            return failure
        }
    }

    /// Starts `script`'s engine, begins a game in which it plays `mark`, and asks for its move in `game`.
    private func failure(
        overrides: String, preamble: String = "", mark: Mark = .x, game: Game = Game(), file: StaticString = #filePath,
        line: UInt = #line
    ) async throws -> (EngineFailure, pid: Int32, log: String) {
        let sandbox = try EngineSandbox()
        let path = try sandbox.engine(overrides: overrides, preamble: preamble)
        var pid: Int32 = -1
        do {
            let engine = try await EnginePlayer.start(command: "'\(path)'", logPath: sandbox.logPath, clock: ContinuousClock())
            pid = engine.pid
            try await engine.newGame(engineMark: mark)
            let cell = try await engine.move(in: game, timeLeft: .seconds(10))
            XCTFail("the engine played \(cell + 1) instead of failing", file: file, line: line)
            throw CancellationError()
        } catch let failure as EngineFailure {
            if pid > 0 { assertGone(pid, file: file, line: line) }
            let log = (try? String(contentsOfFile: sandbox.logPath, encoding: .utf8)) ?? ""
            return (failure, pid, log)
        }
    }

    private func assertGone(_ pid: Int32, file: StaticString = #filePath, line: UInt = #line) {
        // Reaped: no such process (not even a zombie).
        XCTAssertEqual(kill(pid, 0), -1, "process \(pid) still exists", file: file, line: line)
        XCTAssertEqual(errno, ESRCH, file: file, line: line)
    }

    func testCrashOnGenmove() async throws {
        let (failure, _, _) = try await failure(overrides: "genmove) exit 3 ;;")
        XCTAssertEqual(failure.reason, .exited("exited with status 3"))
        XCTAssertEqual(failure.engine, "test-engine")
        XCTAssertTrue(failure.description.hasPrefix("engine 'test-engine' ended unexpectedly (exited with status 3)"))
    }

    func testGarbage() async throws {
        let (failure, _, _) = try await failure(overrides: "genmove) echo 'I think 5 is good' ;;")
        XCTAssertEqual(failure.reason, .protocolError(.garbage("I think 5 is good")))
        XCTAssertEqual(
            failure.reasonText, #"broke the engine protocol: garbage on standard output: "I think 5 is good""#)
    }

    func testWrongID() async throws {
        let (failure, _, _) = try await failure(overrides: #"genmove) printf '=99 1\n\n' ;;"#)
        XCTAssertEqual(failure.reason, .protocolError(.wrongID(expected: 6, line: "=99 1")))
    }

    func testOccupiedCell() async throws {
        var game = Game()
        try game.play(0, by: .x)
        let (failure, _, _) = try await failure(
            overrides: #"genmove) printf '=%s 1\n\n' "$id" ;;"#, mark: .o, game: game)
        XCTAssertEqual(failure.reason, .illegalMove(move: "1", why: "cell 1 is already taken"))
        XCTAssertEqual(failure.reasonText, #"played an illegal move "1": cell 1 is already taken"#)
    }

    func testCellOutOfRange() async throws {
        let (failure, _, _) = try await failure(overrides: #"genmove) printf '=%s 10\n\n' "$id" ;;"#)
        XCTAssertEqual(failure.reason, .illegalMove(move: "10", why: "not a cell 1-9"))
    }

    func testRefusedRequiredCommand() async throws {
        let (failure, _, _) = try await failure(overrides: #"newgame) printf '?%s unknown command\n\n' "$id" ;;"#)
        XCTAssertEqual(failure.reason, .refused(command: "newgame", message: "unknown command"))
    }

    func testWrongProtocolVersion() async throws {
        let sandbox = try EngineSandbox()
        let path = try sandbox.engine(overrides: #"protocol_version) printf '=%s 2\n\n' "$id" ;;"#)
        do {
            _ = try await EnginePlayer.start(command: path, logPath: sandbox.logPath, clock: ContinuousClock())
            XCTFail("started")
        } catch {
            XCTAssertEqual(error.reason, .protocolError(.unsupportedProtocolVersion("2")))
        }
    }

    func testClosedOutputKillsTheWholeProcessGroup() async throws {
        // The engine closes its output and goes on running (with a child): both are killed, the engine reaped.
        let (failure, _, _) = try await failure(overrides: "genmove) exec 1>&-; sleep 1000 & wait ;;")
        // Its own doing, said so: not the runner's SIGKILL that followed.
        XCTAssertEqual(failure.reason, .exited("closed its standard output without exiting"))
        XCTAssertEqual(failure.kind, "exited")
    }

    func testAnEngineThatExitsWhileAChildHoldsItsOutputIsJudgedByItsExitAtOnce() async throws {
        // The child keeps the output open, so its end never comes: the exit is what ends the engine (a timeout would
        // be judged as one).
        let (failure, _, _) = try await failure(overrides: "genmove) sleep 1000 & exit 3 ;;")
        XCTAssertEqual(failure.reason, .exited("exited with status 3"))
    }

    func testAnswerWrittenJustBeforeExitingIsRead() async throws {
        // The answer is in the pipe when the exit is seen (a child holds the output): it is read, not lost.
        let (failure, _, _) = try await failure(
            overrides: #"genmove) sleep 1000 & printf '=%s 10\n\n' "$id"; exit 0 ;;"#)
        XCTAssertEqual(failure.reason, .illegalMove(move: "10", why: "not a cell 1-9"))
    }

    func testHangPastTheTimeLimitOnAManualClock() async throws {
        let sandbox = try EngineSandbox()
        let path = try sandbox.engine(overrides: "genmove) ;;")  // reads on, never answers
        let clock = ManualClock()
        let engine = try await EnginePlayer.start(command: path, logPath: sandbox.logPath, clock: clock)
        try await engine.newGame(engineMark: .x)
        let move = Task { try await engine.move(in: Game(), timeLeft: .seconds(2)) }
        // The genmove's timer is the only sleeper once the command is out.
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(2))
        guard let failure = try await failure(of: move) else { return }
        XCTAssertEqual(failure.reason, .timedOut(command: "genmove", limit: .seconds(2)))
        XCTAssertEqual(failure.reasonText, "did not answer genmove within 2.000 s")
        assertGone(engine.pid)
        // Every later call gives the same failure at once.
        do {
            _ = try await engine.move(in: Game(), timeLeft: nil)
            XCTFail("played after failing")
        } catch {
            XCTAssertEqual(error.reason, .timedOut(command: "genmove", limit: .seconds(2)))
        }
    }

    func testTheGameClockBindsWhenItHasLessThanTheMoveTimeAndItsFailureSaysSo() async throws {
        let sandbox = try EngineSandbox()
        let told = sandbox.directory.appendingPathComponent("told.txt").path
        let path = try sandbox.engine(overrides: "genmove) echo \"$*\" >> '\(told)' ;;")  // never answers
        let clock = ManualClock()
        let engine = try await EnginePlayer.start(command: path, logPath: sandbox.logPath, clock: clock)
        try await engine.newGame(engineMark: .x)
        let move = Task {
            try await engine.move(in: Game(), timeLeft: .seconds(120), gameClock: (left: .milliseconds(1500), total: .seconds(30)))
        }
        // The engine has read its genmove (and the timer runs): then its time passes.
        await clock.waitForSleepers(1)
        await assertEventually("the engine to read genmove") { FileManager.default.fileExists(atPath: told) }
        await clock.advance(by: .milliseconds(1500))
        guard let failure = try await failure(of: move) else { return }
        XCTAssertEqual(failure.reason, .outOfGameTime(left: .milliseconds(1500), total: .seconds(30)))
        XCTAssertEqual(failure.kind, "game-time")
        XCTAssertEqual(
            failure.reasonText, "ran out of its game time (30.000 s for the whole game; 1.500 s were left at its move)")
        assertGone(engine.pid)
        XCTAssertEqual(try String(contentsOfFile: told, encoding: .utf8), "x 1.500\n", "told the game time left")
    }

    func testTheMoveTimeBindsWhenTheGameClockHasMore() async throws {
        let sandbox = try EngineSandbox()
        let path = try sandbox.engine(overrides: "genmove) ;;")
        let clock = ManualClock()
        let engine = try await EnginePlayer.start(command: path, logPath: sandbox.logPath, clock: clock)
        try await engine.newGame(engineMark: .x)
        let move = Task {
            try await engine.move(in: Game(), timeLeft: .seconds(2), gameClock: (left: .seconds(20), total: .seconds(30)))
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(2))
        guard let failure = try await failure(of: move) else { return }
        XCTAssertEqual(failure.reason, .timedOut(command: "genmove", limit: .seconds(2)))
    }

    func testHangDuringTheHandshakeOnAManualClock() async throws {
        let sandbox = try EngineSandbox()
        let path = try sandbox.engine(overrides: "name) echo 'got name' >&2 ;;")
        let clock = ManualClock()
        let logPath = sandbox.logPath
        let start = Task { try await EnginePlayer.start(command: path, logPath: logPath, clock: clock) }
        // The second sleep is `name`'s timer; protocol_version's, the first, ended with its answer.
        await clock.waitForSleepers(1, begun: 2)
        XCTAssertEqual(clock.sleeping, 1, "protocol_version's timer is gone")
        await clock.advance(by: EnginePlayer.defaultReplyTimeout)
        do {
            _ = try await start.value
            XCTFail("started")
        } catch let failure as EngineFailure {
            XCTAssertEqual(failure.reason, .timedOut(command: "name", limit: .seconds(5)))
            XCTAssertEqual(failure.kind, "timeout")
        }
    }

    func testCancelledMoveEndsTheEngine() async throws {
        let sandbox = try EngineSandbox()
        let path = try sandbox.engine(overrides: "genmove) ;;")
        let clock = ManualClock()
        let engine = try await EnginePlayer.start(command: path, logPath: sandbox.logPath, clock: clock)
        try await engine.newGame(engineMark: .x)
        let move = Task { try await engine.move(in: Game(), timeLeft: .seconds(2)) }
        await clock.waitForSleepers(1)
        move.cancel()
        do {
            _ = try await move.value
            XCTFail("played")
        } catch let failure as EngineFailure {
            XCTAssertEqual(failure.reason, .cancelled)
        }
        assertGone(engine.pid)
    }

    func testCallsAtOnceDoNotInterleave() async throws {
        let sandbox = try EngineSandbox()
        let path = try sandbox.engine(overrides: #"play) echo "play $*" >&2; printf '=%s\n\n' "$id" ;;"#)
        let engine = try await EnginePlayer.start(command: path, logPath: sandbox.logPath, clock: ContinuousClock())
        try await engine.newGame(engineMark: .x)
        async let first: Void = engine.opponentMoved(0)
        async let second: Void = engine.opponentMoved(1)
        async let third: Void = engine.opponentMoved(2)
        _ = try await (first, second, third)
        await engine.quit()
        let log = try String(contentsOfFile: sandbox.logPath, encoding: .utf8)
        XCTAssertEqual(log.split(separator: "\n").sorted(), ["play o 1", "play o 2", "play o 3"])
    }

    func testCannotStart() async throws {
        let sandbox = try EngineSandbox()
        do {
            _ = try await EnginePlayer.start(command: "/nonexistent/engine --x", logPath: sandbox.logPath, clock: ContinuousClock())
            XCTFail("started")
        } catch {
            XCTAssertEqual(error.reason, .cannotStart("/nonexistent/engine: no such program (No such file or directory)"))
        }
        do {
            _ = try await EnginePlayer.start(command: "no-such-engine-program", logPath: sandbox.logPath, clock: ContinuousClock())
            XCTFail("started")
        } catch {
            XCTAssertEqual(
                error.reasonText,
                "could not be started: no-such-engine-program: no such program in PATH (give its path, e.g. ./no-such-engine-program)")
        }
        do {
            _ = try await EnginePlayer.start(command: "true", logPath: "/nonexistent/dir/engine.log", clock: ContinuousClock())
            XCTFail("started")
        } catch {
            guard case .cannotStart(let why) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(why.hasPrefix("cannot open the log file /nonexistent/dir/engine.log"), why)
        }
    }

    func testInvalidCommandLine() async throws {
        do {
            _ = try await EnginePlayer.start(command: "python3 'bot.py", logPath: "/dev/null", clock: ContinuousClock())
            XCTFail("started")
        } catch {
            XCTAssertEqual(error.reason, .invalidCommandLine(.unterminatedQuote("'")))
            XCTAssertEqual(error.reasonText, "the engine command has an unterminated ' quote")
        }
    }

    func testExitDuringHandshake() async throws {
        let sandbox = try EngineSandbox()
        let path = try sandbox.engine(overrides: "name) exit 0 ;;")
        do {
            _ = try await EnginePlayer.start(command: path, logPath: sandbox.logPath, clock: ContinuousClock())
            XCTFail("started")
        } catch {
            XCTAssertEqual(error.reason, .exited("exited with status 0"))
        }
    }

    func testStandardErrorIsAppendedToTheLog() async throws {
        let sandbox = try EngineSandbox()
        try "earlier\n".write(toFile: sandbox.logPath, atomically: true, encoding: .utf8)
        let path = try sandbox.engine(preamble: "echo 'engine starting' >&2")
        let engine = try await EnginePlayer.start(command: path, logPath: sandbox.logPath, clock: ContinuousClock())
        let name = await engine.name
        XCTAssertEqual(name, "test-engine")
        try await engine.newGame(engineMark: .o)
        var game = Game()
        try game.play(4, by: .x)
        try await engine.opponentMoved(4)
        let cell = try await engine.move(in: game, timeLeft: nil)
        XCTAssertEqual(cell, 0)
        let quitFailure = await engine.quit()
        XCTAssertNil(quitFailure)
        assertGone(engine.pid)
        XCTAssertEqual(try String(contentsOfFile: sandbox.logPath, encoding: .utf8), "earlier\nengine starting\n")
    }

    func testPositionResyncsAnEngineThatMissedMoves() async throws {
        // The engine is told of the game with `position` when the game is not a continuation of what it knows.
        let sandbox = try EngineSandbox()
        let path = try sandbox.engine(overrides: """
            position) board="........."; m=x; for c in "$@"; do put "$c" $m; [ $m = x ] && m=o || m=x; done
                      echo "position $*" >&2; printf '=%s\\n\\n' "$id" ;;
            """)
        let engine = try await EnginePlayer.start(command: path, logPath: sandbox.logPath, clock: ContinuousClock())
        try await engine.newGame(engineMark: .x)
        var game = Game()
        let first = try await engine.move(in: game, timeLeft: nil)
        try game.play(first, by: .x)  // 1
        try game.play(1, by: .o)
        let second = try await engine.move(in: game, timeLeft: nil)
        try game.play(second, by: .x)  // 3 (told `play o 2`)
        var other = Game()
        for (cell, mark) in [(4, Mark.x), (0, .o), (8, .x), (1, .o)] { try other.play(cell, by: mark) }
        let caughtUp = try await engine.move(in: other, timeLeft: nil)
        XCTAssertEqual(caughtUp, 2)
        await engine.quit()
        XCTAssertEqual(try String(contentsOfFile: sandbox.logPath, encoding: .utf8), "position 5 1 9 2\n")
    }
}
