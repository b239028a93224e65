/// Three cells in a row, column or diagonal that hold the same mark.
public struct WinningLine: Sendable, Hashable {
    /// The mark that fills the line.
    public let mark: Mark
    /// The line's cells (0...8, in the order of `Board.lines`).
    public let cells: [Int]

    /// Creates a winning line; no check is made that `cells` is one of `Board.lines`.
    public init(mark: Mark, cells: [Int]) {
        self.mark = mark
        self.cells = cells
    }
}
