import FoundationEssentials
import GameProtocol
import Localization
import GameRules
import TextSupport

/// One game as a JSON-lines record holds it (a `host`/`join --json` transcript, a `match --transcripts` file, a game
/// the terminal UI saved): who played X and O when the record says, the moves in order, and how it ended. Pure data:
/// `GameRecord.parse` reads it, `positions` replays it.
public struct GameRecord: Sendable, Hashable {
    /// The game's number in its record (`game-start`'s `game`).
    public var number: Int
    /// The record's line of its `game-start` (1-based).
    public var line: Int
    /// The players' names when the record has them (`players`: x and o; `connected`/`listening` for a network game).
    public var xName: String?
    public var oName: String?
    /// The record's own side (`game-start`'s `you`), nil when it has none.
    public var localMark: Mark?
    /// Who moved first (`game-start`'s `first`).
    public var firstMover: Mark
    /// The moves in order: the mark and the cell (0...8).
    public var moves: [(mark: Mark, cell: Int)] { cells.enumerated().map { (marks[$0.offset], $0.element) } }
    public var cells: [Int]
    public var marks: [Mark]
    /// How the game ended, nil when the record stops before its `game-over`.
    public var result: GameResult?
    /// The line of its `game-over`, or of the record's last line for an unfinished game.
    public var endLine: Int
    /// The match's score after this game, from the record's side (`game-over`'s `score`), when the record has it.
    public var score: MatchSession.Score?

    public init(
        number: Int, line: Int, xName: String? = nil, oName: String? = nil, localMark: Mark? = nil,
        firstMover: Mark = .x, cells: [Int] = [], marks: [Mark] = [], result: GameResult? = nil, endLine: Int = 0,
        score: MatchSession.Score? = nil
    ) {
        self.score = score
        self.number = number
        self.line = line
        self.xName = xName
        self.oName = oName
        self.localMark = localMark
        self.firstMover = firstMover
        self.cells = cells
        self.marks = marks
        self.result = result
        self.endLine = endLine
    }

    public var isFinished: Bool { result != nil }

    /// The name of `mark`'s player: the record's name, else "X"/"O".
    public func name(of mark: Mark) -> String {
        (mark == .x ? xName : oName) ?? mark.description
    }

    /// The board after each number of moves: `positions[0]` is empty, `positions[cells.count]` the final board.
    public var positions: [Board] {
        var board = Board()
        var boards = [board]
        for (mark, cell) in zip(marks, cells) {
            board[cell] = mark
            boards.append(board)
        }
        return boards
    }

    /// The finished game a replay shows when none is asked for: the last finished one, else nil.
    public static func defaultGame(in games: [GameRecord]) -> GameRecord? {
        games.last(where: \.isFinished)
    }
}

/// Why a record cannot be read: the line (1-based) and what is wrong there.
public struct GameRecordError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var problem: String

    public init(line: Int, problem: String) {
        self.line = line
        self.problem = problem
    }

    public var description: String { "line \(line): \(problem)" }
}

extension GameRecord {
    /// The games of a JSON-lines record (`RecordEvent`s), in order. Lines of other events (seed, state, summary,
    /// engines…) are skipped, so are empty lines; a line that is not a JSON object with an `event`, a move that is
    /// not legal in its game, or a `game-over` that disagrees with the moves throws, naming the line. A last line cut
    /// short (no newline, not a whole object) is reported as a truncated record. A game with no `game-over` (the
    /// record stops, or another game starts) is returned unfinished.
    public static func parse(_ text: String) throws(GameRecordError) -> [GameRecord] {
        var reader = RecordReader()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let endsWithNewline = text.hasSuffix("\n")
        let decoder = JSONDecoder()
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            let content = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if content.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            reader.lastLine = number
            let event: RecordEvent
            do {
                event = try decoder.decode(RecordEvent.self, from: Data(content.utf8))
            } catch let problem as RecordEvent.Problem {
                throw GameRecordError(line: number, problem: problem.description)
            } catch {
                let isLast = index == lines.count - 1 && !endsWithNewline
                if isLast, content.first == "{", content.last != "}" {
                    throw GameRecordError(line: number, problem: "the record is truncated: its last line stops in the "
                                            + "middle of an object")
                }
                throw GameRecordError(line: number, problem: Self.describe(error, content: content))
            }
            do {
                try reader.read(event, line: number)
            } catch {
                throw GameRecordError(line: number, problem: error.description)
            }
        }
        return reader.finish()
    }

    private static func describe(_ error: any Error, content: Substring) -> String {
        switch error as? DecodingError {
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            let key = context.codingPath.last?.stringValue ?? "a field"
            if context.codingPath.isEmpty { return "not a JSON object (is this a --json transcript?)" }
            return "\"\(key)\" has the wrong type"
        case .keyNotFound(let key, _)?:
            return "no \"\(key.stringValue)\" (each line of a record is a JSON object with an \"event\")"
        default:
            return content.first == "{" ? "not valid JSON" : "not a JSON object (is this a --json transcript?)"
        }
    }
}

/// `GameRecord.parse` between lines: the names the record gave so far and the game being read.
private struct RecordReader {
    var games: [GameRecord] = []
    var current: GameRecord?
    var game = Game()
    var names: (x: String?, o: String?) = (nil, nil)
    var localName: String?
    var peerName: String?
    var lastLine = 0

    mutating func read(_ event: RecordEvent, line: Int) throws(RecordEvent.Problem) {
        switch event {
        case .players(let players):
            names = (players.x, players.o)
            localName = players.local
            peerName = players.peer
        case .listening(let listening):
            localName = listening.name
        case .connected(let connected):
            peerName = connected.peer
        case .gameStart(let start):
            begin(start, line: line)
        case .move(let move):
            try play(move, line: line)
        case .gameOver(let over):
            try end(over, line: line)
        case .other:
            break  // seed, state, summary, engine-started…: not part of a game's moves
        }
    }

    private mutating func begin(_ start: RecordEvent.GameStart, line: Int) {
        if let open = current { games.append(open) }
        var record = GameRecord(number: start.game, line: line, localMark: start.you, firstMover: start.first,
                                endLine: line)
        record.xName = names.x
        record.oName = names.o
        if let you = start.you, names.x == nil, names.o == nil {
            // A network game's transcript: its own name (a host's `listening`) and the peer's (`connected`).
            let local = localName ?? "you"
            if you == .x { (record.xName, record.oName) = (local, peerName) }
            else { (record.xName, record.oName) = (peerName, local) }
        }
        current = record
        game = Game(firstMover: start.first)
    }

    private mutating func play(_ move: RecordEvent.Move, line: Int) throws(RecordEvent.Problem) {
        guard var record = current else { throw RecordEvent.Problem("a move before any game-start") }
        do {
            try game.play(move.cell, by: move.mark)
        } catch {
            throw RecordEvent.Problem(
                "\(move.mark) in cell \(move.cell + 1) is not a legal move of game \(record.number): \(error)")
        }
        record.cells.append(move.cell)
        record.marks.append(move.mark)
        record.endLine = line
        current = record
    }

    /// Ends the game in progress with the result `over` states, checked against the position its moves reached.
    private mutating func end(_ over: RecordEvent.GameOver, line: Int) throws(RecordEvent.Problem) {
        guard var record = current else { throw RecordEvent.Problem("a game-over with no game in progress") }
        var result = over.result
        switch result.reason {
        case .line, .draw:
            guard let reached = game.result else {
                throw RecordEvent.Problem(
                    "game-over says \(RecordEvent.reasonName(result.reason)) but the moves reached no end "
                        + "(\(game.board.compactText))")
            }
            guard reached.winner == result.winner else {
                throw RecordEvent.Problem(
                    "game-over's winner \(result.winner?.description ?? "null") is not the moves' "
                        + "(\(reached.winner?.description ?? "none"))")
            }
            result = reached
        case .resignation, .forfeit, .timeout:
            break
        }
        if let text = over.board, Board(text) != game.board {
            throw RecordEvent.Problem(
                "game-over's board \(text) is not the position the moves reached (\(game.board.compactText))")
        }
        record.result = result
        record.score = over.score
        record.endLine = line
        games.append(record)
        current = nil
    }

    mutating func finish() -> [GameRecord] {
        if var open = current {
            open.endLine = max(open.endLine, lastLine)
            games.append(open)
        }
        return games
    }
}

/// Keeping the games the terminal UI plays (`GameArchive` in AppFiles: `$XDG_DATA_HOME/tictactoe/games`); tests
/// pass closures and need no disk.
public struct GameArchiveClient: Sendable {
    /// Keeps a finished game; returns a warning when it could not be written (the game goes on).
    public var save: @Sendable (GameRecord) -> String?
    /// The saved games, newest first (Past games).
    public var list: @Sendable () -> [SavedGame]

    public init(save: @escaping @Sendable (GameRecord) -> String?, list: @escaping @Sendable () -> [SavedGame] = { [] }) {
        self.save = save
        self.list = list
    }

    /// Nothing is kept.
    public static let none = GameArchiveClient(save: { _ in nil })
}

extension GameRecord {
    /// "perfect (X)": a player's name and mark.
    public func player(_ mark: Mark) -> String {
        let name = self.name(of: mark)
        return name == mark.description ? name : "\(DisplayText.escaped(name)) (\(mark))"
    }

    /// The move `index` (0-based) as a line: "Move 3 of 7: perfect (X) in cell 5".
    public func moveText(_ index: Int) -> String {
        tr("Move %@ of %@: %@ in cell %@", String(index + 1), String(cells.count), player(marks[index]),
           String(cells[index] + 1))
    }

    /// How the game ended, in a sentence; an unfinished game says where the record stops.
    public var resultText: String {
        guard let result else { return tr("Unfinished: the record stops after move %@", String(cells.count)) }
        switch result.reason {
        case .line(let line):
            return tr("%@ wins: a line %@", player(result.winner ?? .x), line.map { String($0 + 1) }.joined(separator: "-"))
        case .draw: return tr("Draw: the board is full")
        case .resignation(let mark): return tr("%@ resigned; %@ wins", player(mark), player(mark.opponent))
        case .forfeit(let mark): return tr("%@ forfeited; %@ wins", player(mark), player(mark.opponent))
        case .timeout(let mark): return tr("%@ ran out of time; %@ wins", player(mark), player(mark.opponent))
        }
    }
}

/// A game the terminal UI saved, as Past games lists it: its file's name and its game, or why it cannot be shown.
public struct SavedGame: Sendable, Hashable {
    public var title: String
    public var record: GameRecord?
    public var problem: String?

    public init(title: String, record: GameRecord?, problem: String? = nil) {
        self.title = title
        self.record = record
        self.problem = problem
    }
}

extension GameRecord {
    /// The result in a word or two for a list: "X wins", "draw", "unfinished".
    public var shortResult: String {
        guard let result else { return tr("unfinished") }
        guard let winner = result.winner else { return tr("draw") }
        return tr("%@ wins", winner.description)
    }
}
