import AppCore
import GameClient
import GameProtocol
import GameRules
import HeadlessUI
import JSONLines
import MatchStatistics
import TextSupport

/// What `tictactoe match` prints: text (cutechess-cli's progress and result lines, then tables) or JSON lines
/// (`--json`: `seed`, `match-game`, `progress`, `match-result`, `standings`, `match-end`; keys sorted like every other
/// JSON event), and each game's transcript (`--transcripts DIR`) in the vocabulary of a network game's `--json`.
public struct SeriesReport: Sendable {
    public var names: [String]
    public var schedule: SeriesSchedule
    public var seed: UInt64
    public var sprt: SPRT?

    public init(names: [String], schedule: SeriesSchedule, seed: UInt64, sprt: SPRT?) {
        self.names = names
        self.schedule = schedule
        self.seed = seed
        self.sprt = sprt
    }

    private func pairNames(_ pair: Int) -> (String, String) {
        (names[schedule.pairs[pair].first], names[schedule.pairs[pair].second])
    }

    // MARK: Text

    public var seedLine: String { "Seed: \(seed) (replay with --seed \(seed))" }

    /// After each game: `Score of A vs B: 10 - 5 - 3  [0.639] 18` for the game's pair.
    public func progressLine(_ record: SeriesGameRecord, scores: [MatchScore]) -> String {
        let (first, second) = pairNames(record.game.pair)
        var line = scores[record.game.pair].progressLine(first, versus: second)
        if let note = record.engineFailure {
            let verb = record.result.reason == .timeout(note.mark) ? "loses on time" : "forfeits"
            // The engine's name and quoted output are its own text: escaped, as every front end shows them.
            line += "  (game \(record.game.number): \(note.mark) \(verb): \(DisplayText.escaped(note.description)))"
        } else if case .timeout(let mark) = record.result.reason {
            line += "  (game \(record.game.number): \(mark) loses on time: its game clock ran out)"
        }
        return line
    }

    /// The final text: per pair its score, Elo line and 95% interval (and the SPRT's line and decision), a table of
    /// every pair, the standings of a round robin, and the summary line with the elapsed time.
    public func finalText(_ outcome: SeriesRunner.Outcome, elapsed: Duration) -> [String] {
        var lines: [String] = [""]
        for (pair, score) in outcome.scores.enumerated() where score.games > 0 || outcome.scores.count == 1 {
            let (first, second) = pairNames(pair)
            lines.append(score.progressLine(first, versus: second))
            if let elo = score.elo, let eloLine = score.eloLine {
                lines.append(eloLine)
                lines.append(
                    "Elo 95% interval: [\(Formatting.fixed(elo.lower, digits: 1)), \(Formatting.fixed(elo.upper, digits: 1))]")
            }
            if let sprt, outcome.scores.count == 1 {
                let decision = outcome.decision ?? .continue
                let verdict: String
                switch decision {
                case .acceptH0: verdict = "H0 was accepted"
                case .acceptH1: verdict = "H1 was accepted"
                case .continue: verdict = "no decision"
                }
                lines.append("SPRT: \(sprt.line(score)) - \(verdict)")
            }
            lines.append("")
        }
        lines.append(contentsOf: pairTable(outcome.scores))
        if schedule.players > 2 {
            lines.append("")
            lines.append(contentsOf: standingsTable(outcome.scores))
        }
        lines.append("")
        let seconds = Formatting.fixed(elapsed.seconds, digits: 3)
        var end = "Finished \(outcome.games) of \(schedule.count) games in \(seconds) s (seed \(seed))"
        if let reason = outcome.interrupted {
            let how = reason == .quit ? "interrupted (Ctrl-C, SIGINT)" : "terminated (SIGTERM or SIGHUP)"
            end = "Stopped after \(outcome.games) of \(schedule.count) games in \(seconds) s (seed \(seed)): \(how)"
        }
        if let decision = outcome.decision, decision != .continue { end += "; stopped by the SPRT (\(decision.rawValue))" }
        lines.append(end)
        return lines
    }

    /// Every pair: `PAIR  W  L  D  SCORE  ELO  +/-  95% INTERVAL`.
    func pairTable(_ scores: [MatchScore]) -> [String] {
        var rows: [[String]] = [["Pair", "W", "L", "D", "Score", "Elo", "+/-", "95% interval"]]
        for (pair, score) in scores.enumerated() {
            let (first, second) = pairNames(pair)
            let elo = score.elo
            rows.append([
                "\(first) vs \(second)", "\(score.wins)", "\(score.losses)", "\(score.draws)",
                score.score.map { Formatting.fixed($0, digits: 3) } ?? "-",
                elo.map { Formatting.fixed($0.difference, digits: 1) } ?? "-",
                elo.map { Formatting.fixed($0.margin, digits: 1) } ?? "-",
                elo.map { "[\(Formatting.fixed($0.lower, digits: 1)), \(Formatting.fixed($0.upper, digits: 1))]" } ?? "-",
            ])
        }
        return Self.layout(rows, rightAligned: [1, 2, 3, 4, 5, 6])
    }

    /// The standings of a round robin: rank, player, points (a win 1, a draw ½), games, W-L-D; by points, then in the
    /// order the players were given.
    public func standings(_ scores: [MatchScore]) -> [(player: Int, points: Double, score: MatchScore)] {
        var totals = Array(repeating: MatchScore(), count: schedule.players)
        for (pair, score) in scores.enumerated() {
            let (first, second) = schedule.pairs[pair]
            totals[first].wins += score.wins
            totals[first].losses += score.losses
            totals[first].draws += score.draws
            totals[second].wins += score.losses
            totals[second].losses += score.wins
            totals[second].draws += score.draws
        }
        return totals.enumerated().map { (player: $0.offset, points: $0.element.points, score: $0.element) }
            .sorted { $0.points != $1.points ? $0.points > $1.points : $0.player < $1.player }
    }

    func standingsTable(_ scores: [MatchScore]) -> [String] {
        var rows: [[String]] = [["Rank", "Player", "Points", "Games", "W", "L", "D"]]
        for (rank, entry) in standings(scores).enumerated() {
            rows.append([
                "\(rank + 1)", names[entry.player], Formatting.fixed(entry.points, digits: 1), "\(entry.score.games)",
                "\(entry.score.wins)", "\(entry.score.losses)", "\(entry.score.draws)",
            ])
        }
        return Self.layout(rows, rightAligned: [0, 2, 3, 4, 5, 6])
    }

    static func layout(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let widths = (0..<rows[0].count).map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                let pad = String(repeating: " ", count: widths[column] - DisplayWidth.of(text))
                return rightAligned.contains(column) ? pad + text : text + pad
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }

    // MARK: JSON

    /// Every JSON line below throws what `JSONLine.encode` throws: its numbers are rounded, non-finite ones `null`.
    public func seedJSON() throws -> String { try JSONEvent.line(.seed(seed)) }

    /// `match-game` then `progress`.
    public func gameJSON(_ record: SeriesGameRecord, scores: [MatchScore]) throws -> [String] {
        let (first, second) = pairNames(record.game.pair)
        let score = scores[record.game.pair]
        return [
            try JSONLine.encode(GameLine(record: record, names: names, first: first, second: second)),
            try JSONLine.encode(ScoreLine(event: "progress", first: first, second: second, score: score, sprt: nil,
                                          decision: nil)),
        ]
    }

    /// `match-result` for every pair, `standings` for a round robin, then `match-end`.
    public func finalJSON(_ outcome: SeriesRunner.Outcome, elapsed: Duration, exit: ExitStatus) throws -> [String] {
        var lines: [String] = []
        for (pair, score) in outcome.scores.enumerated() {
            let (first, second) = pairNames(pair)
            let single = outcome.scores.count == 1
            lines.append(try JSONLine.encode(ScoreLine(
                event: "match-result", first: first, second: second, score: score, sprt: single ? sprt : nil,
                decision: single ? outcome.decision : nil)))
        }
        if schedule.players > 2 {
            lines.append(try JSONLine.encode(StandingsLine(entries: standings(outcome.scores), names: names)))
        }
        lines.append(try JSONLine.encode(EndLine(
            games: outcome.games, scheduled: schedule.count, seed: seed, exit: exit, decision: outcome.decision,
            milliseconds: (elapsed.milliseconds * 1000).rounded() / 1000, error: outcome.failure?.description,
            stopped: outcome.interrupted != nil)))
        return lines
    }

    // MARK: Transcripts

    /// One game's transcript, in the events of a network game's `--json` (from the side of the pair's first
    /// player, "local"): `seed`, `players` (who is X and O), `engine-started`, `game-start`, `move`s,
    /// `engine-failed`, `game-over` (the pair's score after the game).
    public func transcript(_ record: SeriesGameRecord, scores: [MatchScore]) throws -> [String] {
        let game = record.game
        let localMark: Mark = game.x == game.first ? .x : .o
        var reports: [MatchReport] = [.seed(seed)]
        for engine in record.engines {
            reports.append(.engineStarted(name: engine.name, pid: engine.pid, log: engine.log))
        }
        reports.append(.session(.gameStarted(number: game.pairGame, localMark: localMark, firstMover: .x)))
        var mark = Mark.x
        for cell in record.moves {
            reports.append(.session(.moved(mark: mark, cell: cell, by: mark == localMark ? .local : .peer)))
            mark = mark.opponent
        }
        if let note = record.engineFailure {
            reports.append(.engineFailed(
                game: game.pairGame, engine: note.engine, kind: note.kind, reason: note.reason, log: note.logPath))
        }
        let score = scores[game.pair]
        reports.append(.session(.gameOver(
            number: game.pairGame, result: record.result, board: record.board,
            score: MatchSession.Score(localWins: score.wins, peerWins: score.losses, draws: score.draws))))
        var lines = try reports.map(JSONEvent.line)
        let players = RecordEvent.players(RecordEvent.Players(
            seriesGame: game.number, x: names[game.x], o: names[game.o], local: names[game.first],
            peer: names[game.first == game.x ? game.o : game.x]))
        lines.insert(try JSONLine.encode(players), at: 1)
        return lines
    }
}

/// Non-finite numbers (an Elo of ±∞) are `null`; the others rounded to a readable precision.
private func finite(_ value: Double?, digits: Double = 1000) -> Double? {
    guard let value, value.isFinite else { return nil }
    return (value * digits).rounded() / digits
}

private struct GameLine: Encodable {
    var record: SeriesGameRecord
    var names: [String]
    var first: String
    var second: String

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        let game = record.game
        try object.encode("match-game", forKey: "event")
        try object.encode(game.number, forKey: "game")
        try object.encode(game.pairGame, forKey: "pair_game")
        try object.encode(first, forKey: "first")
        try object.encode(second, forKey: "second")
        try object.encode(names[game.x], forKey: "x")
        try object.encode(names[game.o], forKey: "o")
        try object.encodeOrNull(record.result.winner?.description, forKey: "winner")
        let result: String
        switch record.outcome {
        case .win: result = "1-0"
        case .loss: result = "0-1"
        case .draw: result = "1/2-1/2"
        }
        try object.encode(result, forKey: "result")
        try object.encode(record.moves.map { $0 + 1 }, forKey: "moves")
        try object.encode(record.board.compactText, forKey: "board")
        try object.encode(RecordEvent.reasonName(record.result.reason), forKey: "reason")
        if let note = record.engineFailure {
            try object.encode(note.kind, forKey: "engine_failure")
            try object.encode(note.reason, forKey: "engine_failure_reason")
            try object.encode(note.logPath, forKey: "engine_log")
        }
    }
}

private struct ScoreLine: Encodable {
    var event: String
    var first: String
    var second: String
    var score: MatchScore
    var sprt: SPRT?
    var decision: SPRT.Decision?

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode(event, forKey: "event")
        try object.encode(first, forKey: "first")
        try object.encode(second, forKey: "second")
        try object.encode(score.wins, forKey: "wins")
        try object.encode(score.losses, forKey: "losses")
        try object.encode(score.draws, forKey: "draws")
        try object.encode(score.games, forKey: "games")
        try object.encodeOrNull(finite(score.score), forKey: "score")
        guard event == "match-result" else { return }
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

private struct StandingsLine: Encodable {
    var entries: [(player: Int, points: Double, score: MatchScore)]
    var names: [String]

    struct Entry: Encodable {
        var rank: Int
        var name: String
        var points: Double
        var score: MatchScore

        func encode(to encoder: Encoder) throws {
            var object = encoder.container(keyedBy: JSONKey.self)
            try object.encode(rank, forKey: "rank")
            try object.encode(name, forKey: "player")
            try object.encode(points, forKey: "points")
            try object.encode(score.games, forKey: "games")
            try object.encode(score.wins, forKey: "wins")
            try object.encode(score.losses, forKey: "losses")
            try object.encode(score.draws, forKey: "draws")
        }
    }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode("standings", forKey: "event")
        try object.encode(
            entries.enumerated().map {
                Entry(rank: $0.offset + 1, name: names[$0.element.player], points: $0.element.points,
                      score: $0.element.score)
            }, forKey: "players")
    }
}

private struct EndLine: Encodable {
    var games: Int
    var scheduled: Int
    var seed: UInt64
    var exit: ExitStatus
    var decision: SPRT.Decision?
    var milliseconds: Double
    var error: String?
    /// Stopped by a signal (Ctrl-C, SIGTERM, SIGHUP).
    var stopped = false

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode("match-end", forKey: "event")
        try object.encode(games, forKey: "games")
        try object.encode(scheduled, forKey: "scheduled")
        try object.encode(seed, forKey: "seed")
        try object.encode(Int(exit.rawValue), forKey: "exit")
        try object.encode(milliseconds, forKey: "elapsed_ms")
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

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
