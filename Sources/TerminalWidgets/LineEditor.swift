import FoundationEssentials
import GameProtocol
import TextSupport

/// One line of text being typed, with a cursor: what every text field of the TUI edits through. A pure value.
///
/// Keys: a printable character is inserted at the cursor; Backspace deletes before it, Delete (and Ctrl-D) at it;
/// ←/→ (and Ctrl-B/Ctrl-F) move by one character, Home/End (and Ctrl-A/Ctrl-E) to either end; Ctrl-U deletes from
/// the start to the cursor, Ctrl-K from the cursor to the end, Ctrl-W the word before the cursor (with the spaces
/// after it, as a shell does).
///
/// With a `history` (newest first), ↑ shows the next older entry and ↓ the next newer one, down to the text that
/// was being typed before ↑ (kept as it was). Editing a recalled entry edits a copy: the history stays as it is.
public struct LineEditor: Hashable, Sendable {
    /// The text, as characters (the cursor is an index into it).
    public private(set) var characters: [Character]
    /// Where the next character goes: 0 is before the first one, `characters.count` after the last.
    public private(set) var cursor: Int
    /// When non-nil, what may be typed: `accepts(text)` says whether the text with one more character still fits.
    private let limit: Limit
    /// Earlier entries to recall with ↑/↓, newest first.
    public private(set) var history: [String]
    /// Which history entry is shown (nil: the person's own text).
    public private(set) var recalled: Int?
    /// The person's own text while a history entry is shown.
    private var draft: [Character] = []

    /// The most a field holds: characters, or UTF-8 bytes (a player name: 63, as `--name`).
    public enum Limit: Hashable, Sendable {
        case characters(Int)
        case playerName

        func accepts(_ text: [Character]) -> Bool {
            switch self {
            case .characters(let most): return text.count <= most
            case .playerName: return PlayerName.fits(String(text))
            }
        }
    }

    /// What a key did: the text or cursor moved (`.edited`), or the key means nothing to a line (`.ignored`: the
    /// form may use it, e.g. Tab, Enter, Esc).
    public enum Outcome: Hashable, Sendable { case edited, ignored }

    public init(_ text: String = "", limit: Limit = .characters(100), history: [String] = []) {
        characters = Array(text)
        cursor = characters.count
        self.limit = limit
        self.history = history
    }

    public var text: String { String(characters) }

    /// The text with the cursor shown as `mark` before the character it is on (at the end: after the text).
    public func text(cursorMark mark: String) -> String {
        String(characters[..<cursor]) + mark + String(characters[cursor...])
    }

    /// Replaces the whole text; the cursor goes to its end.
    public mutating func set(_ text: String) {
        characters = Array(text)
        cursor = characters.count
        recalled = nil
    }

    @discardableResult
    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .character(let c) where !c.isNewline && DisplayWidth.of(c) > 0:
            var next = characters
            next.insert(c, at: cursor)
            guard limit.accepts(next) else { return .edited }  // full: the key is used up, nothing changes
            characters = next
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return .edited }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .control("d"):
            guard cursor < characters.count else { return .edited }
            characters.remove(at: cursor)
        case .left, .control("b"):
            cursor = max(0, cursor - 1)
            return .edited  // moving the cursor keeps a recalled entry recalled
        case .right, .control("f"):
            cursor = min(characters.count, cursor + 1)
            return .edited
        case .home, .control("a"):
            cursor = 0
            return .edited
        case .end, .control("e"):
            cursor = characters.count
            return .edited
        case .control("u"):
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .control("k"):
            characters.removeSubrange(cursor...)
        case .control("w"):
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .up:
            guard !history.isEmpty else { return .ignored }
            let next = (recalled ?? -1) + 1
            guard next < history.count else { return .edited }  // the oldest is shown: stays
            if recalled == nil { draft = characters }
            recalled = next
            characters = Array(history[next])
            cursor = characters.count
            return .edited
        case .down:
            guard let shown = recalled else { return history.isEmpty ? .ignored : .edited }
            if shown == 0 {
                recalled = nil
                characters = draft
            } else {
                recalled = shown - 1
                characters = Array(history[shown - 1])
            }
            cursor = characters.count
            return .edited
        default:
            return .ignored
        }
        recalled = nil  // an edit makes the shown entry the person's own text
        return .edited
    }
}

extension LineEditor {
    /// What a text field shows of the line in `width` columns: the text (escaped; while editing, a `_` after it when
    /// the cursor is at its end), scrolled so the cursor is in view, and the cursor's column when it is on a
    /// character (nil when not editing or at the end, where the `_` shows it).
    public func view(width: Int, editing: Bool) -> (text: String, cursor: Int?) {
        guard editing else { return (DisplayWidth.truncate(DisplayText.escaped(text), to: width), nil) }
        var before = characters[..<cursor].map { DisplayText.escaped(String($0)) }
        let after = characters[cursor...].map { DisplayText.escaped(String($0)) }
        // Scroll: drop characters before the cursor until it (and the character under it) fit.
        // When more follows the character under the cursor, the last column is the ellipsis: keep it free.
        let under = DisplayWidth.of(after.first ?? "_") + (after.count > 1 ? 1 : 0)
        while !before.isEmpty, DisplayWidth.of(before.joined()) + under > width { before.removeFirst() }
        let start = before.joined()
        let column = DisplayWidth.of(start)
        if after.isEmpty { return (start + "_", nil) }
        return (DisplayWidth.truncate(start + after.joined(), to: width), column)
    }
}
