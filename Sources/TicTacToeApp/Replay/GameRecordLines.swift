import GameClient
import GameProtocol
import GameRules

extension GameRecord {
    /// The record's JSON lines, in the events of a network game's `--json` transcript (`players`, `game-start`, the
    /// `move`s, `game-over` when it is finished), from the side of `localMark` (X when it has none): what the terminal
    /// UI saves and `tictactoe replay` reads back.
    public var jsonLines: [String] {
        let local = localMark ?? .x
        var lines: [String] = []
        if xName != nil || oName != nil {
            let players = PlayersLine(
                game: nil, x: name(of: .x), o: name(of: .o), local: name(of: local), peer: name(of: local.opponent))
            lines.append((try? JSONLine.encode(players)) ?? "{}")
        }
        var reports: [MatchReport] = [
            .session(.gameStarted(number: number, localMark: local, firstMover: firstMover))
        ]
        var board = Board()
        for (mark, cell) in zip(marks, cells) {
            reports.append(.session(.moved(mark: mark, cell: cell, by: mark == local ? .local : .peer)))
            board[cell] = mark
        }
        if let result {
            reports.append(.session(.gameOver(number: number, result: result, board: board, score: score ?? .init())))
        }
        lines += reports.map { (try? JSONEvent.line($0)) ?? "{}" }
        return lines
    }
}
