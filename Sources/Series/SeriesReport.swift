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

    /// Every JSON line below is a `JSONEvent`, and throws what `JSONLine.encode` throws.
    public func seedJSON() throws -> String { try JSONEvent.line(.seed(seed)) }

    /// `match-game` then `progress`.
    public func gameJSON(_ record: SeriesGameRecord, scores: [MatchScore]) throws -> [String] {
        let (first, second) = pairNames(record.game.pair)
        let game = record.game
        let failure = record.engineFailure.map { (kind: $0.kind, reason: $0.reason, log: $0.logPath) }
        return [
            try JSONEvent.line(.series(.game(SeriesEvent.Game(
                number: game.number, pairGame: game.pairGame, first: first, second: second, x: names[game.x],
                o: names[game.o], result: record.result, outcome: record.outcome, moves: record.moves,
                board: record.board, engineFailure: failure)))),
            try JSONEvent.line(.series(.score(SeriesEvent.Score(
                first: first, second: second, score: scores[game.pair], final: false)))),
        ]
    }

    /// `match-result` for every pair, `standings` for a round robin, then `match-end`.
    public func finalJSON(_ outcome: SeriesRunner.Outcome, elapsed: Duration, exit: ExitStatus) throws -> [String] {
        var events: [SeriesEvent] = []
        for (pair, score) in outcome.scores.enumerated() {
            let (first, second) = pairNames(pair)
            let single = outcome.scores.count == 1
            events.append(.score(SeriesEvent.Score(
                first: first, second: second, score: score, final: true, sprt: single ? sprt : nil,
                decision: single ? outcome.decision : nil)))
        }
        if schedule.players > 2 {
            events.append(.standings(standings(outcome.scores).enumerated().map { rank, entry in
                SeriesEvent.Standing(
                    rank: rank + 1, name: names[entry.player], points: entry.points, score: entry.score)
            }))
        }
        events.append(.end(SeriesEvent.End(
            games: outcome.games, scheduled: schedule.count, seed: seed, exit: exit, decision: outcome.decision,
            elapsed: elapsed, error: outcome.failure?.description, stopped: outcome.interrupted != nil)))
        return try events.map { try JSONEvent.line(.series($0)) }
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
        lines.insert(try JSONEvent.line(.record(players)), at: 1)
        return lines
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
