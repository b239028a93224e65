import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

/// The menu's entries, top to bottom.
public enum MenuItem: CaseIterable, Hashable, Sendable {
    case computer, host, privateHost, search, joinByAddress, watch, lobby, engine, pastGames, settings, quit

    /// Its title in English: the menu shows it translated (`tr`).
    public var title: String {
        switch self {
        case .computer: return "Play against the computer"
        case .host: return "Host a game"
        case .privateHost: return "Host a private game"
        case .search: return "Search for games"
        case .joinByAddress: return "Join by address"
        case .watch: return "Watch a game"
        case .lobby: return "Lobby: players on the LAN"
        case .engine: return "Play against an engine"
        case .pastGames: return "Past games"
        case .settings: return "Settings"
        case .quit: return "Quit"
        }
    }

    /// The letter that picks it: the same in every language.
    public var shortcut: Character {
        switch self {
        case .computer: return "p"
        case .host: return "h"
        case .privateHost: return "r"
        case .search: return "s"
        case .joinByAddress: return "a"
        case .watch: return "w"
        case .lobby: return "l"
        case .engine: return "e"
        case .pastGames: return "g"
        case .settings: return "t"
        case .quit: return "q"
        }
    }
}

enum MenuLayout {
    /// The row of the first entry: the entries sit in the middle of the window.
    static func firstRow(size: TerminalSize) -> Int { max(4, (size.rows - MenuItem.allCases.count) / 2 - 1) }
}

/// The menu: ↑/↓ choose, Enter or an entry's letter picks it; Esc asks before quitting.
public struct MenuScreen: Sendable, Hashable, ScreenContent {
    public internal(set) var selected: MenuItem = .computer

    var menuItem: MenuItem { selected }

    mutating func handle(_ key: Key, _ shared: inout Shared) -> Step {
        let items = MenuItem.allCases
        let index = items.firstIndex(of: selected) ?? 0
        switch key {
        case .up, .character("k"), .backTab:
            selected = items[(index + items.count - 1) % items.count]
        case .down, .character("j"), .tab:
            selected = items[(index + 1) % items.count]
        case .enter, .character(" "):
            return choose(selected, &shared)
        case .escape:  // Esc goes back one screen; from the menu that is quitting, so it asks
            return Step(.ask(Confirmation(.quit)))
        case .click(let row, _):
            let index = row - MenuLayout.firstRow(size: shared.size)
            if items.indices.contains(index) { return choose(items[index], &shared) }
        case .character(let c):
            if let item = items.first(where: { $0.shortcut == Character(c.lowercased()) }) {
                return choose(item, &shared)
            }
        default:
            break
        }
        return Step()
    }

    /// Opens the entry's screen over the menu (Esc comes back), or quits.
    private func choose(_ item: MenuItem, _ shared: inout Shared) -> Step {
        let settings = shared.settings
        switch item {
        case .computer:
            shared.seed &+= 1
            var game = ComputerGame(settings: settings, seed: shared.seed)
            let effects = game.begin()
            return Step(effects, .push(.computer(game)))
        case .engine: return Step(.push(.form(Form(kind: .engine, settings: settings))))
        case .host: return Step(.push(.form(Form(kind: .host, settings: settings))))
        case .privateHost: return Step(.push(.form(Form(kind: .host, settings: settings, privateGame: true))))
        case .search: return Step([.checkNetwork(.search)], .push(.search(SearchState())))
        case .joinByAddress: return Step(.push(.form(Form(kind: .join, settings: settings))))
        case .watch: return Step(.push(.form(Form(kind: .watch, settings: settings))))
        case .lobby: return Step([.checkNetwork(.lobby)], .push(.lobby(LobbyState())))
        case .pastGames: return Step([.loadPastGames], .push(.pastGames(PastGamesScreen())))
        case .settings: return Step([.loadPrivacyInfo], .push(.settings(SettingsScreen())))
        case .quit: return Step(.quit)
        }
    }

    func render(into canvas: inout Canvas, _ view: ScreenView) {
        let top = MenuLayout.firstRow(size: view.size)
        canvas.putCentered(tr("Two players, one LAN, nine cells."), row: top - 2, style: .dim)
        let width = 34
        let left = max(0, (view.size.columns - width) / 2)
        for (index, item) in MenuItem.allCases.enumerated() {
            let style: Style = item == selected ? .selected : .normal
            let line = " [\(item.shortcut)] \(tr(item.title))"
            canvas.put(DisplayWidth.fit(line, to: width), row: top + index, column: left, style: style)
            canvas.restyle(row: top + index, column: left + 2, width: 1, style: item == selected ? .selected : .accent)
        }
        canvas.putCentered(tr("Playing as %@", DisplayWidth.truncate(DisplayText.escaped(view.settings.name), to: 32)),
                           row: top + MenuItem.allCases.count + 1, style: .dim)
    }

    func hints(_ view: ScreenView) -> String { tr("↑/↓ or j/k choose · Enter or a letter picks · ? help") }

    func statusText(_ view: ScreenView) -> String { "" }
}
