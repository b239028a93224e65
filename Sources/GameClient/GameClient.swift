import GameProtocol
import GameRules
import Lobby

/// Everything a front end can ask of the game beyond its own screen: host, join, search, and local network privacy.
///
/// The interface half of an interface/live split (as isowords' ApiClient): a struct of closures with no networking
/// types in it. `GameClient.live(…)` in AppCore is the real one, where every local-network operation goes
/// through the privacy gate; tests pass a fake, so every screen is testable without a network.
///
/// Events arrive on the closures from any thread; a front end hops to its own.
public struct GameClient {
    /// Hosts one match on `port` (0: any free one), advertised as `name`: waits for local network permission first
    /// (saying why with `.waiting`), then reports the match. `security` is `.open` or `.private`; a private game's
    /// code (and each code that replaces it) reaches the front end as `.privateCode`, never in a report.
    /// `spectators` is how many may watch at once (0: none); each coming or going is a `.spectator` report.
    public var host:
        (_ name: String, _ port: Int, _ security: GameSecurity, _ spectators: Int,
         _ events: @escaping @Sendable (NetworkEvent) -> Void)
        -> SessionHandle
    /// Joins `address`: HOST[:PORT] directly, anything else as a Bonjour name; waits for permission as hosting does.
    /// `code` is a private game's code as the player typed it (nil: an open game). A private game joined without its
    /// code, or with a wrong one, ends with `.error(_, .wrongCode)` and `.finished(.wrongCode)` (exit 13).
    public var join:
        (_ name: String, _ address: String, _ code: String?, _ events: @escaping @Sendable (NetworkEvent) -> Void)
        -> SessionHandle
    /// Watches the match at `address` (as `join` reads it), read-only, as `name`: each position comes as a `.watched`
    /// report, the end as `.watchEnded`. A private game needs its `code` as joining does (`.error(_, .wrongCode)`).
    /// `cancel` leaves (the host is told).
    public var watch:
        (_ name: String, _ address: String, _ code: String?, _ events: @escaping @Sendable (NetworkEvent) -> Void)
        -> SessionHandle
    /// Searches for games until cancelled (after waiting for local network permission, if it must).
    public var browse: (_ events: @escaping @Sendable (DiscoveryUpdate) -> Void) -> SessionHandle
    /// Lists the service types on the network until cancelled (after waiting for local network permission, if it
    /// must; the multicast entitlement first).
    public var serviceTypes: (_ events: @escaping @Sendable (ServiceTypesUpdate) -> Void) -> SessionHandle
    /// The LAN lobby as `name` (the multicast entitlement first, then permission, waited for as searching does):
    /// who is around, greetings, challenges. The person's commands go in through the handle; the games it asks for
    /// (`.hostGame`, `.join`) are the front end's to play; `cancel` leaves (the others are told).
    public var lobby: (_ name: String, _ events: @escaping @Sendable (LobbyUpdate) -> Void) -> LobbyHandle
    /// Plays a game that came of the lobby as `name`: hosts the one offered with the person's challenge, or joins the
    /// challenger's; reported as `host` and `join` report (the privacy log and report name the Lobby screen).
    public var lobbyGame:
        (_ name: String, _ game: LobbyGame, _ events: @escaping @Sendable (NetworkEvent) -> Void) -> SessionHandle
    /// Local network privacy: the gate's verdicts, the prompt's answer, Settings.
    public var privacy: PrivacyClient
    /// Starts an engine (`engine:COMMAND`, as `play --computer engine:COMMAND` runs it) for play against the computer:
    /// its moves are asked through the handle and come back as events, from its own task (the UI never waits).
    public var engine: (_ command: String, _ events: @escaping @Sendable (EngineEvent) -> Void) -> EngineHandle

    public init(
        host: @escaping (String, Int, GameSecurity, Int, @escaping @Sendable (NetworkEvent) -> Void) -> SessionHandle,
        join: @escaping (String, String, String?, @escaping @Sendable (NetworkEvent) -> Void) -> SessionHandle,
        watch: @escaping (String, String, String?, @escaping @Sendable (NetworkEvent) -> Void) -> SessionHandle = {
            _, _, _, events in
            events(.report(.error("watching is not possible here", .usage)))
            events(.finished(.usage))
            return .finished
        },
        browse: @escaping (@escaping @Sendable (DiscoveryUpdate) -> Void) -> SessionHandle,
        serviceTypes: @escaping (@escaping @Sendable (ServiceTypesUpdate) -> Void) -> SessionHandle = { events in
            events(.failed("listing service types is not possible here"))
            return .finished
        },
        lobby: @escaping (String, @escaping @Sendable (LobbyUpdate) -> Void) -> LobbyHandle = { _, events in
            events(.event(.left("the lobby is not possible here")))
            events(.ended(.usage))
            return .finished
        },
        lobbyGame: @escaping (String, LobbyGame, @escaping @Sendable (NetworkEvent) -> Void) -> SessionHandle = {
            _, _, events in
            events(.report(.error("the lobby's games are not possible here", .usage)))
            events(.finished(.usage))
            return .finished
        },
        privacy: PrivacyClient,
        engine: @escaping (String, @escaping @Sendable (EngineEvent) -> Void) -> EngineHandle = { _, events in
            events(.failed(game: 0, engine: "engine", reason: "cannot be started here", log: ""))
            return EngineHandle(move: { _, _ in }, stop: {})
        }
    ) {
        self.host = host
        self.join = join
        self.watch = watch
        self.browse = browse
        self.serviceTypes = serviceTypes
        self.lobby = lobby
        self.lobbyGame = lobbyGame
        self.privacy = privacy
        self.engine = engine
    }
}

/// What an engine playing the computer's side reports (from its own task).
public enum EngineEvent: Sendable, Hashable {
    /// A process started (its handshake done): its name and where its standard error goes.
    case started(name: String, log: String)
    /// Its move in game `game` (the number given with the request).
    case moved(game: Int, cell: Int)
    /// It failed during game `game` (its process has ended; the next request starts another): the reason in words
    /// (`did not answer genmove within 60.000 s`) and its log.
    case failed(game: Int, engine: String, reason: String, log: String)
}

/// Asks a running engine for moves.
public struct EngineHandle: Sendable {
    /// The engine's move in game number `game` at the position `position` (it plays the side to move).
    public var move: @Sendable (_ game: Int, _ position: Game) -> Void
    /// Ends the engine (`quit`; killed if it is thinking).
    public var stop: @Sendable () -> Void

    public init(move: @escaping @Sendable (Int, Game) -> Void, stop: @escaping @Sendable () -> Void) {
        self.move = move
        self.stop = stop
    }
}

/// Local network privacy as a front end sees it.
public struct PrivacyClient {
    /// The gate's verdict for what the user asked for, and the prompt's text when it must be asked (asking shows the
    /// prompt: the answer comes back through `answerPrompt`).
    public var verdict: (NetworkIntent) -> (LocalNetworkVerdict, prompt: PromptText?)
    /// The prompt's answer (remembered until reset).
    public var answerPrompt: (_ allow: Bool) -> Void
    /// Settings › Privacy › Local Network: on or off.
    public var setAllowed: (_ allowed: Bool) -> Void
    /// Forget the decision: the next operation asks again.
    public var reset: () -> Void
    /// What Settings shows.
    public var info: () -> PrivacyInfo
    /// Calls `changed` whenever the decision changes (here or in another process) until the handle is cancelled.
    public var watch: (_ changed: @escaping @Sendable () -> Void) -> SessionHandle

    public init(
        verdict: @escaping (NetworkIntent) -> (LocalNetworkVerdict, prompt: PromptText?),
        answerPrompt: @escaping (Bool) -> Void,
        setAllowed: @escaping (Bool) -> Void,
        reset: @escaping () -> Void,
        info: @escaping () -> PrivacyInfo,
        watch: @escaping (@escaping @Sendable () -> Void) -> SessionHandle
    ) {
        self.verdict = verdict
        self.answerPrompt = answerPrompt
        self.setAllowed = setAllowed
        self.reset = reset
        self.info = info
        self.watch = watch
    }
}

/// The usage-description prompt's text (from the app manifest).
public struct PromptText: Sendable, Hashable {
    public var title: String
    public var message: String

    public init(title: String, message: String) {
        self.title = title
        self.message = message
    }
}

/// A running host, join, search or watch: the local player's commands go in, `cancel` stops it.
public struct SessionHandle: Sendable {
    /// What the local player decides (a move, resign, rematch, leave). Ignored by a search.
    public var send: @Sendable (LocalCommand) -> Void
    /// Stops listening, connecting or searching. A match in progress is not cut: send `.leave` so the peer hears a
    /// bye.
    public var cancel: @Sendable () -> Void

    public init(send: @escaping @Sendable (LocalCommand) -> Void = { _ in }, cancel: @escaping @Sendable () -> Void) {
        self.send = send
        self.cancel = cancel
    }

    /// A handle for something that already ended.
    public static let finished = SessionHandle(cancel: {})
}
