extension StringProtocol {
    /// Without the white space at both ends: spaces and tabs (as Foundation's `CharacterSet.whitespaces`: tab and
    /// the Unicode space separators), and line breaks too when `includingNewlines`.
    public func trimmingWhitespace(includingNewlines: Bool = false) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            if scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator { return true }
            guard includingNewlines else { return false }
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
            default: return false
            }
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
