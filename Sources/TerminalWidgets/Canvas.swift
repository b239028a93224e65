import TextSupport

/// How a cell looks.
public enum Style: Hashable, Sendable {
    case normal, dim, bold, title, markX, markO, winning, selected, cursor, status, error, accent
}

/// One character cell of a frame. A wide character occupies its cell and blanks the next (`continuation`).
public struct CanvasCell: Hashable, Sendable {
    public var character: Character
    public var style: Style
    public var continuation: Bool

    public static let blank = CanvasCell(character: " ", style: .normal, continuation: false)
}

/// A frame: a grid of styled cells that screens draw into and a `Terminal` shows.
public struct Canvas: Hashable, Sendable {
    public let size: TerminalSize
    public private(set) var cells: [[CanvasCell]]

    public init(size: TerminalSize) {
        self.size = size
        self.cells = Array(repeating: Array(repeating: .blank, count: max(size.columns, 0)), count: max(size.rows, 0))
    }

    /// Writes `text` from (row, column), clipped at the right edge; returns the column after it. Text is laid out by
    /// display width (`DisplayWidth`): a wide character takes two cells and is left out rather than split at the edge,
    /// a character of no width (a control character) is not drawn, and a wide character partly overwritten is blanked
    /// so that no half of one is left on the screen.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: Style = .normal) -> Int {
        guard row >= 0, row < size.rows else { return column }
        var x = column
        for character in text {
            let width = DisplayWidth.of(character)
            if width == 0 { continue }
            if x < 0 { x += width; continue }
            if x + width > size.columns { break }
            for cell in x..<(x + width) { clearWideCharacter(row: row, at: cell) }
            cells[row][x] = CanvasCell(character: character, style: style, continuation: false)
            if width == 2 { cells[row][x + 1] = CanvasCell(character: " ", style: style, continuation: true) }
            x += width
        }
        return x
    }

    /// Blanks the wide character that has a cell at (row, x), when there is one, before the cell is written over.
    private mutating func clearWideCharacter(row: Int, at x: Int) {
        if cells[row][x].continuation, x > 0 {
            cells[row][x - 1] = CanvasCell(character: " ", style: cells[row][x - 1].style, continuation: false)
            cells[row][x].continuation = false
            cells[row][x].character = " "
        } else if x + 1 < size.columns, cells[row][x + 1].continuation {
            cells[row][x + 1] = CanvasCell(character: " ", style: cells[row][x + 1].style, continuation: false)
        }
    }

    /// Writes `text` centred on `row`, cut with "…" when it is wider than the row.
    public mutating func putCentered(_ text: String, row: Int, style: Style = .normal) {
        let text = DisplayWidth.truncate(text, to: size.columns)
        put(text, row: row, column: max(0, (size.columns - DisplayWidth.of(text)) / 2), style: style)
    }

    /// Changes the style of a run of cells.
    public mutating func restyle(row: Int, column: Int, width: Int, style: Style) {
        guard row >= 0, row < size.rows else { return }
        for x in max(0, column)..<min(size.columns, column + width) { cells[row][x].style = style }
    }

    /// The frame as plain text, one line per row, trailing spaces removed (what tests compare).
    public var text: String {
        cells.map { row in
            var line = ""
            for cell in row where !cell.continuation { line.append(cell.character) }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// Runs of equal style in one row, for drivers that draw run by run.
    public func runs(row: Int) -> [(column: Int, text: String, style: Style)] {
        var result: [(Int, String, Style)] = []
        var start = 0
        var text = ""
        var style: Style?
        for (x, cell) in cells[row].enumerated() {
            if cell.continuation { continue }
            if cell.style != style {
                if let style, !text.isEmpty { result.append((start, text, style)) }
                start = x
                text = ""
                style = cell.style
            }
            text.append(cell.character)
        }
        if let style, !text.isEmpty { result.append((start, text, style)) }
        return result
    }

    /// `runs(row:)` split after every character that a terminal measuring scalar by scalar (curses, with `wcwidth`)
    /// counts differently from the canvas (an emoji sequence: ❤️, 👍🏽, 👩‍💻): a driver that draws each segment at its
    /// column keeps what follows such a character in its place.
    public func segments(row: Int) -> [(column: Int, text: String, style: Style)] {
        var result: [(Int, String, Style)] = []
        for run in runs(row: row) {
            // ASCII only (most runs): every character is one scalar, measured alike by both, so the run is one
            // segment (no walk through its characters and their widths).
            if run.text.utf8.allSatisfy({ $0 < 0x80 }) {
                result.append(run)
                continue
            }
            var start = run.column
            var column = run.column
            var text = ""
            for character in run.text {
                text.append(character)
                let width = DisplayWidth.of(character)
                column += width
                if character.unicodeScalars.reduce(0, { $0 + DisplayWidth.of($1) }) != width {
                    result.append((start, text, run.style))
                    start = column
                    text = ""
                }
            }
            if !text.isEmpty { result.append((start, text, run.style)) }
        }
        return result
    }
}
