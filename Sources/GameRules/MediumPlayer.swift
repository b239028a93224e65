/// A player that usually plays well: on each move it plays a perfect move (as `PerfectPlayer`) with probability
/// `perfectChance` (0.7), and otherwise a uniformly random legal move (which may happen to be a good one too).
///
/// Every choice is drawn from the injected random number generator, so a seeded `SplitMix64` replays the same games.
/// The coin is an integer draw (7 in 10), so the choices never depend on floating point.
public struct MediumPlayer<RNG: RandomNumberGenerator>: Player {
    /// The chance that a move is a perfect one: `perfectOutOf` in `outOf`.
    public static var perfectChance: Double { Double(perfectOutOf) / Double(outOf) }
    static var perfectOutOf: Int { 7 }
    static var outOf: Int { 10 }

    private var rng: RNG

    /// Creates a medium player drawing its coin and its choices from `rng` (e.g. a seeded `SplitMix64`).
    public init(rng: RNG) {
        self.rng = rng
    }

    /// A perfect move (uniformly among the best) 7 times in 10; otherwise a uniformly chosen empty cell.
    ///
    /// - Throws: `MoveError.gameOver` if the game is over.
    public mutating func chooseMove(in game: Game) throws -> Int {
        guard !game.isOver else {
            throw MoveError.gameOver
        }
        // The coin, then the move: each player's own choice, from the same generator.
        if rng.uniformIndex(below: Self.outOf) < Self.perfectOutOf {
            return try PerfectPlayer.bestMove(in: game, using: &rng)
        }
        return try RandomPlayer.randomMove(in: game, using: &rng)
    }
}

extension MediumPlayer: Sendable where RNG: Sendable {}
