/// A 3×3 tic-tac-toe board.
///
/// Cells are indexed 0...8 in reading order (0 = top-left, 2 = top-right, 8 = bottom-right).
/// Users see them as 1...9 in the same reading order (like a phone keypad, NOT the numeric keypad):
///
///     1 2 3
///     4 5 6
///     7 8 9
///
/// A board is only a grid of marks; it does not know whose turn it is (see `Game`).
public struct Board: Sendable, Hashable, CustomStringConvertible {
    /// The number of cells: 9.
    public static let cellCount = 9

    /// The 8 lines of three: the rows top to bottom, the columns left to right, then the diagonals
    /// (top-left to bottom-right, top-right to bottom-left).
    public static let lines: [[Int]] = [
        [0, 1, 2], [3, 4, 5], [6, 7, 8],
        [0, 3, 6], [1, 4, 7], [2, 5, 8],
        [0, 4, 8], [2, 4, 6],
    ]

    /// Two bits per cell (cell `i` at bits `2i...2i+1`): 0 empty, otherwise a `Mark` raw value.
    private var storage: UInt32 = 0

    /// Creates an empty board.
    public init() {}

    /// Parses a board from text, or returns `nil` if the text does not describe exactly 9 cells.
    ///
    /// `X`/`x` and `O`/`o` are marks and `.` is an empty cell; whitespace (including newlines) is ignored,
    /// so `"XO.\n.X.\n..O"` and `"XO..X...O"` are the same board. As an alternative form, exactly three
    /// lines of at most three characters each are read as rows in which a space (or a missing character
    /// at the end of a row) is an empty cell, e.g. `"XO \n X \n  O"`.
    public init?(_ text: String) {
        guard let cells = Board.parseIgnoringWhitespace(text) ?? Board.parseRows(text) else {
            return nil
        }
        self.init()
        for (cell, mark) in cells.enumerated() {
            self[cell] = mark
        }
    }

    /// The mark in `cell`, or `nil` if it is empty. `cell` must be in 0...8.
    public subscript(cell: Int) -> Mark? {
        get {
            precondition(cell >= 0 && cell < Board.cellCount, "cell \(cell) is not in 0...8")
            return Mark(rawValue: UInt8(truncatingIfNeeded: storage >> UInt32(2 * cell)) & 3)
        }
        set {
            precondition(cell >= 0 && cell < Board.cellCount, "cell \(cell) is not in 0...8")
            let shift = UInt32(2 * cell)
            storage = (storage & ~(3 << shift)) | (UInt32(newValue?.rawValue ?? 0) << shift)
        }
    }

    /// The empty cells, ascending.
    public var emptyCells: [Int] {
        (0..<Board.cellCount).filter { self[$0] == nil }
    }

    /// The low bit of every cell's two: a cell holds a mark when either of its bits is set.
    private static let lowBits: UInt32 = 0b01_0101_0101_0101_0101

    /// Whether every cell holds a mark.
    public var isFull: Bool {
        (storage | storage >> 1) & Board.lowBits == Board.lowBits
    }

    /// `Board.lines` as the storage bits of an X in each of the line's cells (an O's are one bit up): the winning
    /// line is looked for on every move of a game and of the computer's search, so with masks, not arrays.
    private static let lineBits: [UInt32] = lines.map { line in line.reduce(0) { $0 | 1 << UInt32(2 * $1) } }

    /// The first line of three (in the order of `Board.lines`) filled with one mark, if any.
    public var winningLine: WinningLine? {
        for (index, xBits) in Board.lineBits.enumerated() {
            let cells = storage & (xBits * 3)
            if cells == xBits { return WinningLine(mark: .x, cells: Board.lines[index]) }
            if cells == xBits << 1 { return WinningLine(mark: .o, cells: Board.lines[index]) }
        }
        return nil
    }

    /// Whether some line of three is filled with one mark (`winningLine != nil`, without making the line).
    public var hasWinningLine: Bool {
        for xBits in Board.lineBits {
            let cells = storage & (xBits * 3)
            if cells == xBits || cells == xBits << 1 { return true }
        }
        return false
    }

    /// The board as three text rows separated by rules; empty cells show their user number 1-9:
    ///
    ///     " X | 2 | O \n---+---+---\n 4 | X | 6 \n---+---+---\n 7 | 8 | 9 "
    ///
    /// With `unicode`, box-drawing characters (`│`, `─`, `┼`) replace `|`, `-` and `+`.
    /// There is no trailing newline.
    public func rendered(unicode: Bool = false) -> String {
        let bar = unicode ? "│" : "|"
        let rule = unicode ? "───┼───┼───" : "---+---+---"
        var rows: [String] = []
        for row in 0..<3 {
            var cells: [String] = []
            for column in 0..<3 {
                let cell = row * 3 + column
                cells.append(" " + (self[cell]?.description ?? String(cell + 1)) + " ")
            }
            rows.append(cells.joined(separator: bar))
        }
        return rows.joined(separator: "\n" + rule + "\n")
    }

    /// The same as `rendered()`.
    public var description: String {
        rendered()
    }

    /// The board as a base-3 number: cell `i` contributes `rawValue * 3^i` (0 empty, 1 X, 2 O); 0..<19683.
    var base3Code: Int {
        var code = 0
        for cell in stride(from: Board.cellCount - 1, through: 0, by: -1) {
            code = code * 3 + Int(self[cell]?.rawValue ?? 0)
        }
        return code
    }

    /// The number of cells holding `mark`.
    func count(of mark: Mark) -> Int {
        (0..<Board.cellCount).reduce(0) { $0 + (self[$1] == mark ? 1 : 0) }
    }

    private static func parseIgnoringWhitespace(_ text: String) -> [Mark?]? {
        var cells: [Mark?] = []
        for character in text where !character.isWhitespace {
            switch character {
            case "X", "x": cells.append(.x)
            case "O", "o": cells.append(.o)
            case ".": cells.append(nil)
            default: return nil
            }
            if cells.count > cellCount {
                return nil
            }
        }
        return cells.count == cellCount ? cells : nil
    }

    private static func parseRows(_ text: String) -> [Mark?]? {
        var rows = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if rows.count == 4, rows[3].isEmpty {
            rows.removeLast()  // a trailing newline
        }
        guard rows.count == 3 else {
            return nil
        }
        var cells: [Mark?] = []
        for row in rows {
            guard row.count <= 3 else {
                return nil
            }
            for character in row {
                switch character {
                case "X", "x": cells.append(.x)
                case "O", "o": cells.append(.o)
                case ".", " ": cells.append(nil)
                default: return nil
                }
            }
            cells.append(contentsOf: repeatElement(nil, count: 3 - row.count))
        }
        return cells
    }
}
