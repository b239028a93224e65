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
    public var name: String
    public var side: LocalSide
    public var seed: UInt64
    /// Games in the match; nil to follow the peer (a joiner without --games, a person at a UI).
    public var games: Int?
    public var timeouts: ConnectionTimeouts
    /// Pause before each of our moves.
    public var moveDelay: Duration

    public init(
        name: String, player: PlayerSpec, seed: UInt64, games: Int?, timeouts: ConnectionTimeouts = .default,
        moveDelay: Duration = .zero
    ) {
        self.name = name
        self.side = .player(player)
        self.seed = seed
        self.games = games
        self.timeouts = timeouts
        self.moveDelay = moveDelay
    }

    /// A person at a UI plays through `commands`, as long as the peer offers games.
    public init(name: String, commands: AsyncStream<LocalCommand>, timeouts: ConnectionTimeouts = .default) {
        self.name = name
        self.side = .person(commands)
        self.seed = 0
        self.games = nil
        self.timeouts = timeouts
        self.moveDelay = .zero
    }

    var policy: MatchRunner.RematchPolicy { games.map { .upTo($0) } ?? .followPeer }

    /// Fails on a bad script before anything listens or connects.
    func checkPlayer() throws {
        if case .player(let spec) = side { _ = try spec.makePlayer(seed: seed) }
    }

    /// The local side of one match.
    func controller() throws -> MatchRunner.Controller {
        switch side {
        case .player(let spec): return .player(try spec.makePlayer(seed: seed))
        case .person(let commands): return .commands(commands)
        }
    }
}
