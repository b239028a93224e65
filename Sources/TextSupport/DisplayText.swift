/// Text that came from outside the program (a peer's name, reason or error text, a Bonjour service name or TXT value)
/// made safe and visible for a terminal or a log: the one function every such string goes through before it is shown.
///
/// The escaped form, reversible by `unescaped(_:)`:
///
/// | in the text | shown as |
/// |---|---|
/// | a backslash | `\\` |
/// | C0 controls U+0000–U+001F, DEL U+007F, C1 controls U+0080–U+009F | `\xHH` (two lowercase hex digits: ESC is `\x1b`) |
/// | bidirectional marks, embeddings, overrides and isolates: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069 | `\uHHHH` (four lowercase hex digits: `\u202e`) |
/// | everything else (letters of any script, emoji, joiners, combining marks) | unchanged |
///
/// So no escape sequence, no line break and no reordering reaches the screen, and the text stays unambiguous. Layout
/// (display width, truncation) is not this function's job: the terminal UI measures and cuts what it shows.
public enum DisplayText {
    /// `text` with every backslash, control character and bidirectional formatting character escaped (see above).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                result.append(contentsOf: #"\\"#.unicodeScalars)
            } else if isControl(scalar) {
                result.append(contentsOf: "\\x\(hex(scalar.value, digits: 2))".unicodeScalars)
            } else if isBidiFormatting(scalar) {
                result.append(contentsOf: "\\u\(hex(scalar.value, digits: 4))".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The text `escaped(_:)` was made from: `\\`, and `\xHH` / `\uHHHH` naming a character that `escaped(_:)` escapes,
    /// are turned back; any other backslash is kept as it is, so text typed by a person that was never escaped
    /// (`C:\games`, `\x41`) means itself.
    public static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "\\", index + 1 < scalars.count else {
                result.append(scalar)
                index += 1
                continue
            }
            if scalars[index + 1] == "\\" {
                result.append("\\")
                index += 2
            } else if let (decoded, length) = decodedEscape(scalars, at: index) {
                result.append(decoded)
                index += length
            } else {
                result.append(scalar)
                index += 1
            }
        }
        return String(result)
    }

    /// Whether `escaped(_:)` changes this scalar: a backslash, a control character or a bidi formatting character.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || isControl(scalar) || isBidiFormatting(scalar)
    }

    /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The characters that reorder text shown after them: the Arabic letter mark (U+061C), the left-to-right and
    /// right-to-left marks (U+200E, U+200F), embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
    public static func isBidiFormatting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The `\xHH` or `\uHHHH` escape starting at `index` (its backslash) and its length, when it names a character that
    /// `escaped(_:)` writes that way; nil for any other backslash.
    private static func decodedEscape(_ scalars: [Unicode.Scalar], at index: Int) -> (Unicode.Scalar, Int)? {
        let digits: Int
        let accepts: (Unicode.Scalar) -> Bool
        switch scalars[index + 1] {
        case "x": (digits, accepts) = (2, isControl)
        case "u": (digits, accepts) = (4, isBidiFormatting)
        default: return nil
        }
        guard let value = hexValue(scalars, from: index + 2, digits: digits), let decoded = Unicode.Scalar(value),
              accepts(decoded)
        else { return nil }
        return (decoded, 2 + digits)
    }

    /// `value` in lowercase hex, zero-padded to `digits` (`hex(0x1b, digits: 2)` is `1b`): the digits of an escape.
    public static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private static func hexValue(_ scalars: [Unicode.Scalar], from start: Int, digits: Int) -> UInt32? {
        guard start + digits <= scalars.count else { return nil }
        var value: UInt32 = 0
        for scalar in scalars[start..<(start + digits)] {
            guard scalar.isASCII, let digit = Character(scalar).hexDigitValue else { return nil }
            value = value * 16 + UInt32(digit)
        }
        return value
    }
}
