import GameProtocol
import Localization
import TextSupport

/// The one list of games every front end shows (the Search screen, `browse`, `browse --watch`, `--json`). Pure: the
/// browse feeds it what Bonjour lists (`update`), the time comes from the caller's clock, as a `Duration` since the
/// list began.
///
/// A game is listed while Bonjour lists it. "Not answering" is a state with the time of the last failed attempt to
/// look it up; it is tried again when Bonjour announces it again and every so often while listed (the browse then
/// reports it looked up afresh, and a new failure gets a new time), and a selection in the TUI is an attempt of its
/// own (joining looks the name up afresh, within the connect timeout). Joinable games come first, then the rest,
/// each group by name.
public struct GameList: Sendable, Hashable {
    public private(set) var games: [GameListing] = []
    /// This machine's own addresses: a game at one of them is "this machine".
    public var localAddresses: Set<String>

    public init(localAddresses: Set<String> = []) {
        self.localAddresses = Set(localAddresses.map(Self.unscoped))
    }

    /// What Bonjour lists now, at `now` on the list's clock. A game newly not answering is so since `now`; one that
    /// was already keeps the time of its failed attempt.
    public mutating func update(_ browsed: [GameListing], at now: Duration) {
        var next: [GameListing] = []
        for var game in browsed {
            let previous = games.first { $0.name == game.name }
            switch game.state {
            case .notAnswering:
                if case .notAnswering(let since)? = previous?.state {
                    game.state = .notAnswering(since: since)
                } else {
                    game.state = .notAnswering(since: now)
                }
            case .lookingUp, .joinable, .notJoinable:
                break
            }
            if game.host == nil, let previous, !game.compatible {  // looked up again, or no answer: keep where it was
                game.host = previous.host
                game.addresses = previous.addresses
            }
            let local = game.addresses.contains { localAddresses.contains(Self.unscoped($0)) }
            game.isThisMachine = game.isThisMachine || local
            next.append(game)
        }
        games = Self.ordered(next)
    }

    /// A one-shot browse is over: a game still being looked up did not answer in time.
    public mutating func finish(at now: Duration) {
        for index in games.indices where games[index].state == .lookingUp {
            games[index].state = .notAnswering(since: now)
        }
        games = Self.ordered(games)
    }

    public var joinableCount: Int { games.filter(\.compatible).count }
    public var notJoinableCount: Int { games.count - joinableCount }

    /// "3 games, 1 not joinable", "1 game", "No games, 2 not joinable", "No games": only joinable games count as
    /// games.
    public var summary: String { Self.summary(of: games) }

    public static func summary(of games: [GameListing]) -> String {
        let joinable = games.filter(\.compatible).count
        let others = games.count - joinable
        let count = joinable == 0 ? tr("No games") : joinable == 1 ? tr("1 game") : tr("%@ games", String(joinable))
        return others == 0 ? count : tr("%@, %@ not joinable", count, String(others))
    }

    /// Joinable first, then looked up, not answering, not joinable; by name (case-insensitively) within each.
    public static func ordered(_ games: [GameListing]) -> [GameListing] {
        func rank(_ game: GameListing) -> Int {
            switch game.state {
            case .joinable: return 0
            case .lookingUp: return 1
            case .notAnswering: return 2
            case .notJoinable: return 3
            }
        }
        return games.sorted { ((rank($0), $0.name.lowercased(), $0.name) < (rank($1), $1.name.lowercased(), $1.name)) }
    }

    /// A game's state in words, as the lists show it after the name and place ("" for an open game).
    public static func stateText(_ game: GameListing) -> String {
        switch game.state {
        case .joinable(.open): return ""
        case .joinable(.private): return tr("[private]")
        case .joinable(.plaintext): return tr("[unencrypted]")
        case .lookingUp: return tr("(looking it up…)")
        case .notAnswering: return tr("(not answering)")
        case .notJoinable(let reason): return tr("(not joinable: %@)", DisplayText.escaped(reason))
        }
    }

    /// What the host is doing, as the lists show it after the state ("" when it waits for a joiner): playing, and
    /// how many can watch.
    public static func activityText(_ game: GameListing) -> String {
        guard game.playing else { return "" }
        return game.spectatorRoom > 0
            ? tr("playing · %@ can watch", String(game.spectatorRoom)) : tr("playing · no spectators")
    }

    /// The rows of `games`, each exactly `width` columns wide (display width: wide CJK characters count two): name,
    /// place and state in columns sized to what they hold; when they do not fit, the name gets up to two fifths of the
    /// width and the place up to seven twentieths, and each column is cut with "…".
    public static func rows(_ games: [GameListing], width: Int) -> [String] {
        let width = max(0, width)
        let names = games.map { DisplayText.escaped($0.name) }
        let places = games.map { DisplayText.escaped($0.place) }
        let states = games.map { game in
            [stateText(game), activityText(game)].filter { !$0.isEmpty }.joined(separator: " ")
        }
        let nameMax = names.map(DisplayWidth.of).max() ?? 0
        let placeMax = places.map(DisplayWidth.of).max() ?? 0
        let stateMax = states.map(DisplayWidth.of).max() ?? 0
        let placeGap = placeMax > 0 ? 2 : 0
        let stateGap = stateMax > 0 ? 2 : 0
        var nameWidth = min(nameMax, max(4, width * 2 / 5))
        var placeWidth = min(placeMax, max(4, width * 7 / 20))
        var spare = width - nameWidth - placeWidth - placeGap - stateGap - stateMax
        if spare > 0 {
            let toName = min(spare, nameMax - nameWidth)
            nameWidth += toName
            spare -= toName
            placeWidth += min(spare, placeMax - placeWidth)
        }
        return games.indices.map { index in
            var line = DisplayWidth.fit(names[index], to: nameWidth)
            if placeGap > 0 { line += "  " + DisplayWidth.fit(places[index], to: placeWidth) }
            if !states[index].isEmpty { line += "  " + states[index] }
            return DisplayWidth.fit(line, to: width)
        }
    }

    /// One game's row (`rows`).
    public static func row(_ game: GameListing, width: Int) -> String {
        rows([game], width: width)[0]
    }

    private static func unscoped(_ address: String) -> String {
        String(address.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").lowercased()
    }
}
