import GameProtocol
import Lobby

/// What the lobby tells the front end (`GameClient.lobby`): its events, and the games it asks the front end to play.
public enum LobbyUpdate: Sendable, Hashable {
    case event(LobbyEvent)
    /// Host a game (any free port) for our challenge to `name`, then report its port (`.hostListening`).
    case hostGame(for: String)
    /// Our challenge was declined or not answered: stop the game hosted for it.
    case stopHosting
    /// We accepted `name`'s challenge: join its game at `address`:`port` (the lobby has checked the address).
    case join(name: String, address: String, port: Int)
    /// The lobby is over with this exit status (the last `.event(.left)` says why).
    case ended(ExitStatus)
}

/// A game that comes of the lobby, played by the front end (`GameClient.lobbyGame`).
public enum LobbyGame: Sendable, Hashable {
    /// The game offered with the person's challenge: an open game on any free port, not advertised with Bonjour
    /// (the challenged player is invited to it).
    case host
    /// The challenger's game, whose challenge the person accepted (the lobby has checked the address).
    case join(address: String, port: Int)

    /// `ADDRESS:PORT` (an IPv6 address in brackets): what the screen shows, and Join by address would take.
    public var target: String? {
        guard case .join(let address, let port) = self else { return nil }
        return address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }
}

/// The lobby a front end runs (`GameClient.lobby`): what the person does goes in with `send`; `cancel` leaves.
public struct LobbyHandle: Sendable {
    public var send: @Sendable (LobbyCommand) -> Void
    public var cancel: @Sendable () -> Void

    public init(send: @escaping @Sendable (LobbyCommand) -> Void, cancel: @escaping @Sendable () -> Void) {
        self.send = send
        self.cancel = cancel
    }

    /// A handle for a lobby that already ended.
    public static let finished = LobbyHandle(send: { _ in }, cancel: {})
}
