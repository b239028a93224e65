import GameClient
import GameProtocol
import TerminalWidgets
import NetworkScreenState

/// What the screens share besides their own state: every screen reads it, a few keys change it.
struct Shared: Sendable {
    var settings: UISettings
    /// The settings as last loaded or saved: a change is saved when it differs.
    private var persisted: UISettings
    var size: TerminalSize
    /// A one-line message shown in the status line until the next key or timer.
    var flash: String?
    /// The seed of the next game against the computer.
    var seed: UInt64
    /// Settings › Privacy › Local Network (loaded when Settings opens and whenever the decision changes).
    var privacy: PrivacyInfo?

    init(settings: UISettings, size: TerminalSize, seed: UInt64) {
        self.settings = settings
        persisted = settings
        self.size = size
        self.seed = seed
    }

    /// `.saveSettings` when the settings differ from those last saved.
    mutating func saved() -> [AppEffect] {
        guard settings != persisted else { return [] }
        persisted = settings
        return [.saveSettings(settings)]
    }
}

/// What a screen asks of the app after an input: effects for the runtime, and where to go next.
struct Step {
    enum Go {
        case stay
        /// Show a screen over this one: going back comes back here.
        case push(AppModel.Screen)
        /// Show a screen instead of this one.
        case replace(AppModel.Screen)
        /// Back to the screen below, which resumes (`AppModel.Screen.resumed(after:)`).
        case back
        /// Ask before going on (a modal question).
        case ask(Confirmation)
        /// Quit the app (a connected peer is told first).
        case quit
    }

    var effects: [AppEffect] = []
    var go: Go = .stay

    init(_ effects: [AppEffect] = [], _ go: Go = .stay) {
        self.effects = effects
        self.go = go
    }

    init(_ go: Go) {
        self.go = go
    }

    /// The same step with `first` carried out before its own effects.
    func after(_ first: [AppEffect]) -> Step { Step(first + effects, go) }
}

/// What a screen's drawing reads besides its own state.
struct ScreenView {
    let shared: Shared
    let unicode: Bool
    /// The screen under this one on the navigation stack (nil: none, as in `tictactoe replay`).
    let below: AppModel.Screen?
    /// Whether the local network prompt shows over the screen.
    let asking: Bool

    var size: TerminalSize { shared.size }
    var settings: UISettings { shared.settings }
}

/// What every screen draws: its part of the window, the key hints above the status line, and the status line.
protocol ScreenContent {
    /// Draws the screen between the title (row 0) and the key hints.
    func render(into canvas: inout Canvas, _ view: ScreenView)
    /// The keys that work here, for the line above the status line (Settings › Key hints).
    func hints(_ view: ScreenView) -> String
    /// The status line at the bottom (a flash message shows instead while there is one).
    func statusText(_ view: ScreenView) -> String
    /// The menu's entry that leads to this screen: the menu chooses it when the screen goes back to it.
    var menuItem: MenuItem { get }
}

extension AppModel {
    /// One screen of the navigation stack: each case is a screen's own state and reducer.
    public enum Screen: Sendable {
        case menu(MenuScreen)
        case computer(ComputerGame)
        case form(Form)
        /// A private game's code, asked for before joining (again).
        case code(CodeEntry)
        case network(NetworkGame)
        /// Watching a match read-only.
        case watch(WatchGame)
        case search(SearchState)
        /// All services on this network (s on Search).
        case serviceTypes(ServiceTypesState)
        /// The players on this network (the LAN lobby).
        case lobby(LobbyState)
        case settings(SettingsScreen)
        /// A finished game shown move by move (`tictactoe replay`, Past games).
        case replay(ReplayViewer)
        /// The saved games to choose one to replay.
        case pastGames(PastGamesScreen)
    }
}

extension AppModel.Screen {
    /// The screen's state, as what draws it.
    var content: any ScreenContent {
        switch self {
        case .menu(let screen): return screen
        case .computer(let screen): return screen
        case .form(let screen): return screen
        case .code(let screen): return screen
        case .network(let screen): return screen
        case .watch(let screen): return screen
        case .search(let screen): return screen
        case .serviceTypes(let screen): return screen
        case .lobby(let screen): return screen
        case .settings(let screen): return screen
        case .replay(let screen): return screen
        case .pastGames(let screen): return screen
        }
    }

    /// Hands `key` to the screen's reducer; `below` is the screen under it on the stack.
    mutating func handle(_ key: Key, _ shared: inout Shared, below: Self?) -> Step {
        switch self {
        case .menu(let s): return update(s, Self.menu) { $0.handle(key, &shared) }
        case .computer(let s): return update(s, Self.computer) { $0.handle(key, &shared) }
        case .form(let s): return update(s, Self.form) { $0.handle(key, &shared) }
        case .code(let s): return update(s, Self.code) { $0.handle(key) }
        case .network(let s): return update(s, Self.network) { $0.handle(key, &shared, below: below) }
        case .watch(let s): return s.handle(key)
        case .search(let s): return update(s, Self.search) { $0.handle(key, &shared) }
        case .serviceTypes(let s): return update(s, Self.serviceTypes) { $0.handle(key) }
        case .lobby(let s): return update(s, Self.lobby) { $0.handle(key) }
        case .settings(let s): return update(s, Self.settings) { $0.handle(key, &shared) }
        case .replay(let s): return update(s, Self.replay) { $0.handle(key) }
        case .pastGames(let s): return update(s, Self.pastGames) { $0.handle(key, &shared) }
        }
    }

    /// Comes back to this screen after `left` went back: the menu chooses the entry that led there, Search searches
    /// again, a waiting host or join goes on, Past games reads the saved games again.
    mutating func resumed(after left: Self) -> Step {
        switch self {
        case .menu(var menu):
            menu.selected = left.content.menuItem
            self = .menu(menu)
        case .network(let game):
            return game.resumed()
        case .search:
            self = .search(SearchState())
            return Step([.checkNetwork(.search)])
        case .lobby(var lobby):
            guard case .network = left else { break }
            // The game hosted for a challenge, left before its match: the challenge is withdrawn.
            lobby.challenging = nil
            self = .lobby(lobby)
            return Step([.lobbyCommand(.withdraw)])
        case .pastGames:
            self = .pastGames(PastGamesScreen())
            return Step([.loadPastGames])
        default:
            break
        }
        return Step()
    }

    /// Whether a text field has the keys (a form's name, port or address, a code, a lobby line, the name in
    /// Settings): `?` is then a character typed, not help.
    var isTypingText: Bool {
        switch self {
        case .form(let form): return form.field != 2
        case .code: return true
        case .lobby(let lobby): return lobby.greeting != nil
        case .settings(let settings): return settings.row == .name
        default: return false
        }
    }

    /// Whether the gate's answer for `intent` is still for this screen (the person may have moved on).
    func wants(_ intent: NetworkIntent) -> Bool {
        switch (intent, self) {
        case (.search, .search): return true
        case (.browseServiceTypes, .serviceTypes): return true
        case (.lobby, .lobby): return true
        case (.host, .network(let game)): return game.role == .host && !game.isOver
        case (.join, .network(let game)): return game.role == .joiner && !game.isOver
        case (.watch, .watch(let watch)): return !watch.isOver
        default: return false
        }
    }

    /// Shows why the network cannot be used on the screen that asked; false when this screen has no place for it.
    mutating func fail(_ text: String) -> Bool {
        switch self {
        case .search(var search):
            search.apply(.failed(text))
            self = .search(search)
        case .serviceTypes(var types):
            types.apply(.failed(text))
            self = .serviceTypes(types)
        case .lobby(var lobby):
            lobby.fail(text)
            self = .lobby(lobby)
        case .network(var game):
            game.apply(.report(.error(text, .failure)))
            self = .network(game)
        case .watch(var watch):
            watch.apply(.report(.error(text, .failure)))
            self = .watch(watch)
        default:
            return false
        }
        return true
    }

    /// Whether this is the Lobby (on top, or under the game hosted for a challenge or under Settings).
    var isLobby: Bool {
        if case .lobby = self { return true }
        return false
    }

    /// Runs `body` on the screen's state and puts the state back in its case.
    private mutating func update<State>(
        _ state: State, _ wrap: (State) -> Self, _ body: (inout State) -> Step
    ) -> Step {
        var state = state
        let step = body(&state)
        self = wrap(state)
        return step
    }
}
