/// A player that never loses.
///
/// It picks uniformly (via the injected random number generator) among the moves with the best minimax value
/// (`Minimax.bestMoves(for:)`), so it takes the quickest win and, when it cannot avoid losing, the slowest loss.
public struct PerfectPlayer<RNG: RandomNumberGenerator>: Player {
    private var rng: RNG

    /// Creates a perfect player that breaks ties with `rng` (e.g. a seeded `SplitMix64`).
    public init(rng: RNG) {
        self.rng = rng
    }

    /// One of the best moves for `game.turn`, chosen uniformly.
    ///
    /// - Throws: `MoveError.gameOver` if the game is over.
    public mutating func chooseMove(in game: Game) throws -> Int {
        try Self.bestMove(in: game, using: &rng)
    }

    /// One of the best moves, chosen uniformly with `rng` (one draw): `MediumPlayer`'s perfect move too.
    static func bestMove(in game: Game, using rng: inout RNG) throws -> Int {
        // The same choice as `Minimax.bestMoves(for:)[uniformIndex(below: count)]`, with no array per move.
        guard let cell = Minimax.bestMove(for: game, pick: { rng.uniformIndex(below: $0) }) else {
            throw MoveError.gameOver
        }
        return cell
    }
}

extension PerfectPlayer: Sendable where RNG: Sendable {}
