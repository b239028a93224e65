import GameProtocol
import GameRules
import GameTransport

/// Plays one match over an established `PeerLink`: feeds the peer's frames, the local player's moves and stop
/// requests into a `MatchSession` and carries out the actions it returns.
///
/// All inputs arrive through one queue (frames from a reader task, stop requests from signals, the turn timer), so the
/// session is only touched from this loop. With a turn time limit (the host's `--move-timeout`) the session says what
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
    }

    private enum Input {
        case message(GameMessage)
        case closed(MatchSession.End)
        case stop(ByeReason)
        case localNetworkOff
        case localMoveDue
        case command(LocalCommand)
        case turnTimeUp(MatchSession.PeerTurn)
    }

    public private(set) var session: MatchSession
    private var player: (any Player)?
    private let commands: AsyncStream<LocalCommand>?
    private let policy: RematchPolicy
    private let reporter: MatchReporter
    /// Pause before each local move (to watch a headless game); frames keep being handled meanwhile.
    private let moveDelay: Duration
    /// Measures the turn time limit.
    private let clock: any Clock<Duration>
    private var moveDue = false
    /// Set when our own player failed (script error); the match then ended with our `bye`.
    public private(set) var localFailure: String?

    public init(
        role: MatchSession.Role,
        player: any Player,
        policy: RematchPolicy,
        reporter: MatchReporter,
        moveDelay: Duration = .zero,
        turnTimeLimit: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            role: role, controller: .player(player), policy: policy, reporter: reporter, moveDelay: moveDelay,
            turnTimeLimit: turnTimeLimit, clock: clock)
    }

    public init(
        role: MatchSession.Role,
        controller: Controller,
        policy: RematchPolicy,
        reporter: MatchReporter,
        moveDelay: Duration = .zero,
        turnTimeLimit: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.session = MatchSession(role: role, turnTimeLimit: turnTimeLimit)
        self.clock = clock
        switch controller {
        case .player(let player):
            self.player = player
            self.commands = nil
        case .commands(let commands):
            self.player = nil
            self.commands = commands
        }
        self.policy = policy
        self.reporter = reporter
        self.moveDelay = moveDelay
    }

    /// Plays the match. `stop` (Ctrl-C, shutdown) makes us leave with a `bye`; so does `revocation` yielding (local
    /// network access turned off during a match with a LAN peer), and the match then ends as `.localNetworkOff`.
    ///
    /// The match's tasks run on the connection's event loop (`PeerLink.executor`): a frame read resumes the match on
    /// the thread that read it, and the frames the match sends go into the pipeline without crossing threads.
    public mutating func run(
        _ link: inout PeerLink, stop: StopSignal? = nil, revocation: AsyncStream<Void>? = nil
    ) async -> MatchSession.End {
        await withTaskExecutorPreference(link.executor) {
            await play(&link, stop: stop, revocation: revocation)
        }
    }

    private mutating func play(
        _ link: inout PeerLink, stop: StopSignal?, revocation: AsyncStream<Void>?
    ) async -> MatchSession.End {
        reporter.report(.connected(peerName: link.peerName, address: link.remoteAddress, role: link.role,
                                   cipher: link.stats.secureSession?.cipherSuite))
        let writer = link.writer
        let (inputs, continuation) = AsyncStream<Input>.makeStream()
        let handOff = ReaderHandOff(link: link)
        // On the real clock the turn timer is the event loop's own (no task and no thread woken per turn); a clock
        // that tests advance keeps the clock's sleep.
        let timer = clock is ContinuousClock
            ? TurnTimer(schedule: { writer.schedule(after: $0, $1) }) { continuation.yield(.turnTimeUp($0)) }
            : TurnTimer(clock: clock) { continuation.yield(.turnTimeUp($0)) }
        defer { timer.stop() }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var reader = handOff.link
                do {
                    while let message = try await reader.next() { continuation.yield(.message(message)) }
                    continuation.yield(.closed(.peerLeft(nil)))
                } catch let error as GameProtocolError {
                    continuation.yield(.closed(.peerViolation(code: error.errorCode, text: "\(error)")))
                } catch let error as LivenessError {
                    continuation.yield(.closed(.peerTimedOut("\(error)")))
                } catch {
                    continuation.yield(.closed(.peerLeft(nil)))
                }
                continuation.finish()
            }
            if let revocation {
                group.addTask {
                    for await _ in revocation {
                        continuation.yield(.localNetworkOff)
                        break
                    }
                }
            }
            if let stop {
                group.addTask {
                    for await reason in stop.stream() {
                        continuation.yield(.stop(reason))
                        break
                    }
                }
            }
            if let commands {
                group.addTask {
                    for await command in commands { continuation.yield(.command(command)) }
                }
            }
            var iterator = inputs.makeAsyncIterator()
            var pending = session.begin()
            while true {
                if perform(&pending, writer: writer, timer: timer) {
                    // Our last frame is out: let the peer read it, drain until it closes (or the linger passes).
                    await writer.finish()
                    while let input = await iterator.next() {
                        if case .closed = input { break }
                    }
                    break
                }
                if session.end != nil { break }
                if moveDue {
                    moveDue = false
                    let delay = moveDelay
                    group.addTask {
                        try? await Task.sleep(for: delay)
                        continuation.yield(.localMoveDue)
                    }
                }
                switch await iterator.next() {
                case .localMoveDue?: pending = localMove()
                case .command(let command)?: pending = handle(command)
                case .message(let message)?: pending = session.receive(message)
                case .closed(let end)?: pending = session.connectionClosed(end)
                case .stop(let reason)?: pending = session.leave(reason)
                case .localNetworkOff?: pending = session.leave(.quit, as: .localNetworkOff)
                case .turnTimeUp(let turn)?: pending = session.turnTimeLimitPassed(turn)
                case nil: pending = session.connectionClosed()
                }
            }
            writer.closeNow()
            group.cancelAll()
            return session.end ?? .peerLeft(nil)
        }
    }

    /// Carries out actions in order (appending what local moves produce). Returns true when the session asked to close.
    private mutating func perform(
        _ actions: inout [MatchSession.Action], writer: PeerWriter, timer: TurnTimer
    ) -> Bool {
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
                writer.flush()
                unflushed = false
            }
            switch action {
            case .send(let message):
                writer.write(message)
                unflushed = true
            case .emit(let event):
                reporter.report(.session(event))
                if case .rematchOffered = event, policy == .followPeer, player != nil {
                    actions += session.decideRematch(true)
                }
            case .requestLocalMove:
                guard player != nil else { break }  // a UI sends `.move` when the person has chosen
                if moveDelay > .zero { moveDue = true } else { actions += localMove() }
            case .requestRematchDecision:
                guard player != nil else { break }  // a UI sends `.rematch` when the person has decided
                switch policy {
                case .upTo(let games): actions += session.decideRematch(session.score.gamesPlayed < games)
                case .followPeer: break  // answer the host's offer when it comes
                }
            case .close:
                closing = true
            case .startTurnTimer(let turn, let limit):
                timer.start(turn, limit: limit)
            case .stopTurnTimer:
                timer.stop()
            }
        }
        if unflushed { writer.flush() }
        actions = []
        return closing
    }

    private mutating func handle(_ command: LocalCommand) -> [MatchSession.Action] {
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

    private mutating func localMove() -> [MatchSession.Action] {
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
            localFailure = "\(error)"
            return session.leave(.quit)
        }
    }
}

/// Carries the link's reading side into the match's reader task. NIO's inbound iterator is not `Sendable`, but a match
/// has exactly one reader: that task, for the whole match (the runner itself only writes), so handing it over is safe.
// @unchecked: the NIO socket boundary (the iterator of NIOAsyncChannel's inbound stream); see above.
private struct ReaderHandOff: @unchecked Sendable {
    var link: PeerLink
}
