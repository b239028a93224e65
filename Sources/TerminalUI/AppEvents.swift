import GameClient
import GameProtocol
import GameRules
import Lobby
import TerminalWidgets

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
    case schedule(TimerID, after: Duration)
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
    case quit(status: ExitStatus)
}

/// The smallest window the game draws in.
public let minimumSize = TerminalSize(rows: 20, columns: 44)
