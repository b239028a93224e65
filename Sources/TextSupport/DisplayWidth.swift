/// How many terminal columns text takes, after glibc's `wcwidth` (Unicode's East Asian Width, as terminals use it):
/// CJK ideographs, kana, Hangul syllables and leading jamo, fullwidth forms and emoji take two columns; combining
/// marks, zero-width and format characters, variation selectors, Hangul vowel and final jamo take none; a character
/// (a grapheme cluster) takes its scalars' columns added up, except an emoji sequence (with VS16, a skin tone, a ZWJ, a
/// keycap or tags) and a flag, which take two. Control characters take none and are never drawn (`Canvas` skips them;
/// text from outside is escaped by `DisplayText` before it is shown).
///
/// Where this differs from glibc 2.36's `wcwidth` on purpose (the test lists them): control characters are 0 here
/// (-1 there), and characters newer than glibc's Unicode data are measured by this table and Swift's emoji data.
public enum DisplayWidth {
    /// The columns one Unicode scalar takes: 0, 1 or 2 (0 for a control character).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 { return 0 }
        if value < 0x300 { return 1 }  // Latin-1, the soft hyphen included (1, as glibc)
        if isZeroWidth(scalar) { return 0 }
        if isWide(scalar) { return 2 }
        return 1
    }

    /// The columns a character (a grapheme cluster) takes.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if DisplayText.isControl(first) { return 0 }  // never drawn ("\r\n" is one character)
        if isRegionalIndicator(first) { return scalars.count > 1 ? 2 : 1 }  // a flag is a pair
        // A lone scalar first: it needs no lookup in Unicode's emoji data (most characters are one scalar).
        if scalars.index(after: scalars.startIndex) != scalars.endIndex, first.properties.isEmoji,
           scalars.dropFirst().contains(where: isEmojiJoiner) {
            return 2  // ❤️, 👍🏽, 👩‍💻, 1️⃣, 🏴 with tags: one emoji, two columns
        }
        var total = 0
        for scalar in scalars { total += of(scalar) }
        return total
    }

    public static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    /// The longest prefix of `text` that fits `columns`, with "…" when it had to be cut: cut between characters
    /// (grapheme clusters), never inside one, and a wide character that would straddle the edge is left out.
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

    /// `text` padded with spaces to `columns` columns (not cut: see `fit`).
    public static func padded(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - of(text)))
    }

    /// Combining and enclosing marks, format characters (but the prepended concatenation marks, which show), the
    /// zero-width space, variation selectors, and Hangul vowel and final jamo (they join the leading jamo's two
    /// columns).
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1160...0x11FF, 0xD7B0...0xD7FF, 0x200B: return true
        case 0x600...0x605, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0x110BD, 0x110CD: return false
        default: break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// East Asian Wide and Fullwidth (including unassigned code points of the CJK blocks, wide by default), and
    /// emoji shown as emoji by default.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F,  // Hangul leading jamo
             0x2329...0x232A,  // angle brackets
             0x2E80...0x303E,  // CJK radicals, ideographic description, CJK symbols and punctuation
             0x3041...0xA4CF,  // kana, bopomofo, Hangul compatibility jamo, enclosed CJK, ideographs, Yijing, Yi
             0xA960...0xA97F,  // Hangul jamo extended-A
             0xAC00...0xD7A3,  // Hangul syllables
             0xF900...0xFAFF,  // CJK compatibility ideographs
             0xFE10...0xFE19,  // vertical forms
             0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
             0xFF00...0xFF60,  // fullwidth forms
             0xFFE0...0xFFE6,  // fullwidth signs
             0x16FE0...0x16FFF,  // ideographic symbols
             0x17000...0x18D7F,  // Tangut, Khitan
             0x1AFF0...0x1B2FF,  // kana supplement and extensions, Nüshu
             0x1F200...0x1F2FF,  // enclosed ideographic supplement
             0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK extensions
            return true
        case 0x1F1E6...0x1F1FF:
            return false  // a regional indicator alone (a pair is a flag: `of(Character)`)
        default:
            return scalar.properties.isEmojiPresentation
        }
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool { (0x1F1E6...0x1F1FF).contains(scalar.value) }

    /// What makes a pictograph an emoji sequence: VS16, a ZWJ, a skin tone, a keycap, a tag.
    private static func isEmojiJoiner(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE0F, 0x200D, 0x1F3FB...0x1F3FF, 0x20E3, 0xE0020...0xE007F: return true
        default: return false
        }
    }
}
