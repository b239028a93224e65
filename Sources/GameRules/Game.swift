/// The state machine of one game. X always moves first unless `firstMover` says otherwise.
///
/// A game starts empty and in progress. Each legal `play(_:by:)` places the mover's mark and passes the turn,
/// until a line of three wins or the board fills (a draw). Either side may `resign(_:)` at any time while the
/// game is in progress, and a side may be made to `forfeit(_:)` when its player leaves or misbehaves, or to
/// `timeOut(_:)` when it does not move in time.
public struct Game: Sendable, Hashable {
    /// The current board.
    public private(set) var board: Board
    /// The mark that made (or makes) the first move.
    public let firstMover: Mark
    /// The mark whose turn it is. Once the game is over it is meaningless (it stays the mark that moved last).
    public private(set) var turn: Mark
    /// The cells played so far (0...8), in play order.
    public private(set) var moves: [Int]
    /// How the game ended, or `nil` while it is in progress.
    public private(set) var result: GameResult?

    /// Creates a new game with an empty board; `firstMover` moves first.
    public init(firstMover: Mark = .x) {
        self.board = Board()
        self.firstMover = firstMover
        self.turn = firstMover
        self.moves = []
        self.result = nil
    }

    /// Whether the game has ended (`result` is set).
    public var isOver: Bool {
        result != nil
    }

    /// The reason `mark` may not play `cell` now, or `nil` if the move is legal.
    ///
    /// Checks, in this order: `.gameOver`, `.notYourTurn`, `.outOfRange`, `.occupied`.
    public func validate(_ cell: Int, by mark: Mark) -> MoveError? {
        if isOver {
            return .gameOver
        }
        if mark != turn {
            return .notYourTurn(expected: turn)
        }
        if cell < 0 || cell >= Board.cellCount {
            return .outOfRange(cell)
        }
        if board[cell] != nil {
            return .occupied(cell)
        }
        return nil
    }

    /// Plays `mark` in `cell` (0...8).
    ///
    /// - Throws: `MoveError` (see `validate(_:by:)`); the game is unchanged then.
    /// - Returns: The result if this move ended the game, otherwise `nil`.
    @discardableResult
    public mutating func play(_ cell: Int, by mark: Mark) throws -> GameResult? {
        if let error = validate(cell, by: mark) {
            throw error
        }
        board[cell] = mark
        moves.append(cell)
        if let line = board.winningLine {
            result = GameResult(winner: line.mark, reason: .line(line.cells))
        } else if board.isFull {
            result = GameResult(winner: nil, reason: .draw)
        } else {
            turn = mark.opponent
        }
        return result
    }

    /// Ends the game with `mark` resigning (it need not be `mark`'s turn); the winner is `mark.opponent`.
    ///
    /// - Throws: `MoveError.gameOver` if the game has already ended.
    public mutating func resign(_ mark: Mark) throws {
        guard !isOver else {
            throw MoveError.gameOver
        }
        result = GameResult(winner: mark.opponent, reason: .resignation(mark))
    }

    /// Ends the game because `mark`'s player left or misbehaved; the winner is `mark.opponent`.
    /// Does nothing if the game has already ended.
    public mutating func forfeit(_ mark: Mark) {
        guard !isOver else {
            return
        }
        result = GameResult(winner: mark.opponent, reason: .forfeit(mark))
    }

    /// Ends the game because `mark`'s player ran out of time (it need not be `mark`'s turn: a move that crossed the
    /// verdict does not count); the winner is `mark.opponent`. Does nothing if the game has already ended.
    public mutating func timeOut(_ mark: Mark) {
        guard !isOver else {
            return
        }
        result = GameResult(winner: mark.opponent, reason: .timeout(mark))
    }
}
