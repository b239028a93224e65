import GameClient
import GameProtocol
import GameRules
import TextSupport

/// One `--json` event line, the one event type of the command line's event lines: a report of the one event stream as
/// docs/HEADLESS.md's "JSON output" describes it (an `event` key and its fields; cells numbered 1-9; boards as nine
/// characters; fields with no value written as `null` where the table has them), a game's record event, a replayed
/// game, or a line of a series. Text from the peer or from Bonjour is written as it came: `JSONLine` escapes what a
/// terminal would act on. A record is read back with `RecordEvent`, whose lines these are.
public enum JSONEvent: Encodable, Sendable {
    /// What a match, discovery or the lobby reports (`MatchReport`).
    case report(MatchReport)
    /// A record's own event (`players` in a series' transcript).
    case record(RecordEvent)
    /// `tictactoe replay --json`: one game of the record in `file`.
    case replay(GameRecord, file: String)
    /// `tictactoe match --json`: the series' own lines.
    case series(SeriesEvent)

    public init(_ report: MatchReport) { self = .report(report) }

    /// The line printed for `event`; throws what `JSONLine.encode` throws.
    public static func line(_ event: JSONEvent) throws -> String {
        if case .report(let report) = event { return try line(report) }
        return try JSONLine.encode(event)
    }

    /// The line printed for `report`; throws what `JSONLine.encode` throws.
    public static func line(_ report: MatchReport) throws -> String {
        // A move's line, the one a match writes most (an encoding costs about as much CPU as the move's exchange),
        // from the lines the same encoder wrote once for every move.
        if case .session(.moved(let mark, let cell, let side)) = report, (0..<Board.cellCount).contains(cell),
           case .success(let lines) = moveLines {
            return lines[moveIndex(mark: mark, cell: cell, side: side)]
        }
        return try JSONLine.encode(JSONEvent.report(report))
    }

    /// Every move's line (2 sides × 2 marks × 9 cells), or why they could not be written (then each move is encoded
    /// on its own, and reports the failure).
    private static let moveLines = Result { () throws -> [String] in
        var lines = [String](repeating: "", count: 36)
        for side in [MatchSession.Side.local, .peer] {
            for mark in Mark.allCases {
                for cell in 0..<Board.cellCount {
                    lines[moveIndex(mark: mark, cell: cell, side: side)] =
                        try JSONLine.encode(JSONEvent.report(.session(.moved(mark: mark, cell: cell, by: side))))
                }
            }
        }
        return lines
    }

    private static func moveIndex(mark: Mark, cell: Int, side: MatchSession.Side) -> Int {
        (side == .local ? 0 : 18) + (mark == .x ? 0 : 9) + cell
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .report(let report):
            // A game's own events (listening, connected, game-start, move, game-over) as a record holds them.
            if let event = RecordEvent(report) { return try event.encode(to: encoder) }
            var object = encoder.container(keyedBy: JSONKey.self)
            try Self.encode(report, into: &object)
        case .record(let event):
            try event.encode(to: encoder)
        case .replay(let game, let file):
            var object = encoder.container(keyedBy: JSONKey.self)
            try Self.encode(game, file: file, into: &object)
        case .series(let event):
            var object = encoder.container(keyedBy: JSONKey.self)
            try event.encode(into: &object)
        }
    }

    /// `replay`: the game's moves, final board and result.
    private static func encode(
        _ game: GameRecord, file: String, into object: inout KeyedEncodingContainer<JSONKey>
    ) throws {
        try object.encode("replay", forKey: "event")
        try object.encode(file, forKey: "file")
        try object.encode(game.number, forKey: "game")
        try object.encode(game.name(of: .x), forKey: "x")
        try object.encode(game.name(of: .o), forKey: "o")
        try object.encode(game.cells.map { $0 + 1 }, forKey: "moves")
        try object.encode((game.positions.last ?? Board()).compactText, forKey: "board")
        try object.encode(game.isFinished, forKey: "finished")
        try object.encodeOrNull(game.result?.winner?.description, forKey: "winner")
        try object.encodeOrNull(game.result.map { RecordEvent.reasonName($0.reason) }, forKey: "reason")
        if case .line(let cells)? = game.result?.reason { try object.encode(cells.map { $0 + 1 }, forKey: "line") }
    }

    /// A report that is no record event.
    private static func encode(_ report: MatchReport, into object: inout KeyedEncodingContainer<JSONKey>) throws {
        switch report {
        case .seed(let seed):
            try object.encode("seed", forKey: "event")
            try object.encode(seed, forKey: "seed")
        case .codeReplaced(let reason):
            // The new code itself is never written here: only the host's own screen (stderr) shows it.
            try object.encode("code-replaced", forKey: "event")
            try object.encode(reason, forKey: "reason")
        case .listening, .connected:
            break  // record events: written above
        case .connectionState(let state):
            try object.encode("state", forKey: "event")
            try object.encode(state.name, forKey: "state")
            switch state {
            case .waiting(let reason): try object.encode(reason.description, forKey: "reason")
            case .failed(let error): try object.encode(error.description, forKey: "error")
            case .ready(let name): try object.encode(name, forKey: "peer")
            case .setup, .preparing, .cancelled: break
            }
        case .session(let event):
            try Self.encode(event, into: &object)
        case .rejectedBusy(let remote):
            try object.encode("busy-rejected", forKey: "event")
            try object.encode(remote, forKey: "remote")
        case .peerFailed(let remote, let error):
            try object.encode("peer-failed", forKey: "event")
            try object.encode(remote, forKey: "remote")
            try object.encode(error, forKey: "error")
        case .summary(let summary):
            try object.encode("summary", forKey: "event")
            try object.encode(summary.seed, forKey: "seed")
            try object.encode(Int(summary.exit.rawValue), forKey: "exit")
            try object.encode(summary.end, forKey: "end")
            try JSONScore(summary.score).encode(into: &object)
            if let rtt = summary.roundTrip {
                try object.encode((rtt.milliseconds * 1000).rounded() / 1000, forKey: "rtt_ms")
            }
        case .error(let message, let exit):
            try object.encode("error", forKey: "event")
            try object.encode(message, forKey: "message")
            try object.encode(Int(exit.rawValue), forKey: "exit")
        case .localMoveRejected(let why):
            try object.encode("move-rejected", forKey: "event")
            try object.encode(why, forKey: "error")
        case .discovery(let report):
            try JSONDiscoveryEvent(report).encode(into: &object)
        case .lobby(let event):
            try JSONLobbyEvent(event).encode(into: &object)
        case .engineStarted(let name, let pid, let log):
            try object.encode("engine-started", forKey: "event")
            try object.encode(name, forKey: "engine")
            try object.encode(Int(pid), forKey: "pid")
            try object.encode(log, forKey: "log")
        case .engineFailed(let game, let engine, let kind, let reason, let log):
            try object.encode("engine-failed", forKey: "event")
            try object.encode(game, forKey: "game")
            try object.encode(engine, forKey: "engine")
            try object.encode(kind, forKey: "kind")
            try object.encode(reason, forKey: "reason")
            try object.encode(log, forKey: "log")
        case .spectator(let name, let address, let joined, let watching):
            try object.encode("spectator", forKey: "event")
            try object.encode(name, forKey: "name")
            try object.encode(address, forKey: "address")
            try object.encode(joined, forKey: "joined")
            try object.encode(watching, forKey: "watching")
        case .watched(let match):
            try Self.encode(match, into: &object)
        case .watchEnded(let end):
            try object.encode("watch-end", forKey: "event")
            try object.encode(end.name, forKey: "end")
            try object.encode(end.text, forKey: "detail")
        }
    }

    /// `watch`: what a spectator is shown.
    private static func encode(_ match: WatchedMatch, into object: inout KeyedEncodingContainer<JSONKey>) throws {
        try object.encode("watch", forKey: "event")
        try object.encode(Int(match.game), forKey: "game")
        try object.encode(match.hostName, forKey: "host")
        try object.encode(match.joinerName, forKey: "joiner")
        try object.encode(match.hostMark?.description, forKey: "host_mark")
        try object.encode(match.firstMover?.description, forKey: "first")
        try object.encode(match.board.compactText, forKey: "board")
        try object.encode(match.phase.description, forKey: "phase")
        try object.encode(match.toMove?.description, forKey: "to_move")
        try object.encode(match.winner?.description, forKey: "winner")
        try object.encode(match.ending == .none ? nil : match.ending.description, forKey: "reason")
        try object.encode(
            ["host": Int(match.hostWins), "joiner": Int(match.joinerWins), "draws": Int(match.draws)],
            forKey: "score")
    }

    private static func encode(
        _ event: MatchSession.Event, into object: inout KeyedEncodingContainer<JSONKey>
    ) throws {
        switch event {
        case .rematchOffered:
            try object.encode("rematch-offered", forKey: "event")
        case .matchOver(let end, let score):
            try object.encode("match-over", forKey: "event")
            try object.encode(end.name, forKey: "end")
            try object.encode(end.text, forKey: "detail")
            try object.encode(JSONScore(score), forKey: "score")
        case .gameStarted, .moved, .gameOver:
            break  // record events: written above
        }
    }
}

/// `score`: `{"wins", "losses", "draws", "games"}` from the local side (nested in `match-over`, merged into `summary`;
/// `game-over`'s is `RecordEvent`'s).
struct JSONScore: Encodable {
    var score: MatchSession.Score

    init(_ score: MatchSession.Score) { self.score = score }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try encode(into: &object)
    }

    func encode(into object: inout KeyedEncodingContainer<JSONKey>) throws {
        try object.encode(score.localWins, forKey: "wins")
        try object.encode(score.peerWins, forKey: "losses")
        try object.encode(score.draws, forKey: "draws")
        try object.encode(score.gamesPlayed, forKey: "games")
    }
}
