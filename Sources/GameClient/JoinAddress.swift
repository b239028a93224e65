/// One address a joiner can use to reach this host, as the host's front ends show it: `198.18.0.12:7878`,
/// `[2001:db8::5]:7878`. The app core lists them in the order to try (`MatchReport.listening`'s `addresses`).
public struct JoinAddress: Sendable, Hashable, CustomStringConvertible {
    /// What kind of address it is, which says who can use it.
    public enum Kind: Sendable, Hashable {
        /// A global or private (LAN) address: any joiner that can route to it.
        case routable
        /// An IPv6 link-local address (fe80::/10): only joiners on the same link. It is shown without the host's
        /// interface (`%eth0`), which means nothing on the joiner's machine: `join` tries the joiner's own.
        case linkLocal
        /// A loopback address: only this machine can join.
        case loopback
    }

    /// The address without brackets, port or `%interface`.
    public var host: String
    public var port: Int
    public var kind: Kind

    public init(host: String, port: Int, kind: Kind) {
        self.host = host
        self.port = port
        self.kind = kind
    }

    /// `HOST:PORT`, an IPv6 address in brackets: what `tictactoe join` takes.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The note a front end shows next to a link-local address.
    public static let linkLocalNote = "link-local: this link only; join finds its own interface"
}

extension Array where Element == JoinAddress {
    /// Only this machine can join: every address is loopback (and there is one).
    public var onlyThisMachine: Bool { !isEmpty && allSatisfy { $0.kind == .loopback } }
}
