import FoundationEssentials
import GameProtocol
import GameRules
import GameClient
import Localization
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// What the person can set in Settings.
public struct UISettings: Hashable, Sendable {
    /// The computer's strength, weakest first (←/→ cycle through them); the raw value is its one name, as in
    /// `--player` and settings.json (values stored by earlier versions, "perfect" and "easy", load as they were).
    public enum Difficulty: String, Hashable, Sendable, CaseIterable {
        case easy, medium, perfect

        /// The shared match's level of the same name.
        var strength: ComputerMatch.Strength {
            switch self {
            case .easy: return .easy
            case .medium: return .medium
            case .perfect: return .perfect
            }
        }

        init(_ strength: ComputerMatch.Strength) {
            switch strength {
            case .easy: self = .easy
            case .medium: self = .medium
            case .perfect: self = .perfect
            }
        }

        /// Its name as the screen shows it, in the language in use.
        public var title: String {
            switch self {
            case .easy: return tr("easy")
            case .medium: return tr("medium")
            case .perfect: return tr("perfect")
            }
        }
    }
    public enum Starter: String, Hashable, Sendable, CaseIterable {
        case you, computer, alternate

        /// Its name as Settings shows it, in the language in use.
        public var title: String {
            switch self {
            case .you: return tr("you")
            case .computer: return tr("computer")
            case .alternate: return tr("alternate")
            }
        }
    }

    public var difficulty: Difficulty = .perfect
    public var starter: Starter = .alternate
    public var name: String
    public var port: Int = 7878
    /// The addresses joined by address, newest first (at most `AddressHistory.limit`, each once): ↑/↓ in Join by
    /// address.
    public var addressHistory: [String] = []
    /// Colours on (the default) or off; off, or `--no-color`/`NO_COLOR`, draws with bold, dim and reverse only.
    public var colors = true
    /// The key-hint line above the status line shown (the default) or hidden.
    public var keyHints = true
    /// The engine command last played against (Play against an engine), offered the next time.
    public var engineCommand: String?
    /// How many spectators the host forms allow (0: none; ←/→ cycle through `spectatorChoices`).
    public var spectators = 0

    /// What the host forms' Spectators row offers.
    public static let spectatorChoices = [0, 1, 2, 4, 8]

    /// `name` in NFC, cut to 63 bytes at a character boundary (`PlayerName.fitted`), as the name field keeps it.
    public init(name: String) {
        self.name = PlayerName.fitted(name)
    }

    /// The settings kept between launches over the defaults: a field missing or not understood keeps its default;
    /// the name goes through `PlayerName.fitted` (a blank one is the default name).
    public init(stored: StoredSettings, defaultName: String) {
        self.init(name: defaultName)
        if let name = stored.name.map(PlayerName.fitted), !name.trimmingWhitespace().isEmpty {
            self.name = name
        }
        if let difficulty = stored.difficulty.flatMap(Difficulty.init(rawValue:)) { self.difficulty = difficulty }
        if let starter = stored.starter.flatMap(Starter.init(rawValue:)) { self.starter = starter }
        if let port = stored.port, (0...65535).contains(port) { self.port = port }
        // A file of an older version has only the last address; one an older version wrote after a newer one may
        // have a last address newer than the history it kept: it goes first.
        var history = stored.addressHistory ?? []
        if let last = stored.lastAddress, history.first != last { history = AddressHistory.adding(last, to: history) }
        addressHistory = AddressHistory.cleaned(history)
        if let colors = stored.colors { self.colors = colors }
        if let keyHints = stored.keyHints { self.keyHints = keyHints }
        if let engine = stored.engine, !engine.trimmingWhitespace().isEmpty { engineCommand = engine }
        if let spectators = stored.spectators, Self.spectatorChoices.contains(spectators) {
            self.spectators = spectators
        }
    }

    /// What is kept between launches.
    public var stored: StoredSettings {
        StoredSettings(
            name: name, difficulty: difficulty.rawValue, starter: starter.rawValue, port: port,
            lastAddress: addressHistory.first, addressHistory: addressHistory, colors: colors, keyHints: keyHints,
            engine: engineCommand, spectators: spectators == 0 ? nil : spectators)
    }
}

/// Timers the model can ask for.
public enum TimerID: Hashable, Sendable {
    case computerMove
    case clearFlash
    case quitGrace
    /// A second of the connecting screen's countdown.
    case connectCountdown
}

/// Every input of the UI model.
public enum AppInput: Sendable {
    case key(Key)
    case resized(TerminalSize)
    case timer(TimerID)
    /// A network event of session `session` (the runtime drops events of sessions it has abandoned).
    case network(NetworkEvent, session: Int = 0)
    /// What the engine playing the computer's side reports (the runtime drops those of engines it has stopped).
    case engine(EngineEvent, session: Int = 0)
    /// SIGINT, SIGTERM or SIGHUP.
    case signal(ByeReason)
    /// What Search for games reports: the Bonjour browser's events, or why it waits or cannot browse.
    case discovery(DiscoveryUpdate)
    /// What "All services on this network" reports: the service types, or why it waits or cannot list them.
    case serviceTypes(ServiceTypesUpdate)
    /// What the lobby of session `session` reports (the runtime drops those of lobbies it has left).
    case lobby(LobbyUpdate, session: Int = 0)
    /// The gate's answer for something the user asked for, with the prompt's text when it must be asked.
    case gate(LocalNetworkVerdict, NetworkIntent, prompt: (title: String, message: String)?)
    /// The local network decision or the manifest changed (read for Settings).
    case privacy(PrivacyInfo)
    /// The decision changed elsewhere (another process, `tictactoe privacy grant`): read it again (`.privacy`).
    case privacyChanged
    /// Start as an app "just recompiled for iOS 14" does: prompt and browse at launch (`--prompt-at-launch`).
    case launchEagerly
    /// A warning from the runtime for the status line (the log file failed: logging is off, the game goes on).
    /// Nothing is ever written over the curses screen: this is how such news reaches the person.
    case notice(String)
    /// The saved games, newest first (Past games).
    case pastGames([SavedGame])
}

/// What the model asks the runtime to do.
public enum AppEffect: Hashable, Sendable {
    case schedule(TimerID, after: Double)
    /// Host one match: an open game, or a private one (its code comes back as `.privateCode`), with room for
    /// `spectators` watchers (0: none).
    case host(name: String, port: Int, security: GameSecurity, spectators: Int = 0)
    /// Join `address`; `code` is a private game's code (six digits) or nil.
    case join(name: String, address: String, code: String?)
    /// Watch the match at `address` read-only (a spectator); `code` as for joining.
    case watch(name: String, address: String, code: String?)
    case command(LocalCommand)
    /// Stop listening / connecting (the match, if any, has been told to leave already).
    case cancelNetwork
    /// Search for games: start / stop the Bonjour browser (it waits for permission by itself).
    case startBrowsing
    case stopBrowsing
    /// All services on this network: start / stop listing the service types (it waits for permission by itself).
    case startServiceTypes
    case stopServiceTypes
    /// The Lobby: join it as `name` (it waits for permission by itself), leave it, or pass it what the person did.
    case startLobby(name: String)
    case stopLobby
    case lobbyCommand(LobbyCommand)
    /// Play a game that came of the lobby (as `.host` and `.join` do, without Bonjour).
    case lobbyGame(name: String, LobbyGame)
    /// Ask the privacy gate about `intent` (answered with `.gate`).
    case checkNetwork(NetworkIntent)
    /// The prompt's answer, to remember.
    case answerPrompt(allow: Bool)
    /// Settings › Privacy › Local Network.
    case setLocalNetwork(allowed: Bool)
    case resetLocalNetwork
    case loadPrivacyInfo
    /// The person changed a setting: keep it for the next launch (`settings.json`).
    case saveSettings(UISettings)
    /// Play against an engine: start it (`command` as after `engine:`), ask it for a move in game `game`, stop it.
    /// Its answers come back as `.engine` inputs; the UI goes on meanwhile.
    case startEngine(command: String)
    case engineMove(game: Int, Game)
    case stopEngine
    /// A game ended: keep it for `tictactoe replay` (`$XDG_DATA_HOME/tictactoe/games`).
    case saveGame(GameRecord)
    /// Past games: read the saved games (answered with `.pastGames`).
    case loadPastGames
    case quit(status: Int32)
}

/// The smallest window the game draws in.
public let minimumSize = TerminalSize(rows: 20, columns: 44)

/// The whole state of the terminal UI: a pure value. `handle(_:)` returns the effects the runtime carries out;
/// `render(into:)` draws it. No curses, no sockets.
public struct AppModel: Sendable {
    public enum Screen: Sendable {
        case menu(selected: Int)
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
        case settings(selected: Int)
        /// A finished game shown move by move (`tictactoe replay`, Past games).
        case replay(ReplayViewer)
        /// The saved games to choose one to replay (nil: being read).
        case pastGames([SavedGame]?, selected: Int)
    }

    public var screen: Screen = .menu(selected: 0)
    public var settings: UISettings
    /// The settings as last loaded or saved: a change in Settings is saved when it differs.
    private var persisted: UISettings
    public var size: TerminalSize
    public var showHelp = false
    /// The local network prompt, when shown (modal).
    public private(set) var prompt: PromptState?
    /// A question before leaving a match, resigning or quitting (modal): `y` confirms, any other key cancels.
    public private(set) var confirmation: Confirmation?
    /// Settings › Privacy › Local Network (loaded when Settings opens and whenever the decision changes).
    public private(set) var privacy: PrivacyInfo?
    /// A host or join that waits while the person visits Settings (to turn Local Network on); it resumes on return.
    public private(set) var suspended: NetworkGame?
    /// The lobby, while the game hosted for the person's challenge waits for its player (the network screen shows
    /// instead: leaving that screen before a match comes back to it), or while Settings shows, opened from the lobby
    /// (t: Esc comes back to it). The lobby goes on meanwhile: its events are applied here.
    public private(set) var lobbyBehind: LobbyState?
    /// Settings were opened from Search (t): Esc goes back to searching.
    public private(set) var searchSuspended = false
    /// Settings › Your name being edited (its cursor); nil or out of date (another text) means the name with the
    /// cursor at its end.
    var nameEditor: LineEditor?
    /// A one-line message shown in the status line until the next key or timer.
    public var flash: String?
    var seed: UInt64
    /// Set once the person quits; the runtime exits after the network had a moment to say bye.
    public private(set) var quitting: Int32?
    /// Opened by `tictactoe replay`: leaving the replay quits (there is no menu to go back to).
    public private(set) var replayOnly = false

    public init(settings: UISettings, size: TerminalSize, seed: UInt64) {
        self.settings = settings
        self.persisted = settings
        self.size = size
        self.seed = seed
    }

    /// The model of `tictactoe replay`: the viewer, and q quits.
    public init(settings: UISettings, size: TerminalSize, replay: ReplayViewer) {
        self.init(settings: settings, size: size, seed: 0)
        screen = .replay(replay)
        replayOnly = true
    }

    public var isTooSmall: Bool { size.rows < minimumSize.rows || size.columns < minimumSize.columns }

    /// Whether a network match or listener is running (so leaving must tell the peer).
    var networkActive: Bool {
        if case .network(let game) = screen { return !game.isOver }
        return false
    }

    public mutating func handle(_ input: AppInput) -> [AppEffect] {
        switch input {
        case .resized(let newSize):
            size = newSize
            return []
        case .timer(.clearFlash):
            flash = nil
            return []
        case .timer(.quitGrace):
            return [.quit(status: quitting ?? 0)]
        case .timer(.connectCountdown):
            guard case .network(var game) = screen else { return [] }
            let more = game.countDown()
            screen = .network(game)
            return more ? [.schedule(.connectCountdown, after: 1)] : []
        case .timer(.computerMove):
            guard case .computer(var game) = screen else { return [] }
            let effects = game.computerMoves() + saveIfEnded(&game)
            screen = .computer(game)
            return effects
        case .engine(let event, _):
            guard case .computer(var game) = screen else { return [] }
            let effects = game.engineReported(event) + saveIfEnded(&game)
            screen = .computer(game)
            return effects
        case .signal(let reason):
            confirmation = nil  // Ctrl-C never asks
            return quit(status: reason == .shutdown ? 143 : 130, reason: reason)
        case .discovery(let update):
            guard case .search(var search) = screen else { return [] }
            search.apply(update)
            screen = .search(search)
            return []
        case .serviceTypes(let update):
            guard case .serviceTypes(var types) = screen else { return [] }
            types.apply(update)
            screen = .serviceTypes(types)
            return []
        case .lobby(let update, _):
            return lobbyUpdated(update)
        case .gate(let verdict, let intent, let promptText):
            return gateAnswered(verdict, intent, promptText)
        case .privacy(let info):
            privacy = info
            return []
        case .privacyChanged:
            return [.loadPrivacyInfo]
        case .launchEagerly:
            screen = .search(SearchState())
            return [.checkNetwork(.search)]
        case .notice(let text):
            flash = text
            return []
        case .pastGames(let games):
            guard case .pastGames(_, let selected) = screen else { return [] }
            screen = .pastGames(games, selected: min(selected, max(0, games.count - 1)))
            return []
        case .network(let event, _):
            if var waiting = suspended {
                let effects = waiting.apply(event)
                suspended = waiting
                return effects
            }
            if case .watch(var watch) = screen {
                watch.apply(event)
                screen = .watch(watch)
                if watch.codeRefused {
                    return askForCode(toJoin: watch.target, as: watch.localName,
                                      because: watch.code == nil ? .privateGame : .wrongCode, watching: true)
                }
                return []
            }
            guard case .network(var game) = screen else { return [] }
            var effects = game.apply(event)
            screen = .network(game)
            if lobbyBehind != nil, case .report(let report) = event {
                // The game hosted for the person's challenge: the lobby invites once it listens.
                switch report {
                case .listening(_, let port, _, _, _): effects.append(.lobbyCommand(.hostListening(port)))
                case .connected: effects.append(.lobbyCommand(.hostConnected))
                default: break
                }
            }
            if case .report(.session(.gameOver(let number, let result, _, let score))) = event {
                effects += [.saveGame(Self.record(of: game, number: number, result: result, score: score))]
            }
            dropStaleConfirmation()
            if game.role == .joiner, game.codeRefused {
                // Exit 13: no code for a private game, or a wrong one. Ask for it, to join the same game again.
                return effects + askForCode(toJoin: game.target, as: game.localName,
                                            because: game.code == nil ? .privateGame : .wrongCode)
            }
            return effects
        case .key(let key):
            if key == .resize { return [] }
            flash = nil
            if let asked = confirmation {
                // The question takes the next key: `y` goes ahead, any other key only closes it.
                confirmation = nil
                return Confirmation.confirms(key) ? confirmed(asked.action) : []
            }
            if showHelp {
                showHelp = false
                return []
            }
            if var prompt {
                switch prompt.handle(key) {
                case .none:
                    self.prompt = prompt
                    return []
                case .allow:
                    self.prompt = nil
                    return [.answerPrompt(allow: true)] + proceed(prompt.intent)
                case .deny:
                    self.prompt = nil
                    return [.answerPrompt(allow: false)] + proceed(prompt.intent)
                }
            }
            if key == .character("?"), !isTypingText {
                showHelp = true
                return []
            }
            if isTooSmall {
                if key == .character("q") || key == .escape { return askToQuit() }
                return []
            }
            return handleKey(key)
        }
    }

    /// Whether a text field has the keys (a form's name, port or address, a code, a lobby line, the name in
    /// Settings): `?` is then a character typed, not help.
    var isTypingText: Bool {
        switch screen {
        case .form(let form): return form.field != 2
        case .code: return true
        case .lobby(let lobby): return lobby.greeting != nil
        case .settings(let selected): return selected == SettingsRow.name.rawValue
        default: return false
        }
    }

    private mutating func handleKey(_ key: Key) -> [AppEffect] {
        switch screen {
        case .menu(let selected):
            return handleMenu(key, selected: selected)
        case .computer(var game):
            if key == .character("q") || key == .escape {
                screen = .menu(selected: Self.menuIndex(game.engineCommand == nil ? "p" : "e"))
                return game.engineCommand == nil ? [] : [.stopEngine]
            }
            let effects = game.handle(key, layout: BoardLayout(size: size, top: 5)) + saveIfEnded(&game)
            screen = .computer(game)
            return effects
        case .form(var form):
            switch form.handle(key) {
            case .none:
                screen = .form(form)
                return []
            case .cancel:
                let entry: Character
                switch form.kind {
                case .join: entry = "a"
                case .watch: entry = "w"
                case .engine: entry = "e"
                case .host: entry = form.privateGame ? "r" : "h"
                }
                screen = .menu(selected: Self.menuIndex(entry))
                return []
            case .submit:
                return submit(form)
            case .joinByName(let name):
                // The same way as choosing the game on the Search screen.
                settings.name = form.name
                if form.kind == .watch { return saveIfChanged() + startWatching(name, as: form.name, code: nil) }
                screen = .network(NetworkGame(role: .joiner, localName: form.name, target: name))
                return saveIfChanged() + [.checkNetwork(.join(name: form.name, address: name))]
            }
        case .code(var entry):
            switch entry.handle(key) {
            case .none:
                screen = .code(entry)
                return []
            case .cancel:
                screen = .menu(selected: Self.menuIndex(entry.watching ? "w" : "a"))
                return []
            case .submit(let code):
                if entry.watching { return startWatching(entry.target, as: entry.name, code: code) }
                screen = .network(NetworkGame(role: .joiner, localName: entry.name, target: entry.target, code: code))
                return [.checkNetwork(.join(name: entry.name, address: entry.target))]
            }
        case .watch(let watch):
            // Read-only: no key plays. q and Esc leave at any time (the host is told); Enter too once it ended.
            if key == .character("q") || key == .escape || (key == .enter && watch.isOver) {
                screen = .menu(selected: Self.menuIndex("w"))
                return watch.isOver ? [] : [.cancelNetwork]
            }
            return []
        case .network(var game):
            if game.isOver {
                // A failure screen (or a host's after a match): `r` tries again, Enter goes back like q and Esc.
                if key == .character("r"), game.retry != nil { return again(game) }
                if key == .enter { return leaveNetworkGame() }
            }
            if key == .character("q") || key == .escape {
                if game.inMatch {  // leaving forfeits: ask first
                    confirmation = Confirmation(.leave, gameInProgress: game.phase == .playing)
                    return []
                }
                return leaveNetworkGame()
            }
            if key == .character("R"), game.canResign {
                confirmation = Confirmation(.resign)
                return []
            }
            if key == .character("t"), !game.inMatch, !game.isOver, lobbyBehind == nil {
                // Settings while waiting (e.g. for local network permission): the host or join keeps waiting.
                suspended = game
                screen = .settings(selected: SettingsRow.localNetwork.rawValue)
                return [.loadPrivacyInfo]
            }
            let effects = game.handle(key, layout: BoardLayout(size: size, top: 5))
            screen = .network(game)
            return effects
        case .lobby(var lobby):
            switch lobby.handle(key) {
            case .none:
                screen = .lobby(lobby)
                return []
            case .command(let command):
                screen = .lobby(lobby)
                return [.lobbyCommand(command)]
            case .retry:
                screen = .lobby(LobbyState())
                return [.stopLobby, .checkNetwork(.lobby)]
            case .back:
                screen = .menu(selected: Self.menuIndex("l"))
                return [.stopLobby]
            case .settings:
                // Settings from the lobby, as from Search: e.g. to allow access; the lobby waits or goes on.
                lobbyBehind = lobby
                screen = .settings(selected: SettingsRow.localNetwork.rawValue)
                return [.loadPrivacyInfo]
            }
        case .serviceTypes(var types):
            switch types.handle(key) {
            case .none:
                screen = .serviceTypes(types)
                return []
            case .retry:
                screen = .serviceTypes(ServiceTypesState())
                return [.stopServiceTypes, .checkNetwork(.browseServiceTypes)]
            case .back:
                // Back to searching for games, from the start.
                screen = .search(SearchState())
                return [.stopServiceTypes, .checkNetwork(.search)]
            }
        case .search(var search):
            if key == .character("s") {
                // All services on this network: every service type, not only games (the multicast entitlement).
                screen = .serviceTypes(ServiceTypesState())
                return [.stopBrowsing, .checkNetwork(.browseServiceTypes)]
            }
            if key == .character("t") {
                // Settings from Search, as from the waiting screens: e.g. to allow local network access; Esc comes
                // back and searches again.
                searchSuspended = true
                screen = .settings(selected: SettingsRow.localNetwork.rawValue)
                return [.stopBrowsing, .loadPrivacyInfo]
            }
            if key == .character("r"), search.cannotSearch {
                // The failure screen of Search: search again from the start (asking the gate again).
                screen = .search(SearchState())
                return [.stopBrowsing, .checkNetwork(.search)]
            }
            switch search.handle(key) {
            case .none:
                screen = .search(search)
                return []
            case .back:
                screen = .menu(selected: Self.menuIndex("s"))
                return [.stopBrowsing]
            case .joinByAddress:
                screen = .form(Form(kind: .join, settings: settings))
                return [.stopBrowsing]
            case .joinPrivate(let name):
                // The list knows it is private: the code first (a game it does not know to be private asks the same
                // after the host turned the join away, exit 13).
                return askForCode(toJoin: name, as: settings.name, because: .privateGame) + [.stopBrowsing]
            case .watch(let name, let isPrivate):
                if isPrivate {
                    return askForCode(toJoin: name, as: settings.name, because: .privateGame, watching: true)
                        + [.stopBrowsing]
                }
                return [.stopBrowsing] + startWatching(name, as: settings.name, code: nil)
            case .join(let name):
                var joining = NetworkGame(role: .joiner, localName: settings.name, target: name)
                if let listed = search.selectedGame { joining.joining(listedAt: listed.place) }
                screen = .network(joining)
                return [.stopBrowsing, .checkNetwork(.join(name: settings.name, address: name))]
            case .notJoinable(let why):
                screen = .search(search)
                flash = why
                return []
            }
        case .settings(let selected):
            return handleSettings(key, selected: selected) + saveIfChanged()
        case .replay(var viewer):
            switch viewer.handle(key) {
            case .stay:
                screen = .replay(viewer)
                return []
            case .leave:
                if replayOnly { return [.quit(status: 0)] }
                screen = .pastGames(nil, selected: 0)
                return [.loadPastGames]
            }
        case .pastGames(let games, let selected):
            return handlePastGames(key, games: games ?? [], selected: selected)
        }
    }

    // MARK: Saving games

    private mutating func handlePastGames(_ key: Key, games: [SavedGame], selected: Int) -> [AppEffect] {
        switch key {
        case .up, .character("k"):
            screen = .pastGames(games, selected: max(0, selected - 1))
        case .down, .character("j"):
            screen = .pastGames(games, selected: min(max(0, games.count - 1), selected + 1))
        case .enter, .character(" "), .right:
            guard games.indices.contains(selected) else { return [] }
            if let record = games[selected].record {
                screen = .replay(ReplayViewer(record: record, title: games[selected].title))
            } else {
                flash = games[selected].problem
            }
        case .character("q"), .escape, .left:
            screen = .menu(selected: Self.menuIndex("g"))
        default:
            break
        }
        return []
    }

    /// `.saveGame` once a game against the computer is over (each game once: the move that ended it).
    private func saveIfEnded(_ game: inout ComputerGame) -> [AppEffect] {
        guard let result = game.game.result, game.savedGame != game.number else { return [] }
        game.savedGame = game.number
        return [.saveGame(Self.record(of: game, name: settings.name, result: result))]
    }

    static func record(of game: ComputerGame, name: String, result: GameResult) -> GameRecord {
        let computer = game.opponentName
        let human = game.humanMark
        return GameRecord(
            number: game.number, line: 0, xName: human == .x ? name : computer, oName: human == .o ? name : computer,
            localMark: human, firstMover: game.game.firstMover, cells: game.game.moves,
            marks: alternating(from: game.game.firstMover, count: game.game.moves.count), result: result,
            score: MatchSession.Score(localWins: game.wins, peerWins: game.losses, draws: game.draws))
    }

    static func record(of game: NetworkGame, number: Int, result: GameResult, score: MatchSession.Score) -> GameRecord {
        let local = game.localMark ?? .x
        let peer = game.peerName ?? tr("the opponent")
        let first = game.game?.firstMover ?? .x
        let cells = game.game?.moves ?? []
        return GameRecord(
            number: number, line: 0, xName: local == .x ? game.localName : peer,
            oName: local == .o ? game.localName : peer, localMark: local, firstMover: first, cells: cells,
            marks: alternating(from: first, count: cells.count), result: result, score: score)
    }

    private static func alternating(from first: Mark, count: Int) -> [Mark] {
        (0..<count).map { $0 % 2 == 0 ? first : first.opponent }
    }

    // MARK: Confirmations

    /// Asks before quitting when that forfeits a match; quits at once otherwise.
    private mutating func askToQuit() -> [AppEffect] {
        if case .network(let game) = screen, game.inMatch {
            confirmation = Confirmation(.quit, gameInProgress: game.phase == .playing)
            return []
        }
        return quit(status: 0, reason: .quit)
    }

    /// Carries out what the person confirmed (if it still applies: the match may have moved on meanwhile).
    private mutating func confirmed(_ action: Confirmation.Action) -> [AppEffect] {
        switch action {
        case .quit:
            return quit(status: 0, reason: .quit)
        case .leave:
            guard case .network = screen else { return [] }
            return leaveNetworkGame()
        case .resign:
            guard case .network(let game) = screen, game.canResign else { return [] }
            return [.command(.resign)]
        }
    }

    /// Forgets a question about a match that ended or a game that is no longer played while it was asked.
    private mutating func dropStaleConfirmation() {
        guard let asked = confirmation, case .network(let game) = screen else { return }
        switch asked.action {
        case .leave, .quit:
            if !game.inMatch { confirmation = nil }
        case .resign:
            if !game.canResign { confirmation = nil }
        }
    }

    /// Hosts or joins again what `game` hosted or joined: after a failure, or (a host) to serve the next joiner after
    /// a match. Asks the gate again, as the first time did.
    private mutating func again(_ game: NetworkGame) -> [AppEffect] {
        let next = game.again()
        screen = .network(next)
        if let lobbyGame = next.lobbyGame { return startLobbyGame(lobbyGame) }
        switch next.role {
        case .host:
            return [.checkNetwork(.host(
                name: next.localName, port: next.requestedPort ?? settings.port, isPrivate: next.security == .private))]
        case .joiner:
            return [.checkNetwork(.join(name: next.localName, address: next.target))]
        }
    }

    /// Leaves the network screen for the menu: tells a connected peer (bye) and stops listening or connecting.
    private mutating func leaveNetworkGame() -> [AppEffect] {
        guard case .network(let game) = screen else { return [] }
        var effects: [AppEffect] = []
        if game.inMatch { effects.append(.command(.leave(.quit))) }
        if !game.isOver { effects.append(.cancelNetwork) }
        if var lobby = lobbyBehind {
            // The game hosted for a challenge, before its match: back to the lobby, the challenge withdrawn.
            lobbyBehind = nil
            lobby.challenging = nil
            screen = .lobby(lobby)
            return effects + [.lobbyCommand(.withdraw)]
        }
        let entry: Character = game.role == .joiner ? "a" : game.security == .private ? "r" : "h"
        screen = .menu(selected: Self.menuIndex(entry))
        return effects
    }

    /// Leaves: tells a connected peer (bye), then quits after a short grace period for the frame to go out.
    mutating func quit(status: Int32, reason: ByeReason) -> [AppEffect] {
        guard quitting == nil else { return [.quit(status: status)] }
        quitting = status
        if case .watch(let watch) = screen, !watch.isOver {
            return [.cancelNetwork, .schedule(.quitGrace, after: 0.3)]  // the host hears bye
        }
        if case .network(let game) = screen, !game.isOver {
            var effects: [AppEffect] = []
            if game.inMatch { effects.append(.command(.leave(reason))) }
            effects.append(.cancelNetwork)
            if lobbyBehind != nil { effects.append(.stopLobby) }
            return effects + [.schedule(.quitGrace, after: 0.3)]
        }
        if case .lobby(let lobby) = screen, !lobby.isLeft {
            return [.stopLobby, .schedule(.quitGrace, after: 0.3)]  // the others hear we left
        }
        if lobbyBehind != nil {
            return [.stopLobby, .schedule(.quitGrace, after: 0.3)]
        }
        return [.quit(status: status)]
    }

    // MARK: Private games

    /// Shows the code form for joining `target` as `name`: after the host turned a join away for its code (exit 13),
    /// or before joining a game known to be private. Enter joins `target` again with the typed code; Esc goes back
    /// to the menu.
    public mutating func askForCode(toJoin target: String, as name: String, because reason: CodeEntry.Reason,
                                    watching: Bool = false) -> [AppEffect]
    {
        var entry = CodeEntry(reason: reason, name: name, target: target)
        entry.watching = watching
        screen = .code(entry)
        return []
    }

    // MARK: Lobby

    /// What the lobby reports: its events for the Lobby screen (or for the lobby behind the game hosted for a
    /// challenge), and the games it asks for.
    private mutating func lobbyUpdated(_ update: LobbyUpdate) -> [AppEffect] {
        switch update {
        case .event(let event):
            if case .lobby(var lobby) = screen {
                lobby.apply(event)
                screen = .lobby(lobby)
            } else if var lobby = lobbyBehind {
                lobby.apply(event)
                lobbyBehind = lobby
            }
            return []
        case .hostGame(let name):
            // The person challenged `name`: host an open game on any free port; they are invited once it listens.
            guard case .lobby(var lobby) = screen else { return [.lobbyCommand(.withdraw)] }
            lobby.challenging = name
            lobbyBehind = lobby
            var game = NetworkGame(role: .host, localName: settings.name, target: tr("a free port"), port: 0)
            game.lobbyGame = .host
            game.challenged = name
            screen = .network(game)
            return startLobbyGame(.host)
        case .stopHosting:
            // Declined or not answered: back to the lobby (its log says why).
            guard var lobby = lobbyBehind, case .network(let game) = screen, game.role == .host, !game.inMatch else {
                return []
            }
            lobbyBehind = nil
            lobby.challenging = nil
            screen = .lobby(lobby)
            return game.isOver ? [] : [.cancelNetwork]
        case .join(_, let address, let port):
            // The person accepted: the challenger's game, joined as any address is (the gate first).
            lobbyBehind = nil
            let game = LobbyGame.join(address: address, port: port)
            var joining = NetworkGame(role: .joiner, localName: settings.name, target: game.target ?? address)
            joining.lobbyGame = game
            screen = .network(joining)
            return startLobbyGame(game)
        case .ended:
            // Over (left, refused, or a game came of it): a game hosted for a challenge goes on without it; from
            // Settings, Esc still comes back to the lobby, which says why it ended.
            if case .settings = screen { return [] }
            lobbyBehind = nil
            return []
        }
    }

    /// Starts the lobby's game on the network screen: no prompt of its own (the lobby was allowed; the game still
    /// goes through the gate and waits, saying why, if access was turned off since); a join counts down.
    private mutating func startLobbyGame(_ game: LobbyGame) -> [AppEffect] {
        let start = AppEffect.lobbyGame(name: settings.name, game)
        guard case .join = game, case .network(var joining) = screen else { return [start] }
        joining.startCountdown()
        screen = .network(joining)
        return [start, .schedule(.connectCountdown, after: 1)]
    }

    // MARK: Watching

    /// Watches `target` as `name`: asks the gate as joining does, then watches (`.watch`).
    private mutating func startWatching(_ target: String, as name: String, code: String?) -> [AppEffect] {
        screen = .watch(WatchGame(localName: name, target: target, code: code))
        return [.checkNetwork(.watch(name: name, address: target))]
    }

    // MARK: Menu

    /// The menu, in English: the screen shows each title translated (`tr`); the letters stay the same in every
    /// language.
    public static let menuItems: [(title: String, shortcut: Character)] = [
        ("Play against the computer", "p"),
        ("Host a game", "h"),
        ("Host a private game", "r"),
        ("Search for games", "s"),
        ("Join by address", "a"),
        ("Watch a game", "w"),
        ("Lobby: players on the LAN", "l"),
        ("Play against an engine", "e"),
        ("Past games", "g"),
        ("Settings", "t"),
        ("Quit", "q"),
    ]

    private mutating func handleMenu(_ key: Key, selected: Int) -> [AppEffect] {
        let count = Self.menuItems.count
        switch key {
        case .up, .character("k"), .backTab:
            screen = .menu(selected: (selected + count - 1) % count)
        case .down, .character("j"), .tab:
            screen = .menu(selected: (selected + 1) % count)
        case .enter, .character(" "):
            return choose(selected)
        case .escape:  // Esc goes back one screen; from the menu that is quitting, so it asks
            confirmation = Confirmation(.quit)
            return []
        case .click(let row, _):
            let index = row - MenuLayout.firstRow(size: size)
            if (0..<count).contains(index) { return choose(index) }
        case .character(let c):
            if let index = Self.menuItems.firstIndex(where: { $0.shortcut == Character(c.lowercased()) }) {
                return choose(index)
            }
        default:
            break
        }
        return []
    }

    /// The menu row of the entry with `shortcut`.
    static func menuIndex(_ shortcut: Character) -> Int {
        menuItems.firstIndex { $0.shortcut == shortcut } ?? 0
    }

    private mutating func choose(_ index: Int) -> [AppEffect] {
        switch Self.menuItems[index].shortcut {
        case "p":
            seed &+= 1
            var game = ComputerGame(settings: settings, seed: seed)
            let effects = game.begin()
            screen = .computer(game)
            return effects
        case "e": screen = .form(Form(kind: .engine, settings: settings))
        case "h": screen = .form(Form(kind: .host, settings: settings))
        case "r": screen = .form(Form(kind: .host, settings: settings, privateGame: true))
        case "s":
            screen = .search(SearchState())
            return [.checkNetwork(.search)]
        case "a": screen = .form(Form(kind: .join, settings: settings))
        case "w": screen = .form(Form(kind: .watch, settings: settings))
        case "l":
            screen = .lobby(LobbyState())
            return [.checkNetwork(.lobby)]
        case "g":
            screen = .pastGames(nil, selected: 0)
            return [.loadPastGames]
        case "t":
            screen = .settings(selected: 0)
            return [.loadPrivacyInfo]
        default: return quit(status: 0, reason: .quit)
        }
        return []
    }

    private mutating func submit(_ form: Form) -> [AppEffect] {
        settings.name = form.name
        switch form.kind {
        case .host:
            settings.port = form.port ?? settings.port
            settings.spectators = form.spectators
            let target = tr("port %@", String(settings.port))
            screen = .network(NetworkGame(role: .host, localName: form.name, target: target,
                                          security: form.privateGame ? .private : .open, port: settings.port,
                                          spectators: form.spectators))
            return saveIfChanged() + [.checkNetwork(.host(name: form.name, port: settings.port, isPrivate: form.privateGame))]
        case .engine:
            let command = form.second.trimmingWhitespace()
            settings.engineCommand = command
            seed &+= 1
            var game = ComputerGame(settings: settings, seed: seed, engine: command)
            let effects = game.begin()
            screen = .computer(game)
            return saveIfChanged() + [.startEngine(command: command)] + effects
        case .join:
            settings.addressHistory = AddressHistory.adding(form.address, to: settings.addressHistory)
            screen = .network(NetworkGame(role: .joiner, localName: form.name, target: form.address))
            return saveIfChanged() + [.checkNetwork(.join(name: form.name, address: form.address))]
        case .watch:
            settings.addressHistory = AddressHistory.adding(form.address, to: settings.addressHistory)
            return saveIfChanged() + startWatching(form.address, as: form.name, code: nil)
        }
    }

    // MARK: Local network privacy

    /// The gate answered for something the user asked for: go ahead (also when denied: it then waits and says why),
    /// ask first, or explain why it cannot happen at all.
    private mutating func gateAnswered(
        _ verdict: LocalNetworkVerdict, _ intent: NetworkIntent, _ promptText: (title: String, message: String)?
    ) -> [AppEffect] {
        guard isCurrent(intent) else { return [] }  // the user has moved on
        switch verdict {
        case .allowed, .exempt, .denied:
            return proceed(intent)
        case .needsPrompt:
            let text = promptText ?? (title: tr("“%@” would like to find and connect to devices on your local network.",
                                                 "TicTacToe"),
                                      message: "")
            prompt = PromptState(title: text.title, message: text.message, intent: intent)
            return []
        case .noAuth:
            fail(intent, tr("%@ (the service type is not declared in the app's Info.plist)",
                            tr(LocalNetworkVerdict.noAuthMessage)))
            return []
        case .manifestError(let text):
            fail(intent, tr("Cannot use the local network: %@", text))
            return []
        case .missingEntitlement(let key):
            fail(intent, tr("Cannot use the local network: the app is not entitled to %@", key))
            return []
        }
    }

    private func isCurrent(_ intent: NetworkIntent) -> Bool {
        switch (intent, screen) {
        case (.search, .search): return true
        case (.browseServiceTypes, .serviceTypes): return true
        case (.lobby, .lobby): return true
        case (.host, .network(let game)): return game.role == .host && !game.isOver
        case (.join, .network(let game)): return game.role == .joiner && !game.isOver
        case (.watch, .watch(let watch)): return !watch.isOver
        default: return false
        }
    }

    private mutating func proceed(_ intent: NetworkIntent) -> [AppEffect] {
        // What the intent does not say (the gate needs none of it) is on the network screen that asked.
        var game: NetworkGame?
        if case .network(let current) = screen { game = current }
        switch intent {
        case .search: return [.startBrowsing]
        case .browseServiceTypes: return [.startServiceTypes]
        case .lobby: return [.startLobby(name: settings.name)]
        case .host(let name, let port, _):
            return [.host(name: name, port: port, security: game?.security ?? .open, spectators: game?.spectators ?? 0)]
        case .watch(let name, let address):
            guard case .watch(let watch) = screen else { return [] }
            return [.watch(name: name, address: address, code: watch.code)]
        case .join(let name, let address):
            // The join says within `NetworkGame.connectSeconds` whether it got through: counted down on the screen.
            let join = AppEffect.join(name: name, address: address, code: game?.code)
            guard case .network(var joining) = screen else { return [join] }
            joining.startCountdown()
            screen = .network(joining)
            return [join, .schedule(.connectCountdown, after: 1)]
        }
    }

    private mutating func fail(_ intent: NetworkIntent, _ text: String) {
        switch screen {
        case .search(var search):
            search.apply(.failed(text))
            screen = .search(search)
        case .serviceTypes(var types):
            types.apply(.failed(text))
            screen = .serviceTypes(types)
        case .lobby(var lobby):
            lobby.fail(text)
            screen = .lobby(lobby)
        case .network(var game):
            _ = game.apply(.report(.error(text, .failure)))
            screen = .network(game)
        case .watch(var watch):
            watch.apply(.report(.error(text, .failure)))
            screen = .watch(watch)
        default:
            flash = text
        }
    }

    // MARK: Settings

    /// The rows of Settings, top to bottom.
    public enum SettingsRow: Int, CaseIterable, Sendable {
        case difficulty, starter, name, colors, keyHints, localNetwork, reset
        /// The privacy report's latest records (shown first below while this row is chosen).
        case report
    }

    static let settingsRows = SettingsRow.allCases.count

    /// `.saveSettings` when the settings differ from those last saved; nothing while the name is being typed (it
    /// is saved when the person leaves the field or the screen).
    private mutating func saveIfChanged() -> [AppEffect] {
        if case .settings(selected: SettingsRow.name.rawValue) = screen { return [] }
        guard settings != persisted else { return [] }
        persisted = settings
        return [.saveSettings(settings)]
    }

    private mutating func handleSettings(_ key: Key, selected: Int) -> [AppEffect] {
        let row = SettingsRow(rawValue: selected) ?? .difficulty
        if row == .name, key != .up, key != .down {
            // The name is edited in place, as a line (63 bytes, as --name): letters are text here.
            var editor = currentNameEditor
            if editor.handle(key) == .edited {
                settings.name = editor.text
                nameEditor = editor
                return []
            }
        }
        switch key {
        case .escape, .character("q"):
            if settings.name.trimmingWhitespace().isEmpty { settings.name = "player" }
            if let waiting = suspended {
                suspended = nil
                screen = .network(waiting)
                if waiting.role == .joiner, waiting.codeRefused {
                    return askForCode(toJoin: waiting.target, as: waiting.localName,
                                      because: waiting.code == nil ? .privateGame : .wrongCode)
                }
                // The countdown's timer found no network screen while Settings showed: it counts on from here.
                if waiting.phase == .connecting, waiting.connectSecondsLeft != nil {
                    return [.schedule(.connectCountdown, after: 1)]
                }
            } else if searchSuspended {
                searchSuspended = false
                screen = .search(SearchState())
                return [.checkNetwork(.search)]
            } else if let lobby = lobbyBehind {
                lobbyBehind = nil
                screen = .lobby(lobby)
            } else {
                screen = .menu(selected: Self.menuIndex("t"))
            }
        case .up, .character("k"), .backTab:
            return moveInSettings(to: (selected + Self.settingsRows - 1) % Self.settingsRows)
        case .down, .character("j"), .tab:
            return moveInSettings(to: (selected + 1) % Self.settingsRows)
        case .enter where row == .name:
            screen = .settings(selected: selected + 1)
        case .left, .right, .enter, .character(" "), .character("h"), .character("l"):
            let step = key == .left || key == .character("h") ? -1 : 1
            switch row {
            case .difficulty: settings.difficulty = cycle(settings.difficulty, step)
            case .starter: settings.starter = cycle(settings.starter, step)
            case .colors: settings.colors.toggle()
            case .keyHints: settings.keyHints.toggle()
            case .localNetwork:
                // The Local Network toggle: on iOS, Settings › Privacy › Local Network › TicTacToe.
                let allowed = privacy?.state == .allowed
                return [.setLocalNetwork(allowed: !allowed)]
            case .reset:
                if key == .enter || key == .character(" ") { return [.resetLocalNetwork] }
            case .report:
                return [.loadPrivacyInfo]  // the latest records again
            case .name: break
            }
        default:
            break
        }
        return []
    }

    /// Chooses another row of Settings; the privacy report's row reads the latest records.
    private mutating func moveInSettings(to row: Int) -> [AppEffect] {
        screen = .settings(selected: row)
        return row == SettingsRow.report.rawValue ? [.loadPrivacyInfo] : []
    }

    /// The Settings name field's editor, in step with the name.
    var currentNameEditor: LineEditor {
        if let nameEditor, nameEditor.text == settings.name { return nameEditor }
        return LineEditor(settings.name, limit: .playerName)
    }

    private func cycle<T: CaseIterable & Equatable>(_ value: T, _ step: Int) -> T {
        let all = Array(T.allCases)
        let index = all.firstIndex(of: value) ?? 0
        return all[(index + step + all.count) % all.count]
    }
}
