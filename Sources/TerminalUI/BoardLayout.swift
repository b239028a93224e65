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
        guard y % (Self.cellHeight + 1) != Self.cellHeight, x % (Self.cellWidth + 1) != Self.cellWidth else { return nil }
        return (y / (Self.cellHeight + 1)) * 3 + x / (Self.cellWidth + 1)
    }

    /// The screen position of the centre of a cell.
    public func centre(of cell: Int) -> (row: Int, column: Int) {
        (top + (cell / 3) * (Self.cellHeight + 1) + 1, left + (cell % 3) * (Self.cellWidth + 1) + Self.cellWidth / 2)
    }
}

/// Moving a cursor over the board: arrows, hjkl and WASD.
enum CursorMove {
    static func apply(_ key: Key, to cursor: Int) -> Int? {
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
    static func placement(_ key: Key, cursor: Int, layout: BoardLayout) -> Int? {
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
