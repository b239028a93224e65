import GameProtocol

/// What discovery tells a front end: part of the one event stream (`MatchReport.discovery`).
public enum DiscoveryReport: Sendable, Hashable {
    /// The host is advertised under `name` (the name Avahi registered: it renames on a collision).
    /// `security`: how the advertised game is protected (its TXT record says the same).
    case advertised(name: String, security: GameSecurity = .open)
    /// The host could not be advertised (it still hosts: join by address works).
    case advertisingUnavailable(message: String)
    /// The advertisement was withdrawn (a game started, or the host stopped).
    case withdrawn
    /// `browse`: one game of the final list.
    case game(GameListing)
    /// `browse`: the final list was empty.
    case noGames
    /// `browse --watch`: the whole list after a change.
    case games([GameListing])
    /// `browse --watch`: Bonjour stopped working (retried by itself) or works again.
    case bonjourUnavailable(message: String)
    case bonjourAvailable
    /// `browse --all-types`: how many service types follow (the header of the list; 0: none found).
    case serviceTypeCount(Int)
    /// `browse --all-types`: one service type on the network, e.g. `_http._tcp` in `local.` (sorted).
    case serviceType(name: String, domain: String)
    /// `join NAME`: the name was resolved to these addresses.
    case resolved(name: String, addresses: [String])
}

