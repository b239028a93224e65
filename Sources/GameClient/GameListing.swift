import GameProtocol

/// A game as `tictactoe browse` and the search screen list it: joinable with its security (open, private: needs the
/// host's code, or plaintext: protocol 1, only with `--plaintext`), or not joinable with the reason.
public struct GameListing: Sendable, Hashable {
    public var name: String
    /// How a joinable game is protected; nil when it cannot be joined (`reason` says why).
    public var security: GameSecurity?
    /// Why it cannot be joined (incompatible games only).
    public var reason: String?

    /// A game this version can join.
    public init(name: String, security: GameSecurity) {
        self.name = name
        self.security = security
        self.reason = nil
    }

    /// A game this version cannot join, and why.
    public init(name: String, notJoinableBecause reason: String) {
        self.name = name
        self.security = nil
        self.reason = reason
    }

    /// Whether this version can join it (with `--plaintext` for a protocol 1 game).
    public var compatible: Bool { security != nil }
    /// A private game: joining needs the host's code.
    public var isPrivate: Bool { security == .private }
    /// Encrypted (protocol 2); false for a plaintext game and for one that cannot be joined.
    public var isSecure: Bool { security?.isEncrypted ?? false }
}
