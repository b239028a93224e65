/// A player chooses a cell (0...8) for `game.turn`.
public protocol Player {
    /// Chooses the cell (0...8) that `game.turn` plays next in `game`.
    ///
    /// A player may return an illegal cell (the game engine reports it) and may throw when it has no move.
    mutating func chooseMove(in game: Game) throws -> Int
}
