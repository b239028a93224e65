import TextSupport

/// The addresses joined, newest first: at most `AddressHistory.limit`, each once.
public enum AddressHistory {
    public static let limit = 10

    /// `history` with `address` put first (moved there if it was already in it), cut to `limit` entries.
    public static func adding(_ address: String, to history: [String]) -> [String] {
        let trimmed = address.trimmingWhitespace()
        guard !trimmed.isEmpty else { return history }
        return Array(([trimmed] + history.filter { $0 != trimmed }).prefix(limit))
    }

    /// A stored history made safe to use: blank entries and repeats dropped, at most `limit`.
    public static func cleaned(_ history: [String]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for entry in history {
            let trimmed = entry.trimmingWhitespace()
            // The file is the user's, but what it holds is shown and joined: nothing that could act on a terminal.
            let unsafe = trimmed.unicodeScalars.contains {
                DisplayText.isControl($0) || DisplayText.isBidiFormatting($0)
            }
            guard !trimmed.isEmpty, !unsafe, trimmed.count <= 100, seen.insert(trimmed).inserted else { continue }
            result.append(trimmed)
            if result.count == limit { break }
        }
        return result
    }
}
