import GameClient
import GameProtocol
import GameRules
import TextSupport

extension GameRecord {
    /// The record's events, as a network game's `--json` transcript has them (`players`, `game-start`, the `move`s,
    /// `game-over` when it is finished), from the side of `localMark` (X when it has none).
    public var events: [RecordEvent] {
        let local = localMark ?? .x
        var events: [RecordEvent] = []
        if xName != nil || oName != nil {
            events.append(.players(RecordEvent.Players(
                x: name(of: .x), o: name(of: .o), local: name(of: local), peer: name(of: local.opponent))))
        }
        events.append(.gameStart(RecordEvent.GameStart(game: number, you: local, first: firstMover)))
        var board = Board()
        for (mark, cell) in zip(marks, cells) {
            events.append(.move(RecordEvent.Move(mark: mark, cell: cell, by: mark == local ? .local : .peer)))
            board[cell] = mark
        }
        if let result {
            events.append(.gameOver(RecordEvent.GameOver(
                game: number, result: result, board: board.compactText, score: score ?? .init())))
        }
        return events
    }

    /// The record's JSON lines: what the terminal UI saves and `tictactoe replay` reads back.
    public func jsonLines() throws -> [String] {
        try events.map(JSONLine.encode)
    }
}
