/// Text that came from the network, made safe to print in a terminal.
public enum DisplayText {
    /// The longest player name we show, in characters.
    public static let maximumNameLength = 32

    /// Removes control characters (C0, DEL, C1, so no escape sequence reaches the terminal), bidi overrides and
    /// zero-width format characters; collapses whitespace runs; cuts to `maxLength` characters with "…".
    public static func sanitize(_ text: String, maxLength: Int = maximumNameLength) -> String {
        var result = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
            let isFormat = scalar.properties.generalCategory == .format
            if isControl || isFormat {
                if value == 0x09 || value == 0x0A || value == 0x0D, !lastWasSpace, !result.isEmpty {
                    result.unicodeScalars.append(" ")
                    lastWasSpace = true
                }
                continue
            }
            if scalar.properties.isWhitespace {
                if lastWasSpace || result.isEmpty { continue }
                result.unicodeScalars.append(" ")
                lastWasSpace = true
                continue
            }
            result.unicodeScalars.append(scalar)
            lastWasSpace = false
        }
        while result.last == " " { result.removeLast() }
        if result.count > maxLength {
            result = String(result.prefix(max(0, maxLength - 1))) + "…"
        }
        return result.isEmpty ? "?" : result
    }
}
