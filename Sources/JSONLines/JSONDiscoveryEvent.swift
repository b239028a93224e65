import GameClient
import TextSupport

/// A discovery report's fields in a `--json` line (README: "JSON output", discovery events). Names are written
/// exactly as registered (`JSONLine` escapes control and bidi characters as `\u`; the text reporter shows them
/// through `DisplayText.escaped`).
struct JSONDiscoveryEvent: Encodable {
    var report: DiscoveryReport

    init(_ report: DiscoveryReport) { self.report = report }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try encode(into: &object)
    }

    func encode(into object: inout KeyedEncodingContainer<JSONKey>) throws {
        switch report {
        case .advertised(let name, let security):
            try object.encode("advertised", forKey: "event")
            try object.encode(name, forKey: "name")
            try object.encode(security.isEncrypted, forKey: "secure")
            try object.encode(security == .private, forKey: "private")
        case .advertisingUnavailable(let message):
            try object.encode("advertising-unavailable", forKey: "event")
            try object.encode(message, forKey: "message")
        case .withdrawn:
            try object.encode("withdrawn", forKey: "event")
        case .game(let game):
            try object.encode("game", forKey: "event")
            try JSONGameListing(game).encode(into: &object)
        case .noGames:
            try object.encode("no-games", forKey: "event")
        case .games(let games):
            try object.encode("games", forKey: "event")
            try object.encode(games.map(JSONGameListing.init), forKey: "games")
        case .bonjourUnavailable(let message):
            try object.encode("bonjour-unavailable", forKey: "event")
            try object.encode(message, forKey: "message")
        case .bonjourAvailable:
            try object.encode("bonjour-available", forKey: "event")
        case .serviceTypeCount(let count):
            try object.encode("service-types", forKey: "event")
            try object.encode(count, forKey: "count")
        case .serviceType(let name, let domain):
            try object.encode("service-type", forKey: "event")
            try object.encode(name, forKey: "type")
            try object.encode(domain, forKey: "domain")
        case .resolved(let name, let addresses):
            try object.encode("resolved", forKey: "event")
            try object.encode(name, forKey: "name")
            try object.encode(addresses, forKey: "addresses")
        }
    }
}

/// A game as `browse --json` lists it: `name`, `compatible`, `private` (joining needs the host's code), `secure`
/// (encrypted: protocol 2; false for a protocol 1 game and for one that cannot be joined), `reason` for one that
/// cannot be joined now only (absent, not null, otherwise), `state` (`joinable`, `not-joinable`, `looking-up`,
/// `not-answering`), `host` (its mDNS name, once resolved: absent before), `addresses` (once resolved; may be empty)
/// `this_machine` (one of the addresses is this machine's), `playing` (a match is running: a joiner is told the host is
/// busy) and `watch` (how many more spectators it takes: `tictactoe watch`).
struct JSONGameListing: Encodable {
    var game: GameListing

    init(_ game: GameListing) { self.game = game }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try encode(into: &object)
    }

    func encode(into object: inout KeyedEncodingContainer<JSONKey>) throws {
        try object.encode(game.name, forKey: "name")
        try object.encode(game.compatible, forKey: "compatible")
        try object.encode(game.isPrivate, forKey: "private")
        try object.encode(game.isSecure, forKey: "secure")
        try object.encodeIfPresent(game.reason, forKey: "reason")
        try object.encode(Self.stateName(game.state), forKey: "state")
        try object.encodeIfPresent(game.host, forKey: "host")
        try object.encode(game.addresses, forKey: "addresses")
        try object.encode(game.isThisMachine, forKey: "this_machine")
        try object.encode(game.playing, forKey: "playing")
        try object.encode(game.spectatorRoom, forKey: "watch")
    }

    static func stateName(_ state: GameListing.State) -> String {
        switch state {
        case .joinable: return "joinable"
        case .notJoinable: return "not-joinable"
        case .lookingUp: return "looking-up"
        case .notAnswering: return "not-answering"
        }
    }
}
