/// A player that picks uniformly among the empty cells, using the injected random number generator.
public struct RandomPlayer<RNG: RandomNumberGenerator>: Player {
    private var rng: RNG

    /// Creates a random player drawing from `rng` (e.g. a seeded `SplitMix64` for reproducible games).
    public init(rng: RNG) {
        self.rng = rng
    }

    /// A uniformly chosen empty cell.
    ///
    /// - Throws: `MoveError.gameOver` if the game is over.
    public mutating func chooseMove(in game: Game) throws -> Int {
        try Self.randomMove(in: game, using: &rng)
    }

    /// A uniformly chosen empty cell, drawn from `rng` (one draw): `MediumPlayer`'s other move too.
    static func randomMove(in game: Game, using rng: inout RNG) throws -> Int {
        let cells = game.board.emptyCells
        guard !game.isOver, !cells.isEmpty else {
            throw MoveError.gameOver
        }
        return cells[rng.uniformIndex(below: cells.count)]
    }
}

extension RandomPlayer: Sendable where RNG: Sendable {}
