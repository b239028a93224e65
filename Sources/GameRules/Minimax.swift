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

    /// The value (for the side to move) of each non-terminal position, indexed by `index(code:mover:)`. Built once,
    /// on first use, through a pointer (a few milliseconds through the array's checked accessors, for every process
    /// whose computer plays).
    private static let table: [Int8] = {
        var table = [Int8](repeating: unknown, count: 19_683 * 2)
        table.withUnsafeMutableBufferPointer { table in
            var board = Board()
            for mover in Mark.allCases {
                _ = solve(&board, code: 0, mover: mover, table: table)
            }
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
        let values = moveValues(for: game)
        guard let best = values.map(\.value).max() else {
            return []
        }
        return values.filter { $0.value == best }.map(\.cell)
    }

    /// One of the best moves for the side to move, the `pick(count)`-th (ascending) of the `count` best; nil if the
    /// game is over. `bestMoves(for:)` without its array: the computer asks this for every move it makes.
    public static func bestMove(for game: Game, pick: (_ count: Int) -> Int) -> Int? {
        withUnsafeTemporaryAllocation(of: (cell: Int, value: Int).self, capacity: Board.cellCount) { moves in
            var count = 0
            var best = Int.min
            var bestCount = 0
            forEachMoveValue(in: game) { cell, value in
                moves[count] = (cell, value)
                count += 1
                if value > best {
                    best = value
                    bestCount = 1
                } else if value == best {
                    bestCount += 1
                }
            }
            guard bestCount > 0 else { return nil }
            var rank = pick(bestCount)
            for move in moves[..<count] where move.value == best {
                if rank == 0 { return move.cell }
                rank -= 1
            }
            return nil
        }
    }

    /// Calls `body` with the minimax value of every legal move for the side to move, by ascending cell; not at all
    /// if the game is over.
    private static func forEachMoveValue(in game: Game, _ body: (_ cell: Int, _ value: Int) -> Void) {
        guard !game.isOver else {
            return
        }
        var board = game.board
        let code = board.base3Code
        let table = Minimax.table
        let mover = game.turn
        for cell in 0..<Board.cellCount where board[cell] == nil {
            board[cell] = mover
            defer { board[cell] = nil }
            if let outcome = outcome(for: board) {
                body(cell, outcome)
                continue
            }
            let childCode = code + Int(mover.rawValue) * powerOfThree(cell)
            var reply = Int(table[index(code: childCode, mover: mover.opponent)])
            if reply == Int(unknown) {
                // A position outside the table, which a `Game` cannot reach: solved in a copy of it.
                var scratch = table
                reply = scratch.withUnsafeMutableBufferPointer {
                    solve(&board, code: childCode, mover: mover.opponent, table: $0)
                }
            }
            body(cell, value(ofReply: reply))
        }
    }

    private static func index(code: Int, mover: Mark) -> Int {
        code * 2 + (mover == .x ? 0 : 1)
    }

    /// The value for `mover` of the non-terminal position `board` (whose base-3 code is `code`).
    private static func solve(
        _ board: inout Board, code: Int, mover: Mark, table: UnsafeMutableBufferPointer<Int8>
    ) -> Int {
        let slot = index(code: code, mover: mover)
        if table[slot] != unknown {
            return Int(table[slot])
        }
        var best = Int.min
        for cell in 0..<Board.cellCount where board[cell] == nil {
            best = max(best, value(of: cell, on: &board, code: code, mover: mover, table: table))
        }
        table[slot] = Int8(best)
        return best
    }

    /// The value for `mover` of playing the empty `cell` in the non-terminal position `board`.
    private static func value(of cell: Int, on board: inout Board, code: Int, mover: Mark,
                              table: UnsafeMutableBufferPointer<Int8>) -> Int {
        board[cell] = mover
        defer { board[cell] = nil }
        if let outcome = outcome(for: board) {
            return outcome
        }
        let childCode = code + Int(mover.rawValue) * powerOfThree(cell)
        return value(ofReply: solve(&board, code: childCode, mover: mover.opponent, table: table))
    }

    /// The value for the side that just moved of a position that ends the game (a win, a draw); nil if it goes on.
    private static func outcome(for board: Board) -> Int? {
        if board.hasWinningLine {
            return winScore - 1
        }
        return board.isFull ? 0 : nil
    }

    /// The value of a move whose reply (the opponent's value of the position after it) is `reply`: one ply further
    /// away, the opponent's win is our loss, and every value moves one step towards 0.
    private static func value(ofReply reply: Int) -> Int {
        reply > 0 ? -(reply - 1) : reply < 0 ? -(reply + 1) : 0
    }

    /// 3^`exponent` (a cell's weight in a position's base-3 code).
    private static func powerOfThree(_ exponent: Int) -> Int {
        var power = 1
        for _ in 0..<exponent { power *= 3 }
        return power
    }
}
