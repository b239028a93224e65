import GameClient
import GameProtocol
import GameRules

/// One `--json` line: a report as README's "JSON output" table describes it (an `event` key and its fields; cells
/// numbered 1-9; boards as nine characters; fields with no value written as `null` where the table has them). Text
/// from the peer or from Bonjour is written as it came: `JSONLine` escapes what a terminal would act on.
public struct JSONEvent: Encodable, Sendable {
    public var report: MatchReport

    public init(_ report: MatchReport) { self.report = report }

    /// The line printed for `report`.
    public static func line(_ report: MatchReport) throws -> String {
        // A move's line, the one written most (every move of a `--json` match), directly: only ASCII words and a
        // number, so nothing to escape; the same bytes as `encode(to:)` (JSONLineWriterTests compares them).
        // So are the other lines every game writes (its start, its end, a rematch offer): only words, marks and
        // numbers, nothing to escape.
        switch report {
        case .session(.moved(let mark, let cell, let side)) where (0..<Board.cellCount).contains(cell):
            return moveLines[moveLineIndex(mark: mark, cell: cell, side: side)]
        case .session(.gameStarted(let number, let localMark, let firstMover)):
            return #"{"event":"game-start","first":"\#(firstMover.description)","game":\#(number),"#
                + #""you":"\#(localMark.description)"}"#
        case .session(.rematchOffered):
            return #"{"event":"rematch-offered"}"#
        case .session(.gameOver(let number, let result, let board, let score)):
            return gameOverLine(number: number, result: result, board: board, score: score)
        default:
            return try JSONLine.encode(JSONEvent(report))
        }
    }

    /// Every move's line, made once (2 sides × 2 marks × 9 cells): a match writes one for each move.
    private static let moveLines: [String] = {
        var lines = [String](repeating: "", count: 36)
        for side in [MatchSession.Side.local, .peer] {
            for mark in Mark.allCases {
                for cell in 0..<Board.cellCount {
                    lines[moveLineIndex(mark: mark, cell: cell, side: side)] =
                        #"{"by":"\#(side.rawValue)","cell":\#(cell + 1),"event":"move","mark":"\#(mark.description)"}"#
                }
            }
        }
        return lines
    }()

    private static func moveLineIndex(mark: Mark, cell: Int, side: MatchSession.Side) -> Int {
        (side == .local ? 0 : 18) + (mark == .x ? 0 : 9) + cell
    }

    /// `game-over`'s line, keys in sorted order as `encode(to:)` writes them.
    private static func gameOverLine(
        number: Int, result: GameResult, board: Board, score: MatchSession.Score
    ) -> String {
        var line = #"{"board":"\#(board.compactText)","event":"game-over","#
        if case .forfeit(let mark) = result.reason { line += #""forfeited":"\#(mark.description)","# }
        line += #""game":\#(number),"#
        if case .line(let cells) = result.reason {
            line += #""line":[\#(cells.map { String($0 + 1) }.joined(separator: ","))],"#
        }
        let reason: String
        switch result.reason {
        case .line: reason = "line"
        case .draw: reason = "draw"
        case .resignation: reason = "resignation"
        case .forfeit: reason = "forfeit"
        case .timeout: reason = "timeout"
        }
        line += #""reason":"\#(reason)","#
        if case .resignation(let mark) = result.reason { line += #""resigned":"\#(mark.description)","# }
        line += #""score":{"draws":\#(score.draws),"games":\#(score.gamesPlayed),"losses":\#(score.peerWins),"#
            + #""wins":\#(score.localWins)},"#
        if case .timeout(let mark) = result.reason { line += #""timed_out":"\#(mark.description)","# }
        line += result.winner.map { #""winner":"\#($0.description)"}"# } ?? #""winner":null}"#
        return line
    }

    public func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        switch report {
        case .seed(let seed):
            try object.encode("seed", forKey: "event")
            try object.encode(seed, forKey: "seed")
        case .listening(let host, let port, let name, let security, let addresses):
            try object.encode("listening", forKey: "event")
            try object.encode(addresses.map(\.description), forKey: "addresses")
            try object.encode(host, forKey: "host")
            try object.encode(port, forKey: "port")
            try object.encode(name, forKey: "name")
            try object.encode(security.isEncrypted, forKey: "secure")
            try object.encode(security == .private, forKey: "private")
        case .codeReplaced(let reason):
            // The new code itself is never written here: only the host's own screen (stderr) shows it.
            try object.encode("code-replaced", forKey: "event")
            try object.encode(reason, forKey: "reason")
        case .connectionState(let state):
            try object.encode("state", forKey: "event")
            try object.encode(state.name, forKey: "state")
            switch state {
            case .waiting(let reason): try object.encode(reason.description, forKey: "reason")
            case .failed(let error): try object.encode(error.description, forKey: "error")
            case .ready(let name): try object.encode(name, forKey: "peer")
            case .setup, .preparing, .cancelled: break
            }
        case .connected(let peerName, let address, let role, let cipher):
            try object.encode("connected", forKey: "event")
            try object.encode(peerName, forKey: "peer")
            try object.encode(address, forKey: "address")
            try object.encode(role.rawValue, forKey: "role")
            try object.encode(cipher != nil, forKey: "secure")
            try object.encode(cipher, forKey: "cipher")
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
            if let rtt = summary.roundTripMilliseconds {
                try object.encode((rtt * 1000).rounded() / 1000, forKey: "rtt_ms")
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
        case .watchEnded(let end):
            try object.encode("watch-end", forKey: "event")
            try object.encode(end.name, forKey: "end")
            try object.encode(end.text, forKey: "detail")
        }
    }

    private static func encode(
        _ event: MatchSession.Event, into object: inout KeyedEncodingContainer<JSONKey>
    ) throws {
        switch event {
        case .gameStarted(let number, let localMark, let firstMover):
            try object.encode("game-start", forKey: "event")
            try object.encode(number, forKey: "game")
            try object.encode(localMark.description, forKey: "you")
            try object.encode(firstMover.description, forKey: "first")
        case .moved(let mark, let cell, let side):
            try object.encode("move", forKey: "event")
            try object.encode(mark.description, forKey: "mark")
            try object.encode(cell + 1, forKey: "cell")
            try object.encode(side.rawValue, forKey: "by")
        case .gameOver(let number, let result, let board, let score):
            try object.encode("game-over", forKey: "event")
            try object.encode(number, forKey: "game")
            try object.encode(board.compactText, forKey: "board")
            try object.encode(JSONScore(score), forKey: "score")
            try object.encodeOrNull(result.winner?.description, forKey: "winner")
            switch result.reason {
            case .line(let cells):
                try object.encode("line", forKey: "reason")
                try object.encode(cells.map { $0 + 1 }, forKey: "line")
            case .draw:
                try object.encode("draw", forKey: "reason")
            case .resignation(let mark):
                try object.encode("resignation", forKey: "reason")
                try object.encode(mark.description, forKey: "resigned")
            case .forfeit(let mark):
                try object.encode("forfeit", forKey: "reason")
                try object.encode(mark.description, forKey: "forfeited")
            case .timeout(let mark):
                try object.encode("timeout", forKey: "reason")
                try object.encode(mark.description, forKey: "timed_out")
            }
        case .rematchOffered:
            try object.encode("rematch-offered", forKey: "event")
        case .matchOver(let end, let score):
            try object.encode("match-over", forKey: "event")
            try object.encode(end.name, forKey: "end")
            try object.encode(end.text, forKey: "detail")
            try object.encode(JSONScore(score), forKey: "score")
        }
    }
}

/// `score`: `{"wins", "losses", "draws", "games"}` from the local side (nested in `game-over` and `match-over`,
/// merged into `summary`).
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
