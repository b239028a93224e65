/// Wraps text into lines of a number of terminal columns (display width: `DisplayWidth`), the one way every wrapped
/// text of the terminal UI is laid out.
///
/// - Text with spaces (English, Korean, …) breaks at spaces; the spaces at a break are dropped.
/// - Japanese and Chinese break between any two CJK characters (ideographs, kana, CJK punctuation, fullwidth forms),
///   and between a CJK character and a neighbouring word in another script, after the line-breaking rules in broad
///   strokes (kinsoku): no line starts with closing punctuation, small kana, the prolonged sound mark or an
///   iteration mark, and no line ends with an opening bracket or quote.
/// - A word longer than the line is broken between two characters (grapheme clusters), never inside one; a wide
///   character never straddles the edge.
/// - A line break ("\n") starts a new line.
///
/// No line is wider than `width` (a character wider than the whole width, possible only when `width` is 1, shows
/// as "…").
public enum LineWrap {
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0, !text.isEmpty else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { paragraph -> [String] in
                let wrapped = wrapParagraph(Array(paragraph), width: width)
                return wrapped.isEmpty ? [""] : wrapped
            }
    }

    private static func wrapParagraph(_ characters: [Character], width: Int) -> [String] {
        let count = characters.count
        var lines: [String] = []
        var start = skipSpaces(characters, from: 0)
        while start < count {
            var used = 0
            var index = start
            var lastBreak: Int?
            while index < count {
                let character = characters[index]
                if index > start, breakAllowed(between: characters[index - 1], and: character) { lastBreak = index }
                let columns = DisplayWidth.of(character)
                if character != " ", used + columns > width { break }
                used += columns
                index += 1
            }
            if index == count {
                lines.append(trimmedLine(characters[start..<count]))
                break
            }
            let end: Int
            if let lastBreak, lastBreak > start {
                end = lastBreak
            } else if index > start {
                // A word longer than the line: cut between two characters, where the rules allow when they can.
                end = ((start + 1)...index).last {
                    !cannotStartLine(characters[$0]) && !cannotEndLine(characters[$0 - 1])
                } ?? index
            } else {
                end = index + 1  // one character wider than the line
            }
            lines.append(DisplayWidth.truncate(trimmedLine(characters[start..<end]), to: width))
            start = skipSpaces(characters, from: end)
        }
        return lines
    }

    private static func skipSpaces(_ characters: [Character], from index: Int) -> Int {
        var index = index
        while index < characters.count, characters[index] == " " { index += 1 }
        return index
    }

    private static func trimmedLine(_ characters: ArraySlice<Character>) -> String {
        var line = String(characters)
        while line.last == " " { line.removeLast() }
        return line
    }

    /// Whether a line may end after `before` and start with `after`.
    static func breakAllowed(between before: Character, and after: Character) -> Bool {
        if after == " " { return false }  // a break at spaces is taken after them
        if before == " " { return true }
        guard isCJK(before) || isCJK(after) else { return false }
        return !cannotStartLine(after) && !cannotEndLine(before)
    }

    /// Ideographs, kana, bopomofo, CJK symbols and punctuation, fullwidth and halfwidth forms (Hangul is not: Korean
    /// breaks at spaces).
    static func isCJK(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x2E80...0x2FFF,  // radicals, ideographic description
             0x3000...0x312F,  // CJK symbols and punctuation, kana, bopomofo
             0x3190...0x31FF,  // kanbun, bopomofo extended, strokes, katakana extension
             0x3200...0x4DBF,  // enclosed CJK, compatibility, extension A
             0x4E00...0x9FFF,  // ideographs
             0xF900...0xFAFF,  // compatibility ideographs
             0xFE30...0xFE4F,  // compatibility forms
             0xFF00...0xFF9F,  // fullwidth forms, halfwidth katakana
             0xFFE0...0xFFEF,  // fullwidth signs
             0x1AFF0...0x1B16F,  // kana supplement
             0x20000...0x3FFFD:  // ideograph extensions
            return true
        default:
            return false
        }
    }

    /// Closing punctuation, small kana, the prolonged sound mark and iteration marks: never the first on a line.
    static func cannotStartLine(_ character: Character) -> Bool {
        noStart.contains(character)
    }

    /// Opening brackets and quotes: never the last on a line.
    static func cannotEndLine(_ character: Character) -> Bool {
        noEnd.contains(character)
    }

    private static let noStart: Set<Character> = Set(
        "、。，．！？：；」』）】〉》〕〗〙〛｝］”’〞〟・ー…‥〜～々〻ゝゞヽヾ゛゜"
            + "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
            + "｡｣､･ｧｨｩｪｫｬｭｮｯｰ"
            + ".,!?:;)]}%"
    )

    private static let noEnd: Set<Character> = Set("「『（【〈《〔〖〘〚｛［“‘〝｢([{")
}

/// Splits `text` into lines of at most `width` display columns (`LineWrap`: at spaces, and between CJK characters).
public func wrap(_ text: String, width: Int) -> [String] { LineWrap.lines(text, width: width) }
