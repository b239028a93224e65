import GameRules

/// The state machine of a match (a series of games) between two connected peers, after the handshake.
///
/// Pure: every input is a `mutating func` that returns the `Action`s the caller must carry out (send a frame,
/// report an event, ask the local player for a move, close). Both sides run one; each re-checks every move it
/// receives with `GameRules`, and any violation becomes an `error` frame and a closed connection.
///
/// The host decides who plays X in each game (the joiner in odd games, the host in even ones) and X moves first,
/// so the first player alternates across a series. After a game either side may offer a rematch; offers that
/// cross count as agreement; on agreement the host sends `start` for the next game. A side that wants no more
/// games declines (if offered) and says `bye`.
///
/// With a `turnTimeLimit` (the host's `--move-timeout`) the session also decides what the peer is being waited for
/// (a move, the answer to our rematch offer) and asks the caller to time it: `.startTurnTimer` each time that changes,
/// `.stopTurnTimer` when nothing is awaited from the peer. The caller only runs the clock and reports the time being
/// up with `turnTimeLimitPassed(_:)`; the session says `bye(timeout)`, the peer loses the game in progress with
/// reason `timeout`, and the match ends.
///
/// With a `gameTime` (`--game-time`) each side also has a clock for the whole game, chess-clock style: only the side
/// to move has its clock running, the time it used is taken from what it has left, and both clocks are reset to
/// `gameTime` at each game's start. The caller says what time it is with `clockTime(_:)` before each input (time is
/// an input like any other: tests give it by hand). The peer's clock bounds the turn timer (`.startTurnTimer` with
/// the smaller of `turnTimeLimit` and the peer's time left); when it is the game clock that runs out, the peer loses
/// as with the move limit (`bye(timeout)`, reason `timeout`), and the match ends as `.gameTimeout`. The local side's
/// time left (`localTimeLeft`) is what a local engine is told and held to; the peer enforces the local side's clock
/// with its own `--game-time`.
///
/// A `bye(timeout)` from the peer is checked against the limits it announced in the handshake (`peerLimits`) and the
/// session's own clock, which always runs: it counts only when we owe the peer a move or a rematch answer (or our last
/// one crossed its verdict) and that turn, or our time in the game, has reached the announced limit (less
/// `claimTolerance`, the frames' way). Any other claim is a protocol violation: the claimant forfeits the game in
/// progress, as it does for every violation.
public struct MatchSession: Sendable {
    /// Which end of the connection this session is.
    public enum Role: String, Sendable, Hashable { case host, joiner }

    /// Who did something.
    public enum Side: String, Sendable, Hashable { case local, peer }

    private enum State: Sendable, Hashable {
        /// Joiner only: waiting for the host's `start` of game `number`.
        case awaitingStart(number: Int)
        case playing(Game, number: Int, localMark: Mark)
        /// A game ended. `localWants` is nil until decided; `peerOffered` records an offer not yet answered.
        case betweenGames(lastNumber: Int, localWants: Bool?, peerOffered: Bool)
        case ended(End)
    }

    public let role: Role
    /// How long the peer may take for a move or a rematch answer; nil: no limit (the joiner's side).
    public let turnTimeLimit: Duration?
    private var state: State
    /// The peer turn the caller's timer is running for (the last timer action returned).
    private var timedTurn: PeerTurn?
    /// After a local resignation the peer's move may already be on its way: one such crossing move is ignored.
    private var toleratesCrossingMove = false
    public private(set) var score = Score()
    /// Each side's time for a whole game (`--game-time`); nil: no game clock.
    public let gameTime: Duration?
    /// Both sides' game clocks and the turn the local side owes, at the time the caller last said (`clockTime(_:)`).
    private var clock = MatchClock()
    /// Whether the running turn timer is the peer's game clock (rather than `turnTimeLimit`).
    private var timedByGameClock = false
    /// The time limits the peer holds us to, as it announced them in the handshake.
    public var peerLimits: TimeLimits = .none
    /// How much earlier than an announced limit a peer's `bye(timeout)` may come and still count: our clock starts
    /// when the peer's move reaches us, the peer's when it sent it, so ours reads less by the frames' way.
    public static let claimTolerance: Duration = .milliseconds(500)

    public init(role: Role, turnTimeLimit: Duration? = nil, gameTime: Duration? = nil) {
        self.role = role
        self.turnTimeLimit = turnTimeLimit
        self.gameTime = gameTime
        self.state = .awaitingStart(number: 1)
    }

    /// Says what time it is (any origin; never going back): call it before each input when there is a game clock.
    public mutating func clockTime(_ time: Duration) {
        clock.set(time)
    }

    /// With a game clock, in a game in progress: the local side's time left now (its clock runs while it is to move).
    public var localTimeLeft: Duration? {
        guard let gameTime, currentGame != nil else { return nil }
        return max(.zero, gameTime - clock.used(by: .local))
    }

    /// With a game clock, in a game in progress: the peer's time left now.
    public var peerTimeLeft: Duration? {
        guard let gameTime, currentGame != nil else { return nil }
        return max(.zero, gameTime - clock.used(by: .peer))
    }

    /// What the local side owes the peer now, if anything: our move in a game in progress, or the answer to the
    /// peer's rematch offer (what the peer's time limit applies to).
    private var owedLocalTurn: PeerTurn? {
        switch state {
        case .playing(let game, let number, let localMark) where !game.isOver && game.turn == localMark:
            return .move(game: number, played: game.moves.count)
        case .betweenGames(let last, nil, true):
            return .rematchAnswer(afterGame: last)
        default:
            return nil
        }
    }

    /// What the local side is waiting for the peer to do now, if anything: the peer's move in a game in progress, or
    /// the answer to our rematch offer.
    public var awaitedPeerTurn: PeerTurn? {
        switch state {
        case .playing(let game, let number, let localMark) where !game.isOver && game.turn == localMark.opponent:
            return .move(game: number, played: game.moves.count)
        case .betweenGames(let last, true?, false):
            return .rematchAnswer(afterGame: last)
        default:
            return nil
        }
    }

    /// The game in progress, if any.
    public var currentGame: Game? {
        if case .playing(let game, _, _) = state { return game }
        return nil
    }

    /// The number of the game in progress (1-based within the match), if any.
    public var currentGameNumber: Int? {
        if case .playing(_, let number, _) = state { return number }
        return nil
    }

    /// The local player's mark in the current game.
    public var localMark: Mark? {
        if case .playing(_, _, let mark) = state { return mark }
        return nil
    }

    /// How the match ended, once it has.
    public var end: End? {
        if case .ended(let end) = state { return end }
        return nil
    }

    /// The joiner's mark in game `number`: X (and so first) in odd games, O in even ones.
    public static func joinerMark(forGame number: Int) -> Mark { number % 2 == 1 ? .x : .o }

    // MARK: Inputs

    /// Call once the handshake has completed. The host starts game 1.
    public mutating func begin() -> [Action] { timed(handleBegin()) }

    /// A message arrived from the peer.
    public mutating func receive(_ message: GameMessage) -> [Action] { timed(handleReceive(message)) }

    /// The local player places its mark. Throws the rules' `MoveError` (nothing is sent then).
    public mutating func playLocalMove(_ cell: Int) throws -> [Action] { timed(try handlePlayLocalMove(cell)) }

    /// The local player resigns the current game.
    public mutating func resign() -> [Action] { timed(handleResign()) }

    /// Between games: whether the local side wants another game.
    public mutating func decideRematch(_ wants: Bool) -> [Action] { timed(handleDecideRematch(wants)) }

    /// The local side leaves (quit, signal): a `bye`, and the game in progress counts as lost. `end` says why the
    /// match ended when it is not simply that we left (local network access was turned off).
    public mutating func leave(_ reason: ByeReason = .quit, as end: End? = nil) -> [Action] {
        timed(handleLeave(reason, as: end))
    }

    /// The connection closed or failed without a `bye`: `end` says why (by default, the peer left). The game in
    /// progress, if any, is forfeited by the peer.
    public mutating func connectionClosed(_ end: End = .peerLeft(nil)) -> [Action] {
        timed(handleConnectionClosed(end))
    }

    /// The turn timer for `turn` ran out. If the peer still owes that turn, we say `bye(timeout)`: the peer loses the
    /// game in progress (reason `timeout`) and the match ends. A timer that fires late (the peer acted meanwhile, or
    /// another timer replaced it) changes nothing.
    public mutating func turnTimeLimitPassed(_ turn: PeerTurn) -> [Action] {
        guard turnTimeLimit != nil || gameTime != nil, turn == timedTurn, turn == awaitedPeerTurn else { return [] }
        let end: End
        if timedByGameClock, let gameTime {
            end = .gameTimeout(limit: gameTime)
        } else if let limit = turnTimeLimit {
            end = .moveTimeout(by: .peer, limit: limit)
        } else {
            return []
        }
        switch state {
        case .playing(var game, let number, let localMark):
            game.timeOut(localMark.opponent)
            return timed([.send(.bye(.timeout))] + endGame(game, number: number, askRematch: false) + finish(end))
        default:
            return timed([.send(.bye(.timeout))] + finish(end))
        }
    }

    // MARK: Input handling

    /// With a time limit: appends the timer action when what is awaited from the peer changed.
    private mutating func timed(_ actions: [Action]) -> [Action] {
        runClocks()
        guard turnTimeLimit != nil || gameTime != nil else { return actions }
        let turn = awaitedPeerTurn
        guard turn != timedTurn else { return actions }
        timedTurn = turn
        guard let turn else { return actions + [.stopTurnTimer] }
        var limit = turnTimeLimit
        timedByGameClock = false
        if case .move = turn, let gameTime, limit.map({ gameTime - clock.peerUsed < $0 }) ?? true {
            limit = max(.zero, gameTime - clock.peerUsed)
            timedByGameClock = true
        }
        guard let limit else { return actions + [.stopTurnTimer] }  // a rematch answer, with a game clock only
        return actions + [.startTurnTimer(turn, limit: limit)]
    }

    /// After an input: charges the side whose turn ended and starts the clock of the side to move (both reset when a
    /// game starts), and notes when the local side's owed turn began or how long the one it finished took.
    private mutating func runClocks() {
        var mover: Side?
        var number: Int?
        if case .playing(let game, let n, let localMark) = state {
            number = n
            if !game.isOver { mover = game.turn == localMark ? .local : .peer }
        } else if case .betweenGames(let last, _, _) = state {
            number = last
        }
        clock.advance(owed: owedLocalTurn, mover: mover, game: number)
    }

    private mutating func handleBegin() -> [Action] {
        guard role == .host, case .awaitingStart(let number) = state else { return [] }
        return hostStartGame(number)
    }

    private mutating func handleReceive(_ message: GameMessage) -> [Action] {
        let tolerated = toleratesCrossingMove
        toleratesCrossingMove = false
        switch (message, state) {
        case (_, .ended):
            return []
        case (.ping(let value), _):
            return [.send(.pong(value))]
        case (.pong, _):
            return []
        case (.error(let code, let text), _):
            return finish(.peerReportedError(code: code, text: text))
        case (.bye(let reason), _)
            where reason == .timeout && !clock.timeoutClaimHolds(peerLimits, tolerance: Self.claimTolerance):
            return violation(.timeoutNotDue, "bye(timeout), but \(clock.timeoutClaimRefutation(peerLimits))")
        case (.bye(let reason), .playing(var game, let number, let localMark)) where reason == .timeout:
            // We ran out of time; a move of ours that crossed the peer's verdict does not count.
            game.timeOut(localMark)
            return endGame(game, number: number, askRematch: false) + finish(.moveTimeout(by: .local, limit: nil))
        case (.bye(let reason), _) where reason == .timeout:
            return finish(.moveTimeout(by: .local, limit: nil))
        case (.bye(let reason), .playing(var game, let number, let localMark)):
            game.forfeit(localMark.opponent)
            return endGame(game, number: number, askRematch: false) + finish(.peerLeft(reason))
        case (.bye(let reason), _):
            return finish(reason == .seriesOver ? .completed(by: .peer) : .peerLeft(reason))

        case (.start(let number, let joinerMark, let firstMover), .awaitingStart(let expected)) where role == .joiner:
            guard Int(number) == expected else {
                return violation(.unexpectedMessage, "expected game \(expected), got start of game \(number)")
            }
            return startGame(number: expected, localMark: joinerMark, firstMover: firstMover)

        case (.move(let cell), .playing(var game, let number, let localMark)):
            let peerMark = localMark.opponent
            do {
                let over = try game.play(Int(cell), by: peerMark)
                state = .playing(game, number: number, localMark: localMark)
                var actions: [Action] = [.emit(.moved(mark: peerMark, cell: Int(cell), by: .peer))]
                if over != nil {
                    actions += endGame(game, number: number)
                } else {
                    actions.append(.requestLocalMove)
                }
                return actions
            } catch let error as MoveError {
                return violation(ProtocolErrorCode(error), "illegal move: \(error)")
            } catch {
                return violation(.unexpectedMessage, "illegal move: \(error)")
            }
        case (.move, .betweenGames), (.resign, .betweenGames):
            if tolerated { return [] }  // crossed our resignation
            return violation(.gameOver, "the game is over")

        case (.resign, .playing(var game, let number, let localMark)):
            try? game.resign(localMark.opponent)
            return endGame(game, number: number)

        case (.rematchOffer, .betweenGames(let last, let localWants, false)):
            switch localWants {
            case true?:
                return agreeOnRematch(after: last)
            case false?:
                return []  // we already declined; our bye is on its way
            case nil:
                state = .betweenGames(lastNumber: last, localWants: nil, peerOffered: true)
                return [.emit(.rematchOffered)]
            }
        case (.rematchAccept, .betweenGames(let last, true?, false)):
            return agreeOnRematch(after: last)
        case (.rematchDecline, .betweenGames(_, true?, _)):
            return finish(.completed(by: .peer))

        default:
            return violation(.unexpectedMessage, "unexpected \(message.kind) message \(stateName)")
        }
    }

    private mutating func handlePlayLocalMove(_ cell: Int) throws -> [Action] {
        guard case .playing(var game, let number, let localMark) = state else { throw MoveError.gameOver }
        let over = try game.play(cell, by: localMark)
        state = .playing(game, number: number, localMark: localMark)
        var actions: [Action] = [
            .send(.move(cell: UInt8(cell))), .emit(.moved(mark: localMark, cell: cell, by: .local)),
        ]
        if over != nil { actions += endGame(game, number: number) }
        return actions
    }

    private mutating func handleResign() -> [Action] {
        guard case .playing(var game, let number, let localMark) = state else { return [] }
        toleratesCrossingMove = game.turn != localMark  // the peer may be sending its move right now
        try? game.resign(localMark)
        return [.send(.resign)] + endGame(game, number: number)
    }

    private mutating func handleDecideRematch(_ wants: Bool) -> [Action] {
        guard case .betweenGames(let last, nil, let peerOffered) = state else { return [] }
        if wants {
            if peerOffered { return [.send(.rematchAccept)] + agreeOnRematch(after: last) }
            state = .betweenGames(lastNumber: last, localWants: true, peerOffered: false)
            return [.send(.rematchOffer)]
        }
        return (peerOffered ? [.send(.rematchDecline)] : []) + [.send(.bye(.seriesOver))]
            + finish(.completed(by: .local))
    }

    private mutating func handleLeave(_ reason: ByeReason, as end: End?) -> [Action] {
        let end = end ?? .localLeft(reason)
        switch state {
        case .ended:
            return []
        case .playing(var game, let number, let localMark):
            game.forfeit(localMark)
            return [.send(.bye(reason))] + endGame(game, number: number, askRematch: false) + finish(end)
        default:
            return [.send(.bye(reason))] + finish(end)
        }
    }

    private mutating func handleConnectionClosed(_ end: End) -> [Action] {
        switch state {
        case .ended:
            return []
        case .playing(var game, let number, let localMark):
            game.forfeit(localMark.opponent)
            return endGame(game, number: number, askRematch: false) + finish(end, close: false)
        default:
            return finish(end, close: false)
        }
    }

    // MARK: Helpers

    private mutating func hostStartGame(_ number: Int) -> [Action] {
        let joinerMark = Self.joinerMark(forGame: number)
        return [.send(.start(game: UInt16(clamping: number), joinerMark: joinerMark, firstMover: .x))]
            + startGame(number: number, localMark: joinerMark.opponent, firstMover: .x)
    }

    private mutating func startGame(number: Int, localMark: Mark, firstMover: Mark) -> [Action] {
        let game = Game(firstMover: firstMover)
        state = .playing(game, number: number, localMark: localMark)
        var actions: [Action] = [.emit(.gameStarted(number: number, localMark: localMark, firstMover: firstMover))]
        if game.turn == localMark { actions.append(.requestLocalMove) }
        return actions
    }

    private mutating func endGame(_ game: Game, number: Int, askRematch: Bool = true) -> [Action] {
        guard let result = game.result else { return [] }
        let localMark = localMark ?? .x
        switch result.winner {
        case nil: score.draws += 1
        case localMark?: score.localWins += 1
        default: score.peerWins += 1
        }
        state = .betweenGames(lastNumber: number, localWants: nil, peerOffered: false)
        let over: Action = .emit(.gameOver(number: number, result: result, board: game.board, score: score))
        return askRematch ? [over, .requestRematchDecision] : [over]
    }

    private mutating func agreeOnRematch(after last: Int) -> [Action] {
        if role == .host { return hostStartGame(last + 1) }
        state = .awaitingStart(number: last + 1)
        return []
    }

    /// The peer broke the protocol or the rules: it forfeits the game in progress, and the match ends.
    private mutating func violation(_ code: ProtocolErrorCode, _ text: String) -> [Action] {
        var actions: [Action] = [.send(.error(code: code, text: text))]
        if case .playing(var game, let number, let localMark) = state {
            game.forfeit(localMark.opponent)
            actions += endGame(game, number: number, askRematch: false)
        }
        return actions + finish(.peerViolation(code: code, text: text))
    }

    private mutating func finish(_ end: End, close: Bool = true) -> [Action] {
        state = .ended(end)
        return [.emit(.matchOver(end, score: score))] + (close ? [.close] : [])
    }

    private var stateName: String {
        switch state {
        case .awaitingStart: return role == .host ? "before the game started" : "while waiting for the host to start"
        case .playing: return "during a game"
        case .betweenGames: return "between games"
        case .ended: return "after the match ended"
        }
    }
}
