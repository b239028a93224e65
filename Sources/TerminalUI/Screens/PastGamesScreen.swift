import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets

/// Past games: the saved games, newest first; Enter replays the chosen one.
public struct PastGamesScreen: Sendable, ScreenContent {
    /// The saved games (nil: being read).
    public private(set) var games: [SavedGame]?
    public private(set) var selected = 0

    var menuItem: MenuItem { .pastGames }

    /// The saved games as read; the choice stays on its row, or the last one.
    mutating func load(_ games: [SavedGame]) {
        self.games = games
        selected = min(selected, max(0, games.count - 1))
    }

    mutating func handle(_ key: Key, _ shared: inout Shared) -> Step {
        let games = self.games ?? []
        switch key {
        case .up, .character("k"):
            selected = max(0, selected - 1)
        case .down, .character("j"):
            selected = min(max(0, games.count - 1), selected + 1)
        case .enter, .character(" "), .right:
            guard games.indices.contains(selected) else { return Step() }
            if let record = games[selected].record {
                return Step(.push(.replay(ReplayViewer(record: record, title: games[selected].title))))
            }
            shared.flash = games[selected].problem
        case .character("q"), .escape, .left:
            return Step(.back)
        default:
            break
        }
        return Step()
    }

    func render(into canvas: inout Canvas, _ view: ScreenView) {
        canvas.putCentered(tr("Past games"), row: 3, style: .bold)
        guard let games, !games.isEmpty else {
            if games != nil {
                canvas.putCentered(tr("No saved games yet: each finished game is kept here."), row: 5, style: .dim)
            }
            return
        }
        let size = view.size
        let top = 5
        let visible = max(1, size.rows - top - 3)
        let first = min(max(0, selected - visible + 1), max(0, games.count - visible))
        let width = min(size.columns - 2, 76)
        let left = max(1, (size.columns - width) / 2)
        for (offset, index) in (first..<min(games.count, first + visible)).enumerated() {
            let game = games[index]
            var line = " " + game.title.replacing(".jsonl", with: "")
            if let record = game.record {
                line += "  " + DisplayText.escaped(record.name(of: .x)) + " – "
                    + DisplayText.escaped(record.name(of: .o))
                    + "  " + record.shortResult
            } else {
                line += "  " + tr("(cannot be read)")
            }
            canvas.put(DisplayWidth.fit(DisplayWidth.truncate(line, to: width), to: width), row: top + offset,
                       column: left, style: index == selected ? .selected : .normal)
        }
    }

    func hints(_ view: ScreenView) -> String { tr("↑/↓ choose · Enter replays · q back") }

    func statusText(_ view: ScreenView) -> String { tr("Saved games: %@", String(games?.count ?? 0)) }
}
