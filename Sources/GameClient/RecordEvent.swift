import GameProtocol
import GameRules

/// The events of a game record as JSON lines: what a `host`/`join --json` transcript, a `match --transcripts` file
/// and a game the terminal UI saved write for a game, and what `GameRecord.parse` reads back. One type both ways, so
/// a replay reads exactly what was written. On the wire cells are 1-9, marks "X" and "O", boards nine characters;
/// TextSupport's `JSONLine` writes the lines (keys sorted).
///
/// Decoding names what is wrong in the record's words (`RecordEvent.Problem`: "move has no \"mark\"").
public enum RecordEvent: Sendable, Hashable {
    case players(Players)
    case listening(Listening)
    case connected(Connected)
    case gameStart(GameStart)
    case move(Move)
    case gameOver(GameOver)
    /// Any other event (seed, state, summary, engines…), by its name: a record's reader skips it.
    case other(String)

    /// `players`: who is X and O, and which of them the record is written from (`local`); `seriesGame` is the
    /// game's number in a `match` series.
    public struct Players: Sendable, Hashable {
        public var seriesGame: Int?
        public var x: String
        public var o: String
        public var local: String
        public var peer: String

        public init(seriesGame: Int? = nil, x: String, o: String, local: String, peer: String) {
            (self.seriesGame, self.x, self.o, self.local, self.peer) = (seriesGame, x, o, local, peer)
        }
    }

    /// `listening`: the host's name, where it listens, the addresses a joiner can use and whether games are
    /// encrypted (`secure`) and need a code (`private`).
    public struct Listening: Sendable, Hashable {
        public var host: String
        public var port: Int
        public var name: String
        public var addresses: [String]
        public var secure: Bool
        public var isPrivate: Bool

        public init(host: String, port: Int, name: String, addresses: [String], secure: Bool, isPrivate: Bool) {
            (self.host, self.port, self.name, self.addresses) = (host, port, name, addresses)
            (self.secure, self.isPrivate) = (secure, isPrivate)
        }
    }

    /// `connected`: the peer's name and address, our role, and the TLS cipher suite of an encrypted game (`secure`
    /// is whether there is one).
    public struct Connected: Sendable, Hashable {
        public var peer: String
        public var address: String
        public var role: String
        public var cipher: String?

        public init(peer: String, address: String, role: String, cipher: String?) {
            (self.peer, self.address, self.role, self.cipher) = (peer, address, role, cipher)
        }
    }

    /// `game-start`: the game's number, the record's own mark (`you`; a record may have none) and who moves first.
    public struct GameStart: Sendable, Hashable {
        public var game: Int
        public var you: Mark?
        public var first: Mark

        public init(game: Int, you: Mark?, first: Mark) {
            (self.game, self.you, self.first) = (game, you, first)
        }
    }

    /// `move`: the mark, the cell (0...8 here, 1-9 on the wire) and who played it (`by`, from the record's side).
    public struct Move: Sendable, Hashable {
        public var mark: Mark
        public var cell: Int
        public var by: MatchSession.Side?

        public init(mark: Mark, cell: Int, by: MatchSession.Side?) {
            (self.mark, self.cell, self.by) = (mark, cell, by)
        }
    }

    /// `game-over`: the result as the record states it (for a line, the cells it names, 0...8), the final board
    /// (nine characters; a record may have none) and the match's score after it from the record's side (written;
    /// read back when it is there).
    public struct GameOver: Sendable, Hashable {
        public var game: Int
        public var result: GameResult
        public var board: String?
        public var score: MatchSession.Score?

        public init(game: Int, result: GameResult, board: String?, score: MatchSession.Score?) {
            (self.game, self.result, self.board, self.score) = (game, result, board, score)
        }
    }

    /// What is wrong with a record's line, in the record's words.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String

        public init(_ description: String) { self.description = description }
    }

    /// The event's name, the line's `event`.
    public var name: String {
        switch self {
        case .players: return "players"
        case .listening: return "listening"
        case .connected: return "connected"
        case .gameStart: return "game-start"
        case .move: return "move"
        case .gameOver: return "game-over"
        case .other(let name): return name
        }
    }
}

extension RecordEvent {
    /// The record event of `report`, nil for the reports a record has no event of its own for.
    public init?(_ report: MatchReport) {
        switch report {
        case .listening(let host, let port, let name, let security, let addresses):
            self = .listening(Listening(host: host, port: port, name: name, addresses: addresses.map(\.description),
                                        secure: security.isEncrypted, isPrivate: security == .private))
        case .connected(let peer, let address, let role, let cipher):
            self = .connected(Connected(peer: peer, address: address, role: role.rawValue, cipher: cipher))
        case .session(.gameStarted(let number, let localMark, let firstMover)):
            self = .gameStart(GameStart(game: number, you: localMark, first: firstMover))
        case .session(.moved(let mark, let cell, let side)):
            self = .move(Move(mark: mark, cell: cell, by: side))
        case .session(.gameOver(let number, let result, let board, let score)):
            self = .gameOver(GameOver(game: number, result: result, board: board.compactText, score: score))
        default:
            return nil
        }
    }

    /// The name of `reason` in a `game-over`'s `reason`.
    public static func reasonName(_ reason: GameEndReason) -> String {
        switch reason {
        case .line: return "line"
        case .draw: return "draw"
        case .resignation: return "resignation"
        case .forfeit: return "forfeit"
        case .timeout: return "timeout"
        }
    }
}
