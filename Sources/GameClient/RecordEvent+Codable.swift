import GameProtocol
import GameRules

/// A record event's JSON object: `event` and its fields (README: "JSON output"). Written with every field the event
/// has (`null` where the table has the key with no value); read leniently where records of earlier versions had
/// fewer fields (`listening` without `addresses`, `secure`, `private`; `connected` without `cipher`: those were
/// plaintext games), strictly where a replay needs the field.
extension RecordEvent: Codable {
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: RecordKey.self)
        try object.encode(name, forKey: "event")
        switch self {
        case .players(let players):
            try object.encodeIfPresent(players.seriesGame, forKey: "series_game")
            try object.encode(players.x, forKey: "x")
            try object.encode(players.o, forKey: "o")
            try object.encode(players.local, forKey: "local")
            try object.encode(players.peer, forKey: "peer")
        case .listening(let listening):
            try object.encode(listening.addresses, forKey: "addresses")
            try object.encode(listening.host, forKey: "host")
            try object.encode(listening.port, forKey: "port")
            try object.encode(listening.name, forKey: "name")
            try object.encode(listening.secure, forKey: "secure")
            try object.encode(listening.isPrivate, forKey: "private")
        case .connected(let connected):
            try object.encode(connected.peer, forKey: "peer")
            try object.encode(connected.address, forKey: "address")
            try object.encode(connected.role, forKey: "role")
            try object.encode(connected.cipher != nil, forKey: "secure")
            try object.encodeOrNull(connected.cipher, forKey: "cipher")
        case .gameStart(let start):
            try object.encode(start.game, forKey: "game")
            try object.encodeIfPresent(start.you?.description, forKey: "you")
            try object.encode(start.first.description, forKey: "first")
        case .move(let move):
            try object.encode(move.mark.description, forKey: "mark")
            try object.encode(move.cell + 1, forKey: "cell")
            try object.encodeIfPresent(move.by?.rawValue, forKey: "by")
        case .gameOver(let over):
            try Self.encode(over, into: &object)
        case .other:
            break
        }
    }

    private static func encode(_ over: GameOver, into object: inout KeyedEncodingContainer<RecordKey>) throws {
        try object.encode(over.game, forKey: "game")
        try object.encodeIfPresent(over.board, forKey: "board")
        try object.encodeIfPresent(over.score.map(ScoreFields.init), forKey: "score")
        try object.encodeOrNull(over.result.winner?.description, forKey: "winner")
        try object.encode(reasonName(over.result.reason), forKey: "reason")
        switch over.result.reason {
        case .line(let cells): try object.encode(cells.map { $0 + 1 }, forKey: "line")
        case .draw: break
        case .resignation(let mark): try object.encode(mark.description, forKey: "resigned")
        case .forfeit(let mark): try object.encode(mark.description, forKey: "forfeited")
        case .timeout(let mark): try object.encode(mark.description, forKey: "timed_out")
        }
    }

    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: RecordKey.self)
        let name = try object.decode(String.self, forKey: "event")
        let fields = RecordFields(object: object, event: name)
        switch name {
        case "players":
            self = .players(Players(
                seriesGame: try object.decodeIfPresent(Int.self, forKey: "series_game"),
                x: try fields.required(String.self, "x"), o: try fields.required(String.self, "o"),
                local: try fields.required(String.self, "local"), peer: try fields.required(String.self, "peer")))
        case "listening":
            self = .listening(Listening(
                host: try object.decodeIfPresent(String.self, forKey: "host") ?? "",
                port: try object.decodeIfPresent(Int.self, forKey: "port") ?? 0,
                name: try fields.required(String.self, "name"),
                addresses: try object.decodeIfPresent([String].self, forKey: "addresses") ?? [],
                secure: try object.decodeIfPresent(Bool.self, forKey: "secure") ?? false,
                isPrivate: try object.decodeIfPresent(Bool.self, forKey: "private") ?? false))
        case "connected":
            self = .connected(Connected(
                peer: try fields.required(String.self, "peer"),
                address: try object.decodeIfPresent(String.self, forKey: "address") ?? "",
                role: try object.decodeIfPresent(String.self, forKey: "role") ?? "",
                cipher: try object.decodeIfPresent(String.self, forKey: "cipher")))
        case "game-start":
            self = .gameStart(GameStart(
                game: try fields.required(Int.self, "game"), you: try fields.mark("you"),
                first: try fields.requiredMark("first")))
        case "move":
            let mark = try fields.requiredMark("mark")
            let cell = try fields.required(Int.self, "cell")
            guard (1...9).contains(cell) else { throw Problem("cell \(cell) is not a cell (1-9)") }
            let by = try object.decodeIfPresent(String.self, forKey: "by").flatMap(MatchSession.Side.init(rawValue:))
            self = .move(Move(mark: mark, cell: cell - 1, by: by))
        case "game-over":
            self = .gameOver(GameOver(
                game: try fields.required(Int.self, "game"), result: try fields.result(),
                board: try object.decodeIfPresent(String.self, forKey: "board"),
                score: try object.decodeIfPresent(ScoreFields.self, forKey: "score")?.score))
        default:
            self = .other(name)
        }
    }
}

/// A record event's keys, written as string literals.
struct RecordKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringLiteral value: String) { stringValue = value }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where Key == RecordKey {
    /// Writes `value`, or `null` when it is nil (the key is always present).
    fileprivate mutating func encodeOrNull(_ value: String?, forKey key: RecordKey) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}

/// `score`: `{"wins", "losses", "draws", "games"}` from the record's side.
private struct ScoreFields: Codable {
    var score: MatchSession.Score

    init(_ score: MatchSession.Score) { self.score = score }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: RecordKey.self)
        try object.encode(score.localWins, forKey: "wins")
        try object.encode(score.peerWins, forKey: "losses")
        try object.encode(score.draws, forKey: "draws")
        try object.encode(score.gamesPlayed, forKey: "games")
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: RecordKey.self)
        score = MatchSession.Score(
            localWins: try object.decode(Int.self, forKey: "wins"),
            peerWins: try object.decode(Int.self, forKey: "losses"),
            draws: try object.decode(Int.self, forKey: "draws"))
    }
}

/// Reading an event's fields with the record's own words for what is missing or wrong.
private struct RecordFields {
    let object: KeyedDecodingContainer<RecordKey>
    let event: String

    func required<Value: Decodable>(_ type: Value.Type, _ key: RecordKey) throws -> Value {
        guard let value = try object.decodeIfPresent(type, forKey: key) else {
            throw RecordEvent.Problem("\(event) has no \"\(key.stringValue)\"")
        }
        return value
    }

    func mark(_ key: RecordKey) throws -> Mark? {
        switch try object.decodeIfPresent(String.self, forKey: key) {
        case "X"?: return .x
        case "O"?: return .o
        case nil: return nil
        case let other?:
            throw RecordEvent.Problem("\(event)'s \"\(key.stringValue)\" is \"\(other)\", not X or O")
        }
    }

    func requiredMark(_ key: RecordKey) throws -> Mark {
        guard let mark = try mark(key) else { throw RecordEvent.Problem("\(event) has no \"\(key.stringValue)\"") }
        return mark
    }

    /// A `game-over`'s result as it states it: for a line or a draw its `winner` (the reader checks both against the
    /// moves), otherwise the opponent of the one who resigned, forfeited or ran out of time.
    func result() throws -> GameResult {
        let winner = try mark("winner")
        switch try object.decodeIfPresent(String.self, forKey: "reason") {
        case "line"?:
            let cells = try object.decodeIfPresent([Int].self, forKey: "line") ?? []
            return GameResult(winner: winner, reason: .line(cells.map { $0 - 1 }))
        case "draw"?:
            return GameResult(winner: winner, reason: .draw)
        case "resignation"?:
            let loser = try requiredMark("resigned")
            return GameResult(winner: loser.opponent, reason: .resignation(loser))
        case "forfeit"?:
            let loser = try requiredMark("forfeited")
            return GameResult(winner: loser.opponent, reason: .forfeit(loser))
        case "timeout"?:
            let loser = try requiredMark("timed_out")
            return GameResult(winner: loser.opponent, reason: .timeout(loser))
        case nil:
            throw RecordEvent.Problem("\(event) has no \"reason\"")
        case let other?:
            throw RecordEvent.Problem(
                "\(event)'s reason \"\(other)\" is not one of line, draw, resignation, forfeit, timeout")
        }
    }
}
