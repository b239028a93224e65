import GameClient
import GameProtocol
import GameRules
import GameTransport

/// Who plays the local side of a match.
public enum LocalSide: Sendable {
    /// A computer, scripted or line-mode player, made afresh for each match with the match's seed.
    case player(PlayerSpec)
    /// The person at a UI: moves, resignations and rematch answers arrive as commands.
    case person(AsyncStream<LocalCommand>)
}

/// What every match needs, whoever hosts or joins it and whoever plays.
public struct MatchOptions: Sendable {
    /// Our name as sent in the hello and advertised: in NFC and at most 63 bytes (`PlayerName.fitted`, applied by the
    /// initializers).
    public var name: String
    public var side: LocalSide
    public var seed: UInt64
    /// Games in the match; nil to follow the peer (a joiner without --games, a person at a UI).
    public var games: Int?
    public var timeouts: ConnectionTimeouts
    /// Pause before each of our moves.
    public var moveDelay: Duration
    /// Hosting: how long the joiner may take for a move or for answering a rematch offer before it loses on time
    /// (`--move-timeout`). A joiner ignores it: the host keeps the time.
    public var moveTimeout: Duration
    /// Each side's clock for a whole game (`--game-time`, host or join): the peer loses on time when its clock runs
    /// out, and a local engine is told (and held to) what it has left. Nil: no game clock.
    public var gameTime: Duration?
    /// The one clock of everything that waits or times: `moveTimeout`, the connection's timeouts, the gate's waits, an
    /// engine's limits (the root's `ContinuousClock`; tests pass a clock they advance).
    public var clock: any Clock<Duration>
    /// Joining: each move's time for a local engine (`--player engine:…`); nil: none of its own (the host keeps the
    /// joiner's time). A series over the network (`match --over`) holds the engines on both sides to its limit.
    public var joinerEngineMoveTime: Duration?
    /// Where an engine's standard error goes (`--player engine:…`): default `$XDG_STATE_HOME/tictactoe/engines`.
    public var engineLogDirectory: String?

    /// The default move time limit: generous for people.
    public static let defaultMoveTimeout: Duration = .seconds(120)
    /// The largest move time limit `--move-timeout` accepts: a day.
    public static let maximumMoveTimeout: Duration = .seconds(86_400)

    public init(
        name: String, player: PlayerSpec, seed: UInt64, games: Int?, timeouts: ConnectionTimeouts = .default,
        moveDelay: Duration = .zero, moveTimeout: Duration = MatchOptions.defaultMoveTimeout,
        clock: any Clock<Duration>
    ) {
        self.name = PlayerName.fitted(name)
        self.side = .player(player)
        self.seed = seed
        self.games = games
        self.timeouts = timeouts
        self.moveDelay = moveDelay
        self.moveTimeout = moveTimeout
        self.clock = clock
    }

    /// A person at a UI plays through `commands`, as long as the peer offers games.
    public init(
        name: String, commands: AsyncStream<LocalCommand>, timeouts: ConnectionTimeouts = .default,
        moveTimeout: Duration = MatchOptions.defaultMoveTimeout, clock: any Clock<Duration>
    ) {
        self.name = PlayerName.fitted(name)
        self.side = .person(commands)
        self.seed = 0
        self.games = nil
        self.timeouts = timeouts
        self.moveDelay = .zero
        self.moveTimeout = moveTimeout
        self.clock = clock
    }

    package var policy: MatchRunner.RematchPolicy { games.map { .upTo($0) } ?? .followPeer }

    /// Fails on a bad script (or an engine command line that cannot be split) before anything listens or connects.
    package func checkPlayer() throws(PlayerSpecError) {
        _ = try controller(moveTime: nil)
    }

    /// The local side of one match. An engine has `moveTime` for each move (the host's `moveTimeout`; a joiner: nil,
    /// the engine's own limit).
    package func controller(moveTime: Duration?) throws(PlayerSpecError) -> MatchRunner.Controller {
        switch side {
        case .player(let spec):
            if case .engine(let command) = spec {
                if let problem = spec.usageProblem { throw PlayerSpecError.invalidEngineCommand(problem) }
                return .engine(EngineSeat(
                    command: command, logDirectory: engineLogDirectory ?? EngineSeat.defaultLogDirectory(),
                    clock: clock, moveTime: moveTime))
            }
            return .player(try spec.makePlayer(seed: seed))
        case .person(let commands): return .commands(commands)
        }
    }
}
