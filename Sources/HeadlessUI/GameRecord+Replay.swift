import GameClient
import GameRules
import JSONLines
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
        try JSONEvent.line(.replay(self, file: path))
    }
}
