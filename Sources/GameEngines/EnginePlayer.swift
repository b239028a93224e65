import EngineProtocol
import GameRules

/// An engine process speaking the engine protocol (docs/ENGINE.md), as a player.
///
/// Every call either succeeds or throws an `EngineFailure` after ending the process (its process group killed, the
/// process reaped): an engine that exits, does not answer in time, prints garbage, plays an illegal cell or answers
/// `?` to a command the runner needs never makes the caller hang. After a failure every call throws the same failure.
///
/// Times are measured on the injected clock (tests pass a manual one). Calls are meant to come one at a time (a game
/// is sequential); calls made at once are carried out one command at a time, in the order they reach the actor.
public actor EnginePlayer {
    /// The command line as given.
    public nonisolated let command: String
    /// Where the engine's standard error is appended.
    public nonisolated let logPath: String
    /// The engine's process id.
    public nonisolated let pid: Int32
    /// The engine's name (its answer to `name`; its command line until then).
    public private(set) var name: String
    /// The engine's answer to `version`, if it gave one.
    public private(set) var version: String?

    /// Limits for the commands that are not `genmove`.
    public nonisolated let replyTimeout: Duration
    /// The limit for `genmove` when the caller gives no time (the engine is told `-`).
    public nonisolated let moveTimeoutWithoutClock: Duration

    private let process: EngineProcess
    private let clock: any Clock<Duration>
    private var reader = EngineResponseReader()
    private var nextID = 1
    private var failure: EngineFailure?
    /// The engine's mark in the current game, and the moves it has been told of.
    private var mark: Mark?
    private var firstMover = Mark.x
    private var known: [Int] = []
    /// Whether an exchange is under way, and the exchanges waiting for it (the actor is reentrant: two calls at once
    /// must not interleave their commands and answers).
    private var exchanging = false
    private var waitingToExchange: [CheckedContinuation<Void, Never>] = []

    /// The default limit for commands other than `genmove`: 5 s.
    public static let defaultReplyTimeout = Duration.seconds(5)
    /// The default limit for a move when no time is given: 60 s.
    public static let defaultMoveTimeoutWithoutClock = Duration.seconds(60)

    private init(
        command: String, logPath: String, process: EngineProcess, clock: any Clock<Duration>, replyTimeout: Duration,
        moveTimeoutWithoutClock: Duration
    ) {
        self.command = command
        self.logPath = logPath
        self.process = process
        self.pid = process.pid
        self.clock = clock
        self.name = command
        self.replyTimeout = replyTimeout
        self.moveTimeoutWithoutClock = moveTimeoutWithoutClock
    }

    /// Starts the engine and runs the handshake: `protocol_version` (must be 1), `name` (required), `version`
    /// (optional: a `?` is accepted) and `isready`.
    ///
    /// - Parameters:
    ///   - command: the command line, split like a shell splits it (`EngineCommandLine`); no shell runs.
    ///   - logPath: the file the engine's standard error is appended to (created if missing).
    ///   - clock: the clock every limit is measured on.
    public static func start(
        command: String, logPath: String, clock: any Clock<Duration>,
        replyTimeout: Duration = defaultReplyTimeout,
        moveTimeoutWithoutClock: Duration = defaultMoveTimeoutWithoutClock
    ) async throws(EngineFailure) -> EnginePlayer {
        let arguments: [String]
        do throws(EngineCommandLine.ParseError) {
            arguments = try EngineCommandLine.split(command)
        } catch {
            throw EngineFailure(reason: .invalidCommandLine(error), engine: command, logPath: logPath)
        }
        let process: EngineProcess
        do throws(EngineProcess.StartError) {
            process = try EngineProcess(arguments: arguments, logPath: logPath)
        } catch {
            switch error {
            case .log(let why), .spawn(let why):
                throw EngineFailure(reason: .cannotStart(why), engine: command, logPath: logPath)
            }
        }
        let player = EnginePlayer(
            command: command, logPath: logPath, process: process, clock: clock, replyTimeout: replyTimeout,
            moveTimeoutWithoutClock: moveTimeoutWithoutClock)
        try await player.handshake()
        return player
    }

    private func handshake() async throws(EngineFailure) {
        let protocolAnswer = try await required(.protocolVersion)
        do throws(EngineProtocolError) {
            try protocolAnswer.checkProtocolVersion()
        } catch {
            throw fail(.protocolError(error))
        }
        let nameAnswer = try await required(.name)
        if !nameAnswer.text.isEmpty { name = nameAnswer.text }
        let versionAnswer = try await exchange(.version, limit: replyTimeout)
        if versionAnswer.isSuccess, !versionAnswer.text.isEmpty { version = versionAnswer.text }
        _ = try await required(.isReady)
    }

    /// Starts a new, empty game in which the engine plays `engineMark` and `firstMover` moves first.
    public func newGame(engineMark: Mark, firstMover: Mark = .x) async throws(EngineFailure) {
        _ = try await required(.newGame(engine: engineMark, first: firstMover))
        mark = engineMark
        self.firstMover = firstMover
        known = []
    }

    /// Tells the engine the opponent played `cell` (0...8) now.
    public func opponentMoved(_ cell: Int) async throws(EngineFailure) {
        guard let mark else { throw fail(.notRunning) }
        _ = try await required(.play(mark.opponent, cell: cell))
        known.append(cell)
    }

    /// The engine's move (0...8) for `game.turn` in `game`.
    ///
    /// When the engine has no game yet, or plays the other mark or another first mover, `newgame` for `game.turn` and
    /// `game.firstMover` is sent first (then all of the game's moves with `play`).
    ///
    /// Moves of `game` the engine has not been told of are sent next: with `play` when they follow what it knows,
    /// otherwise the whole list with `position`. Then `genmove MARK SECONDS` with `timeLeft` (nil: `-`, and the limit
    /// is `moveTimeoutWithoutClock`).
    ///
    /// With a clock for the whole game (`gameClock`: its total and what is left of it), the engine is told, and held
    /// to, the smaller of `timeLeft` and the game time left; when the game clock is the one that runs out the failure
    /// is `.outOfGameTime`.
    ///
    /// - Throws: `EngineFailure`: no answer within the time, garbage, `?`, a cell that is not legal in `game`.
    public func move(
        in game: Game, timeLeft moveTime: Duration?, gameClock: (left: Duration, total: Duration)? = nil
    ) async throws(EngineFailure) -> Int {
        var timeLeft = moveTime
        var gameTimeBinds = false
        if let gameClock, moveTime.map({ gameClock.left < $0 }) ?? true {
            timeLeft = gameClock.left
            gameTimeBinds = true
        }
        if let failure { throw failure }
        if mark != game.turn || firstMover != game.firstMover || (mark == nil) {
            try await newGame(engineMark: game.turn, firstMover: game.firstMover)
            // The engine now knows an empty game; the moves follow.
        }
        let mark = game.turn
        if game.moves.starts(with: known) {
            var turn = known.count % 2 == 0 ? game.firstMover : game.firstMover.opponent
            for cell in game.moves.dropFirst(known.count) {
                _ = try await required(.play(turn, cell: cell))
                known.append(cell)
                turn = turn.opponent
            }
        } else {
            _ = try await required(.position(moves: game.moves))
            known = game.moves
        }
        let answer: EngineResponse
        do throws(EngineFailure) {
            answer = try await required(.genmove(mark, timeLeft: timeLeft), limit: timeLeft ?? moveTimeoutWithoutClock)
        } catch {
            if gameTimeBinds, let gameClock, case .timedOut = error.reason {
                let reason = EngineFailure.Reason.outOfGameTime(left: gameClock.left, total: gameClock.total)
                self.failure = EngineFailure(reason: reason, engine: name, logPath: logPath)
                throw self.failure!
            }
            throw error
        }
        let cell: Int
        do {
            cell = try answer.move()
        } catch {
            throw fail(.illegalMove(move: answer.text, why: "not a cell 1-9"))
        }
        if let error = game.validate(cell, by: mark) {
            throw fail(.illegalMove(move: answer.text, why: error.description))
        }
        known.append(cell)
        return cell
    }

    /// Asks the engine to quit (`quit`, answered `=`), then ends its process. A failure here is returned, not thrown:
    /// the game is over.
    @discardableResult
    public func quit() async -> EngineFailure? {
        if let failure { return failure }
        var problem: EngineFailure?
        do throws(EngineFailure) {
            _ = try await required(.quit)
        } catch {
            problem = error
        }
        _ = process.finish()
        failure = problem ?? EngineFailure(reason: .notRunning, engine: name, logPath: logPath)
        return problem
    }

    /// Ends the engine's process now (no `quit`).
    public func kill() {
        if failure == nil { failure = EngineFailure(reason: .notRunning, engine: name, logPath: logPath) }
        process.terminate()
    }

    // MARK: - Exchanges

    /// Sends `command` and returns its `=` answer; `?` is a `refused` failure.
    private func required(_ command: EngineCommand, limit: Duration? = nil) async throws(EngineFailure)
        -> EngineResponse
    {
        let answer = try await exchange(command, limit: limit ?? replyTimeout)
        guard answer.isSuccess else { throw fail(.refused(command: command.name, message: answer.text)) }
        return answer
    }

    /// Sends `command` and waits at most `limit` for its whole answer; one exchange at a time, in call order.
    private func exchange(_ command: EngineCommand, limit: Duration) async throws(EngineFailure) -> EngineResponse {
        while exchanging {
            await withCheckedContinuation { waitingToExchange.append($0) }
        }
        exchanging = true
        defer {
            exchanging = false
            if !waitingToExchange.isEmpty { waitingToExchange.removeFirst().resume() }
        }
        if let failure { throw failure }
        let id = nextID
        nextID += 1
        reader.expect(id: id)
        switch process.write(command.line(id: id) + "\n") {
        // An engine whose input is gone is judged as it ends: its exit (or its closed output) comes next.
        case .written, .gone: break
        case .full: throw fail(.notReading)
        }
        let mailbox = process.mailbox
        let clock = clock
        let timer = Task {
            do {
                try await clock.sleep(for: limit)
            } catch {
                return
            }
            mailbox.post(.timedOut(generation: id))
        }
        defer { timer.cancel() }
        while true {
            switch await mailbox.next() {
            case .line(let line):
                do throws(EngineProtocolError) {
                    if let response = try reader.feed(line) { return response }
                } catch {
                    throw fail(.protocolError(error))
                }
            case .ended(let exited):
                throw fail(.exited(exited ? process.terminate() : EngineProcess.closedOutput))
            case .unreadable(let error):
                throw fail(.protocolError(error))
            case .timedOut(let generation):
                if generation == id { throw fail(.timedOut(command: command.name, limit: limit)) }
            case .cancelled:
                throw fail(.cancelled)
            }
        }
    }

    /// Ends the process and records `reason` as the engine's failure.
    private func fail(_ reason: EngineFailure.Reason) -> EngineFailure {
        if let failure { return failure }
        process.terminate()
        let failure = EngineFailure(reason: reason, engine: name, logPath: logPath)
        self.failure = failure
        return failure
    }
}
