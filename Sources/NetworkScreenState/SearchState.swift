import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets

/// Where a screen that lists what discovery finds (Search, All services) stands.
public enum DiscoveryStatus: Sendable, Hashable {
    case starting
    case available
    case unavailable(String)
    /// Nothing is looked for until local network access is allowed (as on iOS, the list stays empty): why, and how
    /// to change it.
    case waiting(String)
    /// Looking is impossible (NoAuth, a missing entitlement, no manifest).
    case failed(String)

    /// Failed, or Bonjour is unavailable: the screen offers `r` to try again.
    package var canRetry: Bool {
        switch self {
        case .failed, .unavailable: return true
        case .starting, .available, .waiting: return false
        }
    }
}

/// Search for games: the live list from the Bonjour browser, as the app core's `GameList` orders and states it.
public struct SearchState: Sendable, Hashable {
    public typealias Status = DiscoveryStatus

    package enum Outcome {
        case none, back, joinByAddress
        case join(String)
        /// A game the list marks private (its TXT record says `sec=private`): its code is asked for first.
        case joinPrivate(String)
        case notJoinable(String)
        /// Watch the game (`w`): its name, and whether the list marks it private (its code is asked for first).
        case watch(String, isPrivate: Bool)
    }

    public private(set) var status: Status = .starting
    public private(set) var games: [GameListing] = []
    public private(set) var selected = 0
    /// The game the person moved the cursor to (its name): the cursor stays on it as the list changes. Until they
    /// move it, the cursor is on the top row, whichever game that is.
    private var chosen: String?

    public init() {}

    /// Whether searching failed or Bonjour is unavailable: the screen offers `r` to search again.
    public var cannotSearch: Bool { status.canRetry }

    /// The game the cursor is on.
    public var selectedGame: GameListing? { games.indices.contains(selected) ? games[selected] : nil }

    package mutating func apply(_ update: DiscoveryUpdate) {
        switch update {
        case .available:
            status = .available
        case .unavailable(let text):
            status = .unavailable(text)
            games = []
        case .games(let list):
            let list = GameList.ordered(list)  // joinable first (the core's list already is)
            games = list
            // On the chosen game wherever it is now; on the same row when it left the list (none chosen: the top).
            selected = chosen.flatMap { name in list.firstIndex { $0.name == name } }
                ?? min(selected, max(0, list.count - 1))
            status = .available
        case .waiting(let reason):
            status = .waiting(reason)
            games = []
        case .failed(let text):
            status = .failed(text)
            games = []
        }
    }

    private mutating func choose(_ row: Int) {
        selected = row
        chosen = games[row].name
    }

    /// What a key does to the list itself.
    package mutating func react(to key: Key) -> Outcome {
        switch key {
        case .escape, .character("q"):
            return .back
        case .character("a"):
            return .joinByAddress
        case .character("w"):
            guard games.indices.contains(selected) else { return .none }
            let game = games[selected]
            if case .notJoinable(let why) = game.state {
                let name = DisplayWidth.truncate(DisplayText.escaped(game.name), to: 30)
                return .notJoinable(tr("%@ cannot be joined: %@", name, DisplayText.escaped(why)))
            }
            return .watch(DisplayText.escaped(game.name), isPrivate: game.isPrivate)
        case .up, .character("k"):
            if !games.isEmpty { choose((selected + games.count - 1) % games.count) }
        case .down, .character("j"), .tab:
            if !games.isEmpty { choose((selected + 1) % games.count) }
        case .enter, .character(" "):
            guard games.indices.contains(selected) else { return .none }
            let game = games[selected]
            switch game.state {
            case .notAnswering, .lookingUp:
                // Selecting it is the next attempt: joining looks the name up afresh (and says within a fixed time
                // if it still does not answer).
                return .join(DisplayText.escaped(game.name))
            case .joinable, .notJoinable:
                break
            }
            if !game.compatible {
                let reason = game.reason.map(DisplayText.escaped) ?? tr("incompatible")
                let name = DisplayWidth.truncate(DisplayText.escaped(game.name), to: 30)
                return .notJoinable(tr("%@ cannot be joined: %@", name, reason))
            }
            // As `tictactoe join` takes it: the name as shown (escaped), which joining turns back.
            let name = DisplayText.escaped(game.name)
            return game.isPrivate ? .joinPrivate(name) : .join(name)
        default:
            break
        }
        return .none
    }
}
