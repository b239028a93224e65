import GameRules

/// Plays a whole game between two players (X's moves from `x`, O's from `o`) and returns it.
func playOut<X: Player, O: Player>(_ x: inout X, _ o: inout O, firstMover: Mark = .x) throws -> Game {
    var game = Game(firstMover: firstMover)
    while !game.isOver {
        let cell = game.turn == .x ? try x.chooseMove(in: game) : try o.chooseMove(in: game)
        try game.play(cell, by: game.turn)
    }
    return game
}
