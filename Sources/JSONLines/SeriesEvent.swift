import GameClient
import GameProtocol
import GameRules
import MatchStatistics
import TextSupport

/// The lines of `tictactoe match --json` that are the series' own (each game's seed and transcript are a match's
/// events): a game played, a pair's score, a round robin's standings, the end. docs/HEADLESS.md's series section lists
/// their keys; numbers are rounded, non-finite ones `null`.
public enum SeriesEvent: Sendable {
    /// `match-game`: one game of the series and how it ended.
    case game(Game)
    /// `progress` after each game, `match-result` for each pair at the end (with the SPRT of a single pair).
    case score(Score)
    /// `standings`: a round robin's players by points.
    case standings([Standing])
    /// `match-end`.
    case end(End)

    /// A game of the series: the pair's players (`first`, `second`), who was X and O, and how it went.
    public struct Game: Sendable {
        public var number: Int
        public var pairGame: Int
        public var first: String
        public var second: String
        public var x: String
        public var o: String
        public var result: GameResult
        /// For the pair's first player.
        public var outcome: MatchScore.Outcome
        /// The cells played (0...8), X first.
        public var moves: [Int]
        public var board: Board
        /// The failure of an engine that lost the game by forfeit: its kind, reason and log.
        public var engineFailure: (kind: String, reason: String, log: String)?

        public init(
            number: Int, pairGame: Int, first: String, second: String, x: String, o: String, result: GameResult,
            outcome: MatchScore.Outcome, moves: [Int], board: Board,
            engineFailure: (kind: String, reason: String, log: String)?
        ) {
            (self.number, self.pairGame, self.first, self.second) = (number, pairGame, first, second)
            (self.x, self.o) = (x, o)
            (self.result, self.outcome, self.moves, self.board) = (result, outcome, moves, board)
            self.engineFailure = engineFailure
        }
    }

    /// A pair's score: after a game (`progress`), or at the end (`final`: `match-result`, with the Elo estimate and,
    /// for a single pair, the SPRT and its decision).
    public struct Score: Sendable {
        public var first: String
        public var second: String
        public var score: MatchScore
        public var final: Bool
        public var sprt: SPRT?
        public var decision: SPRT.Decision?

        public init(
            first: String, second: String, score: MatchScore, final: Bool, sprt: SPRT? = nil,
            decision: SPRT.Decision? = nil
        ) {
            (self.first, self.second, self.score, self.final, self.sprt, self.decision) =
                (first, second, score, final, sprt, decision)
        }
    }

    /// A player of a round robin: rank, name, points (a win 1, a draw ½) and results.
    public struct Standing: Sendable {
        public var rank: Int
        public var name: String
        public var points: Double
        public var score: MatchScore

        public init(rank: Int, name: String, points: Double, score: MatchScore) {
            (self.rank, self.name, self.points, self.score) = (rank, name, points, score)
        }
    }

    /// The end of the series: games played of those scheduled, the seed, the exit status, how it ended.
    public struct End: Sendable {
        public var games: Int
        public var scheduled: Int
        public var seed: UInt64
        public var exit: ExitStatus
        public var decision: SPRT.Decision?
        public var elapsed: Duration
        /// A script player's failure that stopped the series.
        public var error: String?
        /// Stopped by a signal (Ctrl-C, SIGTERM, SIGHUP).
        public var stopped: Bool

        public init(
            games: Int, scheduled: Int, seed: UInt64, exit: ExitStatus, decision: SPRT.Decision?, elapsed: Duration,
            error: String?, stopped: Bool
        ) {
            (self.games, self.scheduled, self.seed, self.exit) = (games, scheduled, seed, exit)
            (self.decision, self.elapsed, self.error, self.stopped) = (decision, elapsed, error, stopped)
        }
    }

    func encode(into object: inout KeyedEncodingContainer<JSONKey>) throws {
        switch self {
        case .game(let game): try game.encode(into: &object)
        case .score(let score): try score.encode(into: &object)
        case .standings(let players):
            try object.encode("standings", forKey: "event")
            try object.encode(players.map(StandingFields.init), forKey: "players")
        case .end(let end): try end.encode(into: &object)
        }
    }
}

/// Non-finite numbers (an Elo of ±∞) are `null`; the others rounded to a readable precision.
private func finite(_ value: Double?, digits: Double = 1000) -> Double? {
    guard let value, value.isFinite else { return nil }
    return (value * digits).rounded() / digits
}

extension SeriesEvent.Game {
    fileprivate func encode(into object: inout KeyedEncodingContainer<JSONKey>) throws {
        try object.encode("match-game", forKey: "event")
        try object.encode(number, forKey: "game")
        try object.encode(pairGame, forKey: "pair_game")
        try object.encode(first, forKey: "first")
        try object.encode(second, forKey: "second")
        try object.encode(x, forKey: "x")
        try object.encode(o, forKey: "o")
        try object.encodeOrNull(result.winner?.description, forKey: "winner")
        let text: String
        switch outcome {
        case .win: text = "1-0"
        case .loss: text = "0-1"
        case .draw: text = "1/2-1/2"
        }
        try object.encode(text, forKey: "result")
        try object.encode(moves.map { $0 + 1 }, forKey: "moves")
        try object.encode(board.compactText, forKey: "board")
        try object.encode(RecordEvent.reasonName(result.reason), forKey: "reason")
        if let engineFailure {
            try object.encode(engineFailure.kind, forKey: "engine_failure")
            try object.encode(engineFailure.reason, forKey: "engine_failure_reason")
            try object.encode(engineFailure.log, forKey: "engine_log")
        }
    }
}

extension SeriesEvent.Score {
    fileprivate func encode(into object: inout KeyedEncodingContainer<JSONKey>) throws {
        try object.encode(final ? "match-result" : "progress", forKey: "event")
        try object.encode(first, forKey: "first")
        try object.encode(second, forKey: "second")
        try object.encode(score.wins, forKey: "wins")
        try object.encode(score.losses, forKey: "losses")
        try object.encode(score.draws, forKey: "draws")
        try object.encode(score.games, forKey: "games")
        try object.encodeOrNull(finite(score.score), forKey: "score")
        guard final else { return }
        let elo = score.elo
        try object.encodeOrNull(finite(elo?.difference), forKey: "elo")
        try object.encodeOrNull(finite(elo?.lower), forKey: "elo_lower")
        try object.encodeOrNull(finite(elo?.upper), forKey: "elo_upper")
        try object.encodeOrNull(finite(elo?.margin), forKey: "elo_margin")
        try object.encodeOrNull(finite(elo?.likelihoodOfSuperiority), forKey: "los")
        try object.encodeOrNull(finite(elo?.drawRatio), forKey: "draw_ratio")
        if let sprt {
            try object.encode(SPRTFields(sprt: sprt, score: score, decision: decision ?? .continue), forKey: "sprt")
        }
    }
}

private struct SPRTFields: Encodable {
    var sprt: SPRT
    var score: MatchScore
    var decision: SPRT.Decision

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encodeOrNull(finite(sprt.logLikelihoodRatio(score)), forKey: "llr")
        try object.encodeOrNull(finite(sprt.lowerBound), forKey: "lower_bound")
        try object.encodeOrNull(finite(sprt.upperBound), forKey: "upper_bound")
        try object.encode(sprt.elo0, forKey: "elo0")
        try object.encode(sprt.elo1, forKey: "elo1")
        try object.encode(sprt.alpha, forKey: "alpha")
        try object.encode(sprt.beta, forKey: "beta")
        try object.encode(decision.rawValue, forKey: "decision")
    }
}

private struct StandingFields: Encodable {
    var standing: SeriesEvent.Standing

    init(_ standing: SeriesEvent.Standing) { self.standing = standing }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode(standing.rank, forKey: "rank")
        try object.encode(standing.name, forKey: "player")
        try object.encode(standing.points, forKey: "points")
        try object.encode(standing.score.games, forKey: "games")
        try object.encode(standing.score.wins, forKey: "wins")
        try object.encode(standing.score.losses, forKey: "losses")
        try object.encode(standing.score.draws, forKey: "draws")
    }
}

extension SeriesEvent.End {
    fileprivate func encode(into object: inout KeyedEncodingContainer<JSONKey>) throws {
        try object.encode("match-end", forKey: "event")
        try object.encode(games, forKey: "games")
        try object.encode(scheduled, forKey: "scheduled")
        try object.encode(seed, forKey: "seed")
        try object.encode(Int(exit.rawValue), forKey: "exit")
        try object.encode((elapsed.milliseconds * 1000).rounded() / 1000, forKey: "elapsed_ms")
        let end: String
        if stopped {
            end = "stopped"
        } else if error != nil {
            end = "script-error"
        } else if let decision, decision != .continue {
            end = "sprt"
        } else {
            end = "completed"
        }
        try object.encode(end, forKey: "end")
        if let error { try object.encode(error, forKey: "error") }
    }
}
