import GameProtocol

/// A game as every front end lists it (`tictactoe browse`, `browse --watch`, `--json`, the Search screen): its name,
/// where it is (the host's mDNS name and an address, or this machine), and its state: joinable with its security
/// (open, private: needs the host's code, or plaintext: protocol 1, only with `--plaintext`), not joinable with the
/// reason, still being looked up, or not answering since its last failed attempt. `GameList` keeps them.
public struct GameListing: Sendable, Hashable {
    public enum State: Sendable, Hashable {
        /// Joinable, protected this way.
        case joinable(GameSecurity)
        /// Another program of the same service type, another protocol version, an unknown security mode: why.
        case notJoinable(reason: String)
        /// Listed by Bonjour, not resolved yet (or being tried again).
        case lookingUp
        /// Listed by Bonjour, but the last attempt to reach it got no answer: when that attempt failed, on the list's
        /// clock (`GameList`). Tried again on the next selection or when Bonjour announces it again.
        case notAnswering(since: Duration)
    }

    public var name: String
    public var state: State
    /// The host's mDNS name (e.g. `host-a.local`), once resolved.
    public var host: String?
    /// Its addresses, once resolved (IPv6 first, as the join tries them).
    public var addresses: [String]
    /// One of the addresses is one of this machine's own.
    public var isThisMachine: Bool
    /// The host is playing a match now (its TXT record says `state=playing`): joiners are told it is busy.
    public var playing = false
    /// How many more spectators it lets in now (`watch=N`; 0: none).
    public var spectatorRoom = 0

    public init(
        name: String, state: State, host: String? = nil, addresses: [String] = [], isThisMachine: Bool = false
    ) {
        self.name = name
        self.state = state
        self.host = host.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        self.addresses = addresses
        self.isThisMachine = isThisMachine
    }

    /// A game this version can join.
    public init(name: String, security: GameSecurity) {
        self.init(name: name, state: .joinable(security))
    }

    /// A game this version cannot join, and why.
    public init(name: String, notJoinableBecause reason: String) {
        self.init(name: name, state: .notJoinable(reason: reason))
    }

    /// How a joinable game is protected; nil when it cannot be joined now (`reason` says why).
    public var security: GameSecurity? {
        if case .joinable(let security) = state { return security }
        return nil
    }

    /// Why it cannot be joined now; nil for a joinable game.
    public var reason: String? {
        switch state {
        case .joinable: return nil
        case .notJoinable(let reason): return reason
        case .lookingUp: return "still looking it up"
        case .notAnswering: return "not answering"
        }
    }

    /// Whether this version can join it (with `--plaintext` for a protocol 1 game).
    public var compatible: Bool { security != nil }
    /// A private game: joining needs the host's code.
    public var isPrivate: Bool { security == .private }
    /// Encrypted (protocol 2); false for a plaintext game and for one that cannot be joined.
    public var isSecure: Bool { security?.isEncrypted ?? false }

    /// The address to show: IPv4 before IPv6, link-local last.
    public var shownAddress: String? {
        func rank(_ address: String) -> Int {
            let linkLocal = address.lowercased().hasPrefix("fe80:") || address.hasPrefix("169.254.")
            return (linkLocal ? 2 : 0) + (address.contains(":") ? 1 : 0)
        }
        return addresses.enumerated().min { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }?.element
    }

    /// Where it is: "this machine", or the host's name and address.
    public var place: String {
        if isThisMachine { return "this machine" }
        return [host, shownAddress].compactMap { $0 }.joined(separator: " ")
    }
}
