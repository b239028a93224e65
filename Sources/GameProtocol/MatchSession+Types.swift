import GameRules

/// What a `MatchSession` tells its caller: how a match ended, what it waits for from the peer, the events to report,
/// the actions to carry out, and the score.
extension MatchSession {
    /// How a match ended.
    public enum End: Sendable, Hashable {
        /// Both sides finished normally (a `bye` after the last game, or a declined rematch).
        case completed(by: Side)
        /// The peer left during a game or without a `bye` (connection closed, `bye(quit)`, …).
        case peerLeft(ByeReason?)
        /// The peer broke the protocol or the rules; we sent it an `error` frame.
        case peerViolation(code: ProtocolErrorCode, text: String)
        /// The peer sent us an `error` frame.
        case peerReportedError(code: ProtocolErrorCode, text: String)
        /// Nothing arrived from the peer for too long (it vanished: crashed host, cable pulled, …).
        case peerTimedOut(String)
        /// We left (quit, signal) before the match ended normally.
        case localLeft(ByeReason)
        /// Local network access was turned off during a match with a peer on the LAN (Settings, `privacy deny`): we
        /// left (the peer hears `bye(quit)`).
        case localNetworkOff
        /// A side did not move, or answer a rematch offer, within the time limit: `by: .peer` when our limit ran out
        /// (we said `bye(timeout)`), `by: .local` when the peer's did (it said `bye(timeout)`; its limit is unknown).
        case moveTimeout(by: Side, limit: Duration?)
        /// The peer's clock for the whole game (`gameTime`, `limit`) ran out: we said `bye(timeout)`. (A peer that
        /// times us out says only `bye(timeout)`: that is `.moveTimeout(by: .local, …)`.)
        case gameTimeout(limit: Duration)
    }

    /// What the local side is waiting for the peer to do: what a turn time limit applies to.
    public enum PeerTurn: Sendable, Hashable {
        /// The peer's move in game `game`, with `played` marks on the board.
        case move(game: Int, played: Int)
        /// The peer's answer to our rematch offer after game `afterGame`.
        case rematchAnswer(afterGame: Int)
    }

    /// Things the caller reports to the user.
    public enum Event: Sendable, Hashable {
        case gameStarted(number: Int, localMark: Mark, firstMover: Mark)
        case moved(mark: Mark, cell: Int, by: Side)
        case gameOver(number: Int, result: GameResult, board: Board, score: Score)
        case rematchOffered
        case matchOver(End, score: Score)
    }

    /// What the caller must do, in order.
    public enum Action: Sendable, Hashable {
        case send(GameMessage)
        case emit(Event)
        /// It is the local player's turn: call `playLocalMove(_:)` (or `resign()`).
        case requestLocalMove
        /// A game ended: call `decideRematch(_:)` when the local side has decided.
        case requestRematchDecision
        /// Close the connection (after the sends before it are flushed).
        case close
        /// (With a turn time limit only.) Start the turn timer, replacing any running one: when `limit` has passed,
        /// call `turnTimeLimitPassed(turn)`.
        case startTurnTimer(PeerTurn, limit: Duration)
        /// (With a turn time limit only.) Stop the turn timer: nothing is awaited from the peer now.
        case stopTurnTimer
    }

    /// Wins and draws so far, from the local point of view.
    public struct Score: Sendable, Hashable {
        public var localWins = 0
        public var peerWins = 0
        public var draws = 0
        public var gamesPlayed: Int { localWins + peerWins + draws }
        public init(localWins: Int = 0, peerWins: Int = 0, draws: Int = 0) {
            self.localWins = localWins
            self.peerWins = peerWins
            self.draws = draws
        }
    }
}
