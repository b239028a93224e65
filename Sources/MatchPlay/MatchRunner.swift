import AppProcess
import GameClient
import GameEngines
import GameProtocol
import GameRules
import GameTransport
import NIOCore

/// Plays one match over an established `PeerLink`: feeds the peer's frames, the local player's moves and stop
/// requests into a `MatchSession` and carries out the actions it returns.
///
/// The match runs on its connection's event loop (`MatchDriver`): the peer's frames as they are read, stop requests,
/// the turn timer and a UI's commands are all handled there, one at a time, so the session is only touched there. With a turn time limit (the host's `--move-timeout`) the session says what
/// to time and a `TurnTimer` on `clock` measures it.
public struct MatchRunner {
    /// When to play another game.
    public enum RematchPolicy: Sendable, Hashable {
        /// Until this many games have been played in the match.
        case upTo(Int)
        /// As long as the peer offers (a joiner without --games).
        case followPeer
    }

    /// Who makes the local side's decisions.
    public enum Controller {
        /// A computer or scripted player moves; rematches follow the `RematchPolicy`.
        case player(any Player)
        /// Someone else (a UI) sends every move, resignation and rematch answer as a `LocalCommand`.
        case commands(AsyncStream<LocalCommand>)
        /// An engine process moves (`EngineSeat`), asked in a task of its own off the connection's event loop (its
        /// outcomes are carried onto the loop like every other input); rematches follow the `RematchPolicy`. An
        /// engine that fails loses the game in progress (we resign it, reporting `.engineFailed`), and the next game
        /// starts a fresh process.
        case engine(EngineSeat)
    }

    fileprivate enum Input {
        case message(GameMessage)
        case closed(MatchSession.End)
        case stop(ByeReason)
        case localNetworkOff
        case localMoveDue
        case command(LocalCommand)
        case turnTimeUp(MatchSession.PeerTurn)
        case engine(EngineWorker.Outcome)
    }

    public fileprivate(set) var session: MatchSession
    fileprivate var player: (any Player)?
    fileprivate let commands: AsyncStream<LocalCommand>?
    /// The engine playing the local side, if one does.
    fileprivate let engineSeat: EngineSeat?
    fileprivate let policy: RematchPolicy
    fileprivate let reporter: MatchReporter
    /// Pause before each local move (to watch a headless game); frames keep being handled meanwhile.
    fileprivate let moveDelay: Duration
    /// Measures the turn time limit.
    fileprivate let clock: any Clock<Duration>
    /// Set when our own player failed (script error); the match then ended with our `bye`.
    public fileprivate(set) var localFailure: PlayerSpecError?

    public init(
        role: MatchSession.Role,
        player: any Player,
        policy: RematchPolicy,
        reporter: MatchReporter,
        moveDelay: Duration = .zero,
        turnTimeLimit: Duration? = nil,
        gameTime: Duration? = nil,
        clock: any Clock<Duration>
    ) {
        self.init(
            role: role, controller: .player(player), policy: policy, reporter: reporter, moveDelay: moveDelay,
            turnTimeLimit: turnTimeLimit, gameTime: gameTime, clock: clock)
    }

    public init(
        role: MatchSession.Role,
        controller: Controller,
        policy: RematchPolicy,
        reporter: MatchReporter,
        moveDelay: Duration = .zero,
        turnTimeLimit: Duration? = nil,
        gameTime: Duration? = nil,
        clock: any Clock<Duration>
    ) {
        self.session = MatchSession(role: role, turnTimeLimit: turnTimeLimit, gameTime: gameTime)
        self.clock = clock
        switch controller {
        case .player(let player):
            self.player = player
            self.commands = nil
            self.engineSeat = nil
        case .commands(let commands):
            self.player = nil
            self.commands = commands
            self.engineSeat = nil
        case .engine(let seat):
            self.player = nil
            self.commands = nil
            self.engineSeat = seat
        }
        self.policy = policy
        self.reporter = reporter
        self.moveDelay = moveDelay
    }

    /// Plays the match. `stop` (Ctrl-C, shutdown) makes us leave with a `bye`; so does `revocation` yielding (local
    /// network access turned off during a match with a LAN peer), and the match then ends as `.localNetworkOff`.
    ///
    /// The match runs on the connection's event loop, synchronously: each frame the peer sends is handed to the
    /// session as it is read (`PeerLink.divert`: no async stream and no task switch per frame), and the frames the
    /// session answers with go into the pipeline at once, one flush per step. Everything else that can happen (a stop,
    /// the turn timer, a UI's command, a delayed move) is carried onto that event loop too, so the session is only
    /// ever touched there, one input at a time.
    public mutating func run(
        _ link: inout PeerLink, stop: StopSignal? = nil, revocation: AsyncStream<Void>? = nil
    ) async -> MatchSession.End {
        await withTaskExecutorPreference(link.executor) {
            await play(&link, stop: stop, revocation: revocation)
        }
    }

    /// The match's input for what came from the peer's connection: a message, or its end and why.
    private static func input(for event: PeerEvent) -> Input {
        switch event {
        case .message(let message): .message(message)
        case .ended(nil): .closed(.peerLeft(nil))
        case .ended(let error as GameProtocolError): .closed(.peerViolation(code: error.errorCode, text: "\(error)"))
        case .ended(let error as LivenessError): .closed(.peerTimedOut("\(error)"))
        case .ended: .closed(.peerLeft(nil))
        }
    }

    private mutating func play(
        _ link: inout PeerLink, stop: StopSignal?, revocation: AsyncStream<Void>?
    ) async -> MatchSession.End {
        reporter.report(.connected(peerName: link.peerName, address: link.remoteAddress, role: link.role,
                                   cipher: link.stats.secureSession?.cipherSuite))
        let writer = link.writer
        let loop = writer.eventLoop
        let done = loop.makePromise(of: MatchSession.End.self)
        session.peerLimits = link.peerLimits
        let driver = MatchDriver(runner: self, writer: writer, done: done)
        driver.elapsed = clock.stopwatch()
        let bound = NIOLoopBound(driver, eventLoop: loop)
        // Standard output's held lines are flushed by this event loop while the match runs (it wakes anyway; a timer
        // of the output's own would wake two more threads each 2 ms window).
        let flushes = CheckedOutput.standardOutput.scheduleFlushes { delay, body in
            loop.scheduleTask(in: .nanoseconds(Int64(clamping: delay))) { body() }
        }
        defer { CheckedOutput.standardOutput.endFlushes(flushes) }
        // Inputs from elsewhere are carried onto the event loop.
        let deliver: @Sendable (Input) -> Void = { input in
            loop.execute { bound.value.handle(input) }
        }
        driver.timer = TurnTimer(clock: clock) { deliver(.turnTimeUp($0)) }
        driver.afterMoveDelay = { [clock] delay in
            Task {
                guard (try? await clock.sleep(for: delay)) != nil else { return }  // cancelled: the match is over
                deliver(.localMoveDue)
            }
        }
        // The engine's jobs run off the event loop (the global executor): its process is spoken to by a task of its
        // own, whose outcomes are delivered like every other input.
        var engineWorker: Task<Void, Never>?
        if let engineSeat {
            let (jobs, jobsContinuation) = AsyncStream<EngineWorker.Job>.makeStream()
            driver.engineJobs = jobsContinuation
            let worker = EngineWorker(seat: engineSeat)
            engineWorker = Task(executorPreference: globalConcurrentExecutor) {
                await worker.run(jobs) { deliver(.engine($0)) }
            }
        }
        let end = await withTaskGroup(of: Void.self) { group in
            if let revocation {
                group.addTask {
                    for await _ in revocation {
                        deliver(.localNetworkOff)
                        break
                    }
                }
            }
            if let stop {
                group.addTask {
                    for await reason in stop.stream() {
                        deliver(.stop(reason))
                        break
                    }
                }
            }
            if let commands {
                group.addTask {
                    for await command in commands { deliver(.command(command)) }
                }
            }
            driver.start()
            await link.divert { driver.handle(Self.input(for: $0)) }
            let end = (try? await done.futureResult.get()) ?? .peerLeft(nil)
            group.cancelAll()
            return end
        }
        if let engineWorker {
            // The match is over: the engine quits (a move it still owes is not waited for: it is stopped).
            driver.engineJobs?.finish()
            if driver.engineMoveAwaited || stop?.raised != nil { engineWorker.cancel() }
            await engineWorker.value
        }
        session = driver.session
        player = driver.player
        localFailure = driver.localFailure
        return end
    }
}

/// A match in progress, on its connection's event loop only (`NIOLoopBound` in `MatchRunner.play`): the runner's
/// state, the session's inputs handled one at a time as they come, the actions carried out at once.
private final class MatchDriver {
    typealias Input = MatchRunner.Input

    var session: MatchSession
    var player: (any Player)?
    var localFailure: PlayerSpecError?
    var timer: TurnTimer?
    /// Delivers `.localMoveDue` once a delay has passed on the match's clock; the waiting task, while one waits.
    var afterMoveDelay: ((Duration) -> Task<Void, Never>)?
    private var delayedMove: Task<Void, Never>?
    /// The time since the match started (the session's time input).
    var elapsed: (@Sendable () -> Duration)?
    /// The engine playing the local side (its jobs, in order), and whether a move was asked and not yet answered.
    var engineJobs: AsyncStream<EngineWorker.Job>.Continuation?
    var engineMoveAwaited = false
    private let engineSeat: EngineSeat?
    /// The number of the game in progress (or the last one).
    private var gameNumber = 0
    private let policy: MatchRunner.RematchPolicy
    private let reporter: MatchReporter
    private let moveDelay: Duration
    private let writer: PeerWriter
    /// The frames' way into the pipeline from the event loop, where the driver runs.
    private let frames: LoopFrameWriter
    private let done: EventLoopPromise<MatchSession.End>
    private var moveDue = false
    /// Our last frame is out and our output shut: waiting for the peer to close (or the linger to pass).
    private var lingering = false
    /// The peer's side ended (closed, failed, went silent).
    private var peerEnded = false
    private var finished = false

    init(runner: MatchRunner, writer: PeerWriter, done: EventLoopPromise<MatchSession.End>) {
        session = runner.session
        player = runner.player
        engineSeat = runner.engineSeat
        policy = runner.policy
        reporter = runner.reporter
        moveDelay = runner.moveDelay
        self.writer = writer
        self.frames = writer.loopWriter()  // made on the event loop, like the driver (`NIOLoopBound` in `play`)
        self.done = done
    }

    func start() {
        if let elapsed { session.clockTime(elapsed()) }
        var actions = session.begin()
        step(&actions)
    }

    func handle(_ input: Input) {
        guard !finished else { return }
        if case .closed = input { peerEnded = true }
        if lingering {
            // Draining until the peer closes: the match is decided.
            if peerEnded { finish() }
            return
        }
        if let elapsed { session.clockTime(elapsed()) }
        var actions: [MatchSession.Action]
        switch input {
        case .localMoveDue: actions = localMove()
        case .command(let command): actions = handle(command)
        case .message(let message): actions = session.receive(message)
        case .closed(let end): actions = session.connectionClosed(end)
        case .stop(let reason): actions = session.leave(reason)
        case .localNetworkOff: actions = session.leave(.quit, as: .localNetworkOff)
        case .turnTimeUp(let turn): actions = session.turnTimeLimitPassed(turn)
        case .engine(let outcome): actions = handle(outcome)
        }
        step(&actions)
    }

    private func step(_ actions: inout [MatchSession.Action]) {
        if perform(&actions) {
            // Our last frame is out: let the peer read it, drain until it closes (or the linger passes).
            lingering = true
            writer.shutOutput()
            if peerEnded { finish() }
            return
        }
        if session.end != nil {
            finish()
            return
        }
        if moveDue {
            moveDue = false
            if moveDelay > .zero, let afterMoveDelay {
                delayedMove = afterMoveDelay(moveDelay)
            } else {
                writer.eventLoop.assumeIsolated().execute { self.handle(.localMoveDue) }
            }
        }
    }

    private func finish() {
        finished = true
        // The timer's expiry and the delayed move are delivered to this driver: dropped with the match, or each would
        // keep the other alive.
        timer?.cancel()
        timer = nil
        delayedMove?.cancel()
        delayedMove = nil
        afterMoveDelay = nil
        writer.closeNow()
        done.succeed(session.end ?? .peerLeft(nil))
    }

    /// Carries out actions in order (appending what local moves produce). Returns true when the session asked to close.
    private func perform(_ actions: inout [MatchSession.Action]) -> Bool {
        var index = 0
        var closing = false
        // Frames of consecutive `.send`s go out in one flush, before whatever comes next (a transcript line, a move
        // being chosen): the peer gets our frame as early as possible. A frame the connection can no longer take is
        // dropped; what the peer sent before it closed (a `bye` that crossed ours) is still queued for the reader and
        // says why, and the reader's `.closed` ends the match otherwise.
        var unflushed = false
        while index < actions.count {
            let action = actions[index]
            index += 1
            if case .send = action {} else if unflushed {
                frames.flush()
                unflushed = false
            }
            switch action {
            case .send(let message):
                frames.write(message)
                unflushed = true
            case .emit(let event):
                reporter.report(.session(event))
                tellEngine(event)
                if case .rematchOffered = event, policy == .followPeer, decidesAlone {
                    actions += session.decideRematch(true)
                }
            case .requestLocalMove:
                guard decidesAlone else { break }  // a UI sends `.move` when the person has chosen
                if moveDelay > .zero { moveDue = true } else { actions += localMove() }
            case .requestRematchDecision:
                guard decidesAlone else { break }  // a UI sends `.rematch` when the person has decided
                switch policy {
                case .upTo(let games): actions += session.decideRematch(session.score.gamesPlayed < games)
                case .followPeer: break  // answer the host's offer when it comes
                }
            case .close:
                closing = true
            case .startTurnTimer(let turn, let limit):
                timer?.start(turn, limit: limit)
            case .stopTurnTimer:
                timer?.stop()
            }
        }
        if unflushed { frames.flush() }
        actions = []
        return closing
    }


    private func handle(_ command: LocalCommand) -> [MatchSession.Action] {
        switch command {
        case .move(let cell):
            do {
                return try session.playLocalMove(cell)
            } catch {
                reporter.report(.localMoveRejected("\(error)"))
                return []
            }
        case .resign: return session.resign()
        case .rematch(let wants): return session.decideRematch(wants)
        case .leave(let reason): return session.leave(reason)
        }
    }

    /// Whether the local side decides by itself (a player or an engine), rather than a UI's commands.
    private var decidesAlone: Bool { player != nil || engineSeat != nil }

    /// Keeps the engine up to date: a new game with its mark, each opponent move.
    private func tellEngine(_ event: MatchSession.Event) {
        switch event {
        case .gameStarted(let number, let localMark, let firstMover):
            gameNumber = number
            engineJobs?.yield(.newGame(game: number, engineMark: localMark, firstMover: firstMover))
        case .moved(_, let cell, .peer):
            engineJobs?.yield(.opponentMoved(game: gameNumber, cell: cell))
        default:
            break
        }
    }

    /// What the engine's task posted: it started (reported), it moved (played), it failed (it loses the game in
    /// progress: we resign it).
    private func handle(_ outcome: EngineWorker.Outcome) -> [MatchSession.Action] {
        switch outcome {
        case .started(let name, let pid, let log):
            reporter.report(.engineStarted(name: name, pid: pid, log: log))
            return []
        case .moved(let game, let cell):
            engineMoveAwaited = false
            guard game == gameNumber, let current = session.currentGame, current.turn == session.localMark else {
                return []
            }
            do {
                return try session.playLocalMove(cell)
            } catch {
                // The engine's move was checked against the same game: this cannot happen; resign rather than hang.
                reporter.report(.engineFailed(game: game, engine: engineSeat?.command ?? "", kind: "illegal-move",
                                              reason: "played an illegal move \"\(cell + 1)\": \(error)", log: ""))
                return session.resign()
            }
        case .failed(let game, let failure):
            engineMoveAwaited = false
            reporter.report(.engineFailed(game: game, engine: failure.engine, kind: failure.kind,
                                          reason: failure.reasonText, log: failure.logPath))
            guard game == gameNumber, session.currentGame != nil else { return [] }
            return session.resign()
        }
    }

    private func localMove() -> [MatchSession.Action] {
        if engineSeat != nil {
            // The engine's task is asked; its move comes back as an input.
            guard let game = session.currentGame, game.turn == session.localMark else { return [] }
            engineMoveAwaited = true
            engineJobs?.yield(.move(
                game: gameNumber, game,
                gameClock: session.localTimeLeft.flatMap { left in session.gameTime.map { (left: left, total: $0) } }))
            return []
        }
        // A delayed move can come due after its game ended (resignation, peer left): then there is nothing to play.
        guard var player, let game = session.currentGame, game.turn == session.localMark else { return [] }
        defer { self.player = player }
        do {
            let cell = try player.chooseMove(in: game)
            return try session.playLocalMove(cell)
        } catch HumanChoice.resign {
            return session.resign()
        } catch HumanChoice.quit {
            return session.leave(.quit)
        } catch {
            localFailure = .scriptFailed("\(error)")
            return session.leave(.quit)
        }
    }
}
