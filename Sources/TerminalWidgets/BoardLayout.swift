import GameRules

/// Where the board sits on the screen, and which cell a screen position falls in.
///
/// Each cell is 7 columns by 3 rows with one-character separators: 23 x 11 in all.
public struct BoardLayout: Hashable, Sendable {
    public static let cellWidth = 7
    public static let cellHeight = 3
    public static let width = cellWidth * 3 + 2
    public static let height = cellHeight * 3 + 2

    public let top: Int
    public let left: Int

    public init(size: TerminalSize, top: Int) {
        self.top = top
        self.left = max(0, (size.columns - Self.width) / 2)
    }

    /// The cell (0...8) at a screen position, nil on a separator or outside.
    public func cell(atRow row: Int, column: Int) -> Int? {
        let y = row - top
        let x = column - left
        guard y >= 0, x >= 0, y < Self.height, x < Self.width else { return nil }
        guard y % (Self.cellHeight + 1) != Self.cellHeight, x % (Self.cellWidth + 1) != Self.cellWidth else {
            return nil
        }
        return (y / (Self.cellHeight + 1)) * 3 + x / (Self.cellWidth + 1)
    }

    /// The screen position of the centre of a cell.
    public func centre(of cell: Int) -> (row: Int, column: Int) {
        (top + (cell / 3) * (Self.cellHeight + 1) + 1, left + (cell % 3) * (Self.cellWidth + 1) + Self.cellWidth / 2)
    }
}

/// Moving a cursor over the board: arrows, hjkl and WASD.
public enum CursorMove {
    public static func apply(_ key: Key, to cursor: Int) -> Int? {
        var row = cursor / 3
        var column = cursor % 3
        switch key {
        case .up, .character("k"), .character("w"): row = (row + 2) % 3
        case .down, .character("j"), .character("s"): row = (row + 1) % 3
        case .left, .character("h"), .character("a"): column = (column + 2) % 3
        case .right, .character("l"), .character("d"): column = (column + 1) % 3
        default: return nil
        }
        return row * 3 + column
    }

    /// The cell a key or click places on: Enter/Space at the cursor, 1-9 directly, a click on a cell.
    public static func placement(_ key: Key, cursor: Int, layout: BoardLayout) -> Int? {
        switch key {
        case .enter, .character(" "): return cursor
        case .character(let c):
            guard let digit = c.wholeNumberValue, (1...9).contains(digit), c.isASCII else { return nil }
            return digit - 1
        case .click(let row, let column): return layout.cell(atRow: row, column: column)
        default: return nil
        }
    }
}

extension Canvas {
    /// Draws `board` at `layout`. `numbered`: empty cells show their numbers (the keys that place there); a read-only
    /// board leaves them blank.
    public mutating func drawBoard(_ board: Board, layout: BoardLayout, cursor: Int?, winning: [Int], unicode: Bool,
                            numbered: Bool = true) {
        let vertical = unicode ? "│" : "|"
        let horizontal = unicode ? "─" : "-"
        let cross = unicode ? "┼" : "+"
        let blank = String(repeating: " ", count: BoardLayout.cellWidth)
        for cell in 0..<9 {
            let row = layout.top + (cell / 3) * (BoardLayout.cellHeight + 1)
            let column = layout.left + (cell % 3) * (BoardLayout.cellWidth + 1)
            let style: Style = winning.contains(cell) ? .winning : (cell == cursor ? .cursor : .normal)
            for dy in 0..<BoardLayout.cellHeight {
                put(blank, row: row + dy, column: column, style: style)
            }
            let (centreRow, centreColumn) = layout.centre(of: cell)
            if let mark = board[cell] {
                let markStyle: Style = winning.contains(cell) ? .winning : (mark == .x ? .markX : .markO)
                put(mark.description, row: centreRow, column: centreColumn, style: markStyle)
            } else if numbered {
                put(String(cell + 1), row: centreRow, column: centreColumn, style: cell == cursor ? .cursor : .dim)
            }
        }
        for line in 1...2 {
            let row = layout.top + line * (BoardLayout.cellHeight + 1) - 1
            let segment = String(repeating: horizontal, count: BoardLayout.cellWidth)
            put([segment, segment, segment].joined(separator: cross), row: row, column: layout.left, style: .dim)
            let column = layout.left + line * (BoardLayout.cellWidth + 1) - 1
            for y in 0..<BoardLayout.height where (y + 1) % (BoardLayout.cellHeight + 1) != 0 {
                put(vertical, row: layout.top + y, column: column, style: .dim)
            }
        }
    }
}

/// The cells of a line that won the game, to highlight.
public func winningCells(_ result: GameResult?) -> [Int] {
    if case .line(let cells)? = result?.reason { return cells }
    return []
}
