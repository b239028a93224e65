/// Exact game-tree values for tic-tac-toe.
///
/// Values are from the point of view of the side to move and prefer quicker wins and slower losses: a move that
/// wins on the k-th ply from now (the move itself being ply 1) is worth `10 - k`, one that loses on the k-th ply
/// is worth `-(10 - k)`, and a draw is worth 0. So an immediate win is 9 and allowing an immediate loss is -8.
///
/// The values of every position reachable from an empty board (with either mark moving first) are computed once,
/// on first use, into an immutable table; afterwards every query is a handful of table look-ups.
public enum Minimax {
    /// The value of a win on the first ply from now is `winScore - 1`.
    static let winScore = 10

    /// Marks a table entry that has not been computed (never left in `table` for a reachable position).
    private static let unknown = Int8.min

    /// 3^0 ... 3^8.
    private static let powersOfThree = [1, 3, 9, 27, 81, 243, 729, 2187, 6561]

    /// The value (for the side to move) of each non-terminal position, indexed by `index(code:mover:)`.
    private static let table: [Int8] = {
        var table = [Int8](repeating: unknown, count: 19_683 * 2)
        var board = Board()
        for mover in Mark.allCases {
            _ = solve(&board, code: 0, mover: mover, table: &table)
        }
        return table
    }()

    /// The minimax value of every legal move for the side to move (positive = good for the mover), by ascending
    /// cell. Empty if the game is over.
    public static func moveValues(for game: Game) -> [(cell: Int, value: Int)] {
        var values: [(cell: Int, value: Int)] = []
        forEachMoveValue(in: game) { values.append(($0, $1)) }
        return values
    }

    /// The cells (ascending) whose minimax value is the best for the side to move. Empty if the game is over.
    public static func bestMoves(for game: Game) -> [Int] {
        // One pass and one array (this runs for every move the computer makes).
        var best = Int.min
        var cells: [Int] = []
        forEachMoveValue(in: game) { cell, value in
            if value > best {
                best = value
                cells.removeAll(keepingCapacity: true)
            }
            if value == best { cells.append(cell) }
        }
        return cells
    }

    /// Calls `body` with the minimax value of every legal move for the side to move, by ascending cell; not at all
    /// if the game is over.
    private static func forEachMoveValue(in game: Game, _ body: (_ cell: Int, _ value: Int) -> Void) {
        guard !game.isOver else {
            return
        }
        var board = game.board
        let code = board.base3Code
        // A copy that is only written to (and so only really copied) for a position outside the table,
        // which a `Game` cannot reach.
        var table = Minimax.table
        for cell in 0..<Board.cellCount where board[cell] == nil {
            body(cell, value(of: cell, on: &board, code: code, mover: game.turn, table: &table))
        }
    }

    private static func index(code: Int, mover: Mark) -> Int {
        code * 2 + (mover == .x ? 0 : 1)
    }

    /// The value for `mover` of the non-terminal position `board` (whose base-3 code is `code`).
    private static func solve(_ board: inout Board, code: Int, mover: Mark, table: inout [Int8]) -> Int {
        let slot = index(code: code, mover: mover)
        if table[slot] != unknown {
            return Int(table[slot])
        }
        var best = Int.min
        for cell in 0..<Board.cellCount where board[cell] == nil {
            best = max(best, value(of: cell, on: &board, code: code, mover: mover, table: &table))
        }
        table[slot] = Int8(best)
        return best
    }

    /// The value for `mover` of playing the empty `cell` in the non-terminal position `board`.
    private static func value(of cell: Int, on board: inout Board, code: Int, mover: Mark,
                              table: inout [Int8]) -> Int {
        board[cell] = mover
        defer { board[cell] = nil }
        if board.hasWinningLine {
            return winScore - 1
        }
        if board.isFull {
            return 0
        }
        let childCode = code + Int(mover.rawValue) * powersOfThree[cell]
        let reply = solve(&board, code: childCode, mover: mover.opponent, table: &table)
        // One ply further away: the opponent's win is our loss, and every value moves one step towards 0.
        return reply > 0 ? -(reply - 1) : reply < 0 ? -(reply + 1) : 0
    }
}
