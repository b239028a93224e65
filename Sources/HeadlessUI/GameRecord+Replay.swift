import GameClient
import GameRules
import Localization
import TextSupport

/// `tictactoe replay FILE`'s headless output: the moves, the final board and the result as text, or one JSON line.
extension GameRecord {
    /// The headless text: a heading, each move, the final board, the result.
    public func replayText(path: String, unicode: Bool = false) -> [String] {
        var lines = [tr("Game %@ of %@: X %@ · O %@", String(number), path,
                        DisplayText.escaped(name(of: .x)), DisplayText.escaped(name(of: .o)))]
        lines += cells.indices.map(moveText)
        lines.append("")
        lines += (positions.last ?? Board()).rendered(unicode: unicode).split(separator: "\n").map { row in
            var row = String(row)
            while row.last == " " { row.removeLast() }
            return row
        }
        lines.append("")
        lines.append(resultText)
        return lines
    }

    /// `--json`: one `replay` line with the game's moves, final board and result.
    public func replayJSON(path: String) throws -> String {
        try JSONLine.encode(ReplayLine(game: self, path: path))
    }
}

private struct ReplayLine: Encodable {
    var game: GameRecord
    var path: String

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode("replay", forKey: "event")
        try object.encode(path, forKey: "file")
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
}
