import GameProtocol
import LocalNetworkPrivacy

/// Whether a discovered service is a game this program can join, and how it is protected (its TXT `proto` and `sec`:
/// `GameService.compatibility(of:)`).
public enum Compatibility: Sendable, Hashable {
    /// Joinable: `.open` or `.private` (protocol 2, encrypted), or `.plaintext` (protocol 1: only a joiner using
    /// `--plaintext` can join it).
    case compatible(GameSecurity)
    /// Listed but not joinable (another program of the same service type, another protocol version, or a security
    /// mode this version does not know).
    case incompatible(reason: String)

    public var isCompatible: Bool { security != nil }

    /// The game's security when it is compatible; nil otherwise.
    public var security: GameSecurity? {
        if case .compatible(let security) = self { return security }
        return nil
    }
}

/// One game on the local network, deduplicated by name across interfaces and IP versions. It is listed while
/// Bonjour lists it, whatever its resolve said (`lookup`).
public struct DiscoveredGame: Sendable, Hashable, CustomStringConvertible {
    /// What resolving a listed name (SRV, TXT, then the host's addresses) has told so far.
    public enum Lookup: Sendable, Hashable {
        /// Not resolved yet (or resolving again).
        case pending
        /// Resolved: what its TXT record says, the host's mDNS name (`host-a.local.`) and its addresses.
        case answered(Compatibility, host: String, addresses: [String])
        /// Listed by Bonjour, but its last resolve got no answer in time (retried when Bonjour announces it again).
        case notAnswering
    }

    /// The Bonjour instance name (what the host registered: the player's name, possibly renamed by Avahi).
    public var name: String
    public var lookup: Lookup
    /// What its TXT record said the host is doing (playing a match, room for spectators) when last resolved.
    public var activity: GameActivity

    public init(name: String, lookup: Lookup, activity: GameActivity = GameActivity()) {
        self.name = name
        self.lookup = lookup
        self.activity = activity
    }

    /// A game whose resolve answered.
    public init(
        name: String, compatibility: Compatibility, host: String = "", addresses: [String] = [],
        activity: GameActivity = GameActivity()
    ) {
        self.init(name: name, lookup: .answered(compatibility, host: host, addresses: addresses), activity: activity)
    }

    /// What its TXT record says; nil until it answered.
    public var compatibility: Compatibility? {
        if case .answered(let compatibility, _, _) = lookup { return compatibility }
        return nil
    }

    public var isJoinable: Bool { compatibility?.isCompatible ?? false }

    public var description: String {
        switch lookup {
        case .pending: return "\(name) (resolving)"
        case .notAnswering: return "\(name) (not answering)"
        case .answered(.compatible(.open), _, _): return name
        case .answered(.compatible(.private), _, _): return "\(name) (private)"
        case .answered(.compatible(.plaintext), _, _): return "\(name) (unencrypted, protocol 1)"
        case .answered(.incompatible(let reason), _, _): return "\(name) (incompatible: \(reason))"
        }
    }
}

/// What a browser reports. Lists are debounced; after `.unavailable` the list is empty until the daemon is back.
public enum BrowserEvent: Sendable, Hashable {
    /// The current list of games (sorted by name, our own instance hidden), each whatever its resolve said.
    case updated([DiscoveredGame])
    /// Browsing stopped working (no daemon); it is retried with backoff and resumes by itself.
    case unavailable(BonjourError)
    /// Browsing works (first start, or the daemon came back).
    case available
}

/// What an advertiser reports.
public enum AdvertiserEvent: Sendable, Hashable {
    /// Registered under `name`: the name actually used (Avahi renames on a collision, e.g. "alice #2").
    case registered(name: String)
    /// Advertising is not possible right now; it is retried with backoff and resumes by itself.
    case unavailable(BonjourError)
    /// Withdrawn (the game started, or the host stopped).
    case withdrawn
}

/// A resolved game: where to connect.
public struct ResolvedGame: Sendable, Hashable {
    public var name: String
    /// The host's mDNS name, e.g. `host-a.local.`.
    public var hostTarget: String
    public var port: Int
    public var txt: TXTRecord
    /// Addresses to try in order, each with the service's port.
    public var endpoints: [Endpoint]
    /// Addresses the record named that no game on the LAN can have (loopback, unspecified, multicast: see
    /// `ResolvedAddressPolicy`); not in `endpoints`.
    public var refusedAddresses: [RefusedAddress]

    public init(
        name: String, hostTarget: String, port: Int, txt: TXTRecord, endpoints: [Endpoint],
        refusedAddresses: [RefusedAddress] = []
    ) {
        self.name = name
        self.hostTarget = hostTarget
        self.port = port
        self.txt = txt
        self.endpoints = endpoints
        self.refusedAddresses = refusedAddresses
    }

    /// Whether this version can join it (from its TXT record).
    public var compatibility: Compatibility { GameService.compatibility(of: txt) }

    /// Whether a match is running there and how many spectators it takes now (from its TXT record).
    public var activity: GameActivity { GameService.activity(of: txt) }

    /// How the game is protected (`.open`, `.private`, or `.plaintext` for protocol 1); nil when it cannot be joined
    /// (`compatibility` says why).
    public var security: GameSecurity? { compatibility.security }
}
