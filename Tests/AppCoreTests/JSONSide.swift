import Foundation
import HeadlessUI
import TicTacToeTestSupport

/// One side's `--json` lines, as a host or joiner in process writes them (`JSONLinesReporter`, unstamped).
final class JSONSide: Sendable {
    let lines = Recorder<String>()
    var reporter: JSONLinesReporter {
        let lines = self.lines
        return JSONLinesReporter(stamped: false, write: { lines.append($0) }, writeError: { lines.append($0) })
    }

    var events: [[String: Any]] {
        lines.all.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    func events(named name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    /// Each move as `X5`.
    var moves: [String] { events(named: "move").map { "\($0["mark"]!)\($0["cell"]!)" } }
}
