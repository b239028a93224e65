import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

extension DiscoveryStatus {
    /// What a discovery screen (Search, All services) shows while it has no list: Bonjour unavailable, starting,
    /// waiting for permission (as on iOS, a browser without permission looks like nobody is around: the reason as a
    /// sentence, wrapped at words, and the way to Settings), or failed. False when the list is to be drawn.
    func render(into canvas: inout Canvas, columns: Int, unavailableHint: String?, starting: String,
                notAllowed: String, allowedHint: String) -> Bool {
        switch self {
        case .unavailable(let message):
            canvas.putCentered(DisplayWidth.truncate(DisplayText.escaped(message), to: columns - 2), row: 6,
                               style: .error)
            var row = 8
            if let unavailableHint {
                canvas.putCentered(unavailableHint, row: row)
                row += 1
            }
            canvas.putCentered(tr("The list comes back by itself when Bonjour does."), row: row, style: .dim)
        case .starting:
            canvas.putCentered(starting, row: 6, style: .dim)
        case .waiting(let reason):
            canvas.putCentered(notAllowed, row: 6, style: .bold)
            let sentence = tr("%@.", NetworkGame.capitalized(NetworkGame.sentence(reason)))
            let lines = wrap(sentence, width: min(64, columns - 4))
            for (index, line) in lines.enumerated() { canvas.putCentered(line, row: 8 + index, style: .dim) }
            canvas.putCentered(allowedHint, row: 9 + lines.count)
        case .failed(let text):
            let lines = wrap(DisplayText.escaped(text), width: min(70, columns - 4))
            for (index, line) in lines.enumerated() { canvas.putCentered(line, row: 6 + index, style: .error) }
            canvas.putCentered(tr("See Settings › Privacy and the log for details."), row: 8 + lines.count, style: .dim)
        case .available:
            return false
        }
        return true
    }

    /// The status line while the list waits, failed or Bonjour is unavailable (nil: the screen says).
    var statusLine: String? {
        switch self {
        case .unavailable(let message), .failed(let message): return DisplayText.escaped(message)
        case .waiting: return tr("Waiting for local network access")  // the screen says why
        case .starting, .available: return nil
        }
    }
}

/// The Search screen: joining or watching the chosen game, the way to the other screens, and the list as drawn.
extension SearchState: ScreenContent {
    var menuItem: MenuItem { .search }

    mutating func handle(_ key: Key, _ shared: inout Shared) -> Step {
        let name = shared.settings.name
        switch key {
        case .character("s"):
            // All services on this network: every service type, not only games (the multicast entitlement).
            return Step([.stopBrowsing, .checkNetwork(.browseServiceTypes)], .push(.serviceTypes(ServiceTypesState())))
        case .character("t"):
            // Settings, as from the waiting screens: e.g. to allow local network access; Esc comes back and searches
            // again.
            return Step([.stopBrowsing, .loadPrivacyInfo], .push(.settings(SettingsScreen(row: .localNetwork))))
        case .character("r") where cannotSearch:
            // The failure screen: search again from the start (asking the gate again).
            self = SearchState()
            return Step([.stopBrowsing, .checkNetwork(.search)])
        default:
            break
        }
        switch react(to: key) {
        case .none:
            return Step()
        case .back:
            return Step([.stopBrowsing], .back)
        case .joinByAddress:
            return Step([.stopBrowsing], .replace(.form(Form(kind: .join, settings: shared.settings))))
        case .joinPrivate(let game):
            // The list knows it is private: the code first (a game it does not know to be private asks the same
            // after the host turned the join away, exit 13).
            return Step([.stopBrowsing], .replace(.code(CodeEntry(reason: .privateGame, name: name, target: game))))
        case .watch(let game, let isPrivate):
            if isPrivate {
                let entry = CodeEntry(reason: .privateGame, name: name, target: game, watching: true)
                return Step([.stopBrowsing], .replace(.code(entry)))
            }
            return WatchGame.start(game, as: name, code: nil).after([.stopBrowsing])
        case .join(let game):
            var joining = NetworkGame(role: .joiner, localName: name, target: game)
            if let listed = selectedGame { joining.joining(listedAt: listed.place) }
            return Step([.stopBrowsing, .checkNetwork(.join(name: name, address: game))], .replace(.network(joining)))
        case .notJoinable(let why):
            shared.flash = why
            return Step()
        }
    }

    func render(into canvas: inout Canvas, _ view: ScreenView) {
        canvas.putCentered(tr("Search for games"), row: 3, style: .bold)
        let drawn = status.render(
            into: &canvas, columns: view.size.columns,
            unavailableHint: tr("You can still join by address (a) or play the computer."),
            starting: tr("Looking for games on the local network…"),
            notAllowed: tr("Not searching: local network access is not allowed yet."),
            allowedHint: tr("Press t for Settings; the search starts by itself once access is allowed."))
        if drawn { return }
        if games.isEmpty {
            canvas.putCentered(tr("No games found yet: when someone hosts, it appears here."), row: 6, style: .dim)
            canvas.putCentered(tr("s shows all services on this network."), row: 8, style: .dim)
            return
        }
        // The window's width: name, where it is (host and address, or "this machine") and state in columns, each cut
        // with "…" (display width: wide characters count two); joinable games first (`GameList`).
        let width = max(10, view.size.columns - 4)
        let visible = max(1, view.size.rows - 10)
        let first = max(0, min(selected - visible + 1, games.count - visible))
        let rows = GameList.rows(games, width: width - 1)
        for (offset, game) in games.dropFirst(first).prefix(visible).enumerated() {
            let index = first + offset
            let style: Style = index == selected ? .selected : game.compatible ? .normal : .dim
            canvas.put(" " + rows[index], row: 6 + offset, column: 2, style: style)
        }
    }

    func hints(_ view: ScreenView) -> String {
        cannotSearch
            ? tr("r search again · a join by address · t settings · q back")
            : tr("↑/↓ choose · Enter joins · w watches · a by address · t settings · q back")
    }

    func statusText(_ view: ScreenView) -> String {
        switch status {
        case .starting:
            // Behind the permission prompt nothing searches until it is answered.
            return view.asking ? tr("Not searching yet") : tr("Searching for games…")
        case .available:
            return games.isEmpty ? tr("Searching: no games yet") : GameList.summary(of: games)
        default:
            return status.statusLine ?? ""
        }
    }
}
