import EngineProtocol
import FoundationEssentials
import GameEngines
import GameRules
import LocalNetworkPrivacy
import Localization
import Synchronization
import TextSupport
import AppManifest

#if canImport(Glibc)
import Glibc
#endif

/// An engine (`--player engine:COMMAND`, `--computer engine:COMMAND`) on the local side: how to start its process and
/// how long it has for a move. One process plays game after game; after a failure (which ended that process) the next
/// game starts a fresh one.
public struct EngineSeat: Sendable {
    /// The command line as given (split like a shell splits it; no shell runs).
    public var command: String
    /// Where each process's standard error goes: a file `NAME-PID-N.log` in this directory (created if missing).
    public var logDirectory: String
    /// The clock every engine limit is measured on.
    public var clock: any Clock<Duration>
    /// The engine's time for each move (`genmove`'s `TIME`; the host's `--move-timeout`); nil: `-` and the engine's
    /// own limit without a clock (`EnginePlayer.defaultMoveTimeoutWithoutClock`, 60 s).
    public var moveTime: Duration?

    public init(
        command: String, logDirectory: String = EngineSeat.defaultLogDirectory(),
        clock: any Clock<Duration>, moveTime: Duration? = nil
    ) {
        self.command = command
        self.logDirectory = logDirectory
        self.clock = clock
        self.moveTime = moveTime
    }

    /// `$XDG_STATE_HOME/tictactoe/engines` (default `$HOME/.local/state/tictactoe/engines`).
    public static func defaultLogDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        PathText.join(AppDirectories.state(environment: environment), "engines")
    }

    /// Engines started by this process so far (the `N` of the log names).
    private static let started = Mutex(0)

    /// The log file of the next engine: `first-free.sh-4242-1.log` (the program's file name, letters, digits, `.`,
    /// `-` and `_` only, our process id, a count).
    func nextLogPath() -> String {
        let number = Self.started.withLock { count in
            count += 1
            return count
        }
        return PathText.join(logDirectory, "\(Self.logName(command))-\(getpid())-\(number).log")
    }

    /// The program's base name from `command`, safe as part of a file name.
    package static func logName(_ command: String) -> String {
        let words: [String]
        if let split = try? EngineCommandLine.split(command) {
            words = split
        } else {
            words = command.split(separator: " ").map { String($0) }
        }
        // `python3 bot.py`: the script says more than the interpreter.
        let interpreters: Set<String> = ["sh", "bash", "dash", "python", "python3", "node", "ruby", "perl", "env"]
        var program = words.first ?? "engine"
        if words.count > 1, interpreters.contains(baseName(program)), !words[1].hasPrefix("-") {
            program = words[1]
        }
        var safe = ""
        for scalar in baseName(program).unicodeScalars.prefix(40) {
            let letterOrDigit = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            let allowed = letterOrDigit || scalar == "." || scalar == "-" || scalar == "_"
            safe.unicodeScalars.append(allowed ? scalar : "_")
        }
        if safe.isEmpty || safe.allSatisfy({ $0 == "." }) { return "engine" }
        return safe
    }

    private static func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map { String($0) } ?? ""
    }

    /// Starts a process (its handshake done), its log in `logDirectory`.
    package func start() async throws(EngineFailure) -> EnginePlayer {
        try? FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        return try await EnginePlayer.start(command: command, logPath: nextLogPath(), clock: clock)
    }
}

/// The engine's side of a match, run in its own task off the connection's event loop: it takes jobs in order from a
/// stream (a new game, the opponent's move, a move wanted) and answers through `post`. One process at a time; a
/// failure is posted with the game it lost, and the next job starts a fresh process.
package struct EngineWorker: Sendable {
    package enum Job: Sendable {
        case newGame(game: Int, engineMark: Mark, firstMover: Mark)
        case opponentMoved(game: Int, cell: Int)
        /// `gameClock`: with `--game-time`, the engine's time left in the game and the whole game's time.
        case move(game: Int, Game, gameClock: (left: Duration, total: Duration)?)

        package var game: Int {
            switch self {
            case .newGame(let game, _, _), .opponentMoved(let game, _), .move(let game, _, _): return game
            }
        }
    }

    package enum Outcome: Sendable {
        case started(name: String, pid: Int32, log: String)
        case moved(game: Int, cell: Int)
        case failed(game: Int, EngineFailure)
    }

    package let seat: EngineSeat

    package init(seat: EngineSeat) { self.seat = seat }

    /// Takes jobs until `jobs` finishes, then says `quit` to the engine (or kills it when the task was cancelled).
    package func run(_ jobs: AsyncStream<Job>, post: @escaping @Sendable (Outcome) -> Void) async {
        var engine: EnginePlayer?
        var lostGame: Int?
        for await job in jobs {
            // The rest of a game the engine already lost (it was resigned) is not played.
            if lostGame == job.game { continue }
            do throws(EngineFailure) {
                let current: EnginePlayer
                if let engine {
                    current = engine
                } else {
                    current = try await seat.start()
                    engine = current
                    post(.started(name: await current.name, pid: current.pid, log: current.logPath))
                }
                switch job {
                case .newGame(_, let mark, let first):
                    try await current.newGame(engineMark: mark, firstMover: first)
                case .opponentMoved(_, let cell):
                    try await current.opponentMoved(cell)
                case .move(let number, let game, let gameClock):
                    let cell = try await current.move(in: game, timeLeft: seat.moveTime, gameClock: gameClock)
                    post(.moved(game: number, cell: cell))
                }
            } catch {
                // The engine's process has ended (every failure ends it): the next game starts another.
                engine = nil
                lostGame = job.game
                post(.failed(game: job.game, error))
            }
        }
        guard let engine else { return }
        if Task.isCancelled {
            await engine.kill()
        } else {
            await engine.quit()
        }
    }
}
