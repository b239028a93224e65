import SystemPackage

/// File paths as the app builds and compares them, on swift-system's `FilePath` (FoundationEssentials has no
/// `NSString` path methods, and the app does not load all of Foundation: issue 15's resident memory and start time).
public enum PathText {
    /// `component` (one name, or a relative path such as `../share/tictactoe`) under `directory`.
    public static func join(_ directory: String, _ component: String) -> String {
        var path = FilePath(directory)
        path.push(FilePath(component))
        return path.string
    }

    /// The directory `path` is in: "/a/b" → "/a", "/a" → "/", "name" → "".
    public static func directory(of path: String) -> String {
        FilePath(path).removingLastComponent().string
    }

    /// `path` with "." and ".." components and repeated or trailing slashes resolved, without touching the file
    /// system (symbolic links stay as they are).
    public static func normalized(_ path: String) -> String {
        FilePath(path).lexicallyNormalized().string
    }
}

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
