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

    /// Writes `text` from (row, column), clipped at the right edge; returns the column after it.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: Style = .normal) -> Int {
        guard row >= 0, row < size.rows else { return column }
        var x = column
        for character in text {
            let width = DisplayWidth.of(character)
            if width == 0 { continue }
            if x < 0 { x += width; continue }
            if x + width > size.columns { break }
            cells[row][x] = CanvasCell(character: character, style: style, continuation: false)
            if width == 2 { cells[row][x + 1] = CanvasCell(character: " ", style: style, continuation: true) }
            x += width
        }
        return x
    }

    /// Writes `text` centred on `row`.
    public mutating func putCentered(_ text: String, row: Int, style: Style = .normal) {
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
}

/// How many columns a character takes in a terminal (0, 1 or 2), after wcwidth's rules in broad strokes.
public enum DisplayWidth {
    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let properties = first.properties
        if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark
            || properties.generalCategory == .format || first.value < 0x20 || (0x7F..<0xA0).contains(first.value)
        {
            return 0
        }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }  // emoji presentation
        if properties.isEmojiPresentation { return 2 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    public static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    /// The longest prefix of `text` that fits `columns`, with "…" when it had to be cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// `text` cut to `columns` (with "…") and padded with spaces to exactly `columns` columns: a row of a list whose
    /// selection highlight has the same width whatever the characters (wide CJK ones count two).
    public static func fit(_ text: String, to columns: Int) -> String {
        let cut = truncate(text, to: columns)
        return cut + String(repeating: " ", count: max(0, columns - of(cut)))
    }
}
