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
