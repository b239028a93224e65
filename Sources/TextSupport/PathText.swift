/// File paths as the app builds and compares them: POSIX paths as text, with swift-system's `FilePath` rules
/// (repeated slashes are one, a trailing slash is dropped, ".." above the root is the root; `PathTextTests` holds the
/// cases `FilePath` passed). Not `FilePath` itself: the runtime looks its generic collection types up by scanning
/// every protocol conformance in the binary, which the full-screen game would pay for before its first frame. Nor
/// Foundation's `NSString` path methods (FoundationEssentials has none).
public enum PathText {
    /// `component` (one name, or a relative path such as `../share/tictactoe`) under `directory`; an absolute
    /// `component` is itself.
    public static func join(_ directory: String, _ component: String) -> String {
        if component.hasPrefix("/") || directory.isEmpty { return tidied(component) }
        if component.isEmpty { return tidied(directory) }
        return tidied(directory + "/" + component)
    }

    /// The directory `path` is in: "/a/b" → "/a", "/a" → "/", "name" → "".
    public static func directory(of path: String) -> String {
        let (absolute, parts) = components(path)
        return text(absolute: absolute, parts.dropLast())
    }

    /// `path` with "." and ".." components and repeated or trailing slashes resolved, without touching the file
    /// system (symbolic links stay as they are).
    public static func normalized(_ path: String) -> String {
        let (absolute, parts) = components(path)
        var kept: [Substring] = []
        for part in parts {
            switch part {
            case ".":
                continue
            case "..":
                if let last = kept.last, last != ".." {
                    kept.removeLast()
                } else if !absolute {
                    kept.append(part)  // above a relative path's start: kept; above the root: the root
                }
            default:
                kept.append(part)
            }
        }
        return text(absolute: absolute, kept[...])
    }

    /// `path` with repeated slashes as one and no trailing slash.
    private static func tidied(_ path: String) -> String {
        let (absolute, parts) = components(path)
        return text(absolute: absolute, parts[...])
    }

    /// Whether `path` starts at the root, and its names between slashes (none empty). On the bytes, as `FilePath`:
    /// a slash followed by a combining mark is one `Character`, which `split(separator: "/")` would not split at.
    private static func components(_ path: String) -> (absolute: Bool, parts: [Substring]) {
        let slash = UInt8(ascii: "/")
        let parts = path.utf8.split(separator: slash, omittingEmptySubsequences: true).map { Substring($0) }
        return (path.utf8.first == slash, parts)
    }

    private static func text(absolute: Bool, _ parts: ArraySlice<Substring>) -> String {
        var text = absolute ? "/" : ""
        for (index, part) in parts.enumerated() {
            if index > 0 { text += "/" }
            text += String(part)  // String to String: `+= part` took the generic append(contentsOf:), whose first
                                  // call looked up Substring's conformances at run time
        }
        return text
    }
}
