import TerminalWidgets
import XCTest

/// The line editor every text field uses: each key, the history, the limits.
final class LineEditorTests: XCTestCase {
    /// An editor with `text` and the cursor at `cursor` (counted in characters from the start).
    private func editor(_ text: String, cursor: Int? = nil, history: [String] = []) -> LineEditor {
        var editor = LineEditor(text, history: history)
        for _ in 0..<(text.count - (cursor ?? text.count)) { editor.handle(.left) }
        return editor
    }

    /// The text with the cursor as `|`.
    private func shown(_ editor: LineEditor) -> String { editor.text(cursorMark: "|") }

    private func after(_ keys: [Key], _ start: LineEditor) -> String {
        var editor = start
        for key in keys { editor.handle(key) }
        return shown(editor)
    }

    func testCharactersAreInsertedAtTheCursor() {
        XCTAssertEqual(after([.character("x")], editor("")), "x|")
        XCTAssertEqual(after([.character("x")], editor("ab", cursor: 1)), "ax|b")
        XCTAssertEqual(after([.character("日"), .character("本")], editor("ab", cursor: 0)), "日本|ab")
        XCTAssertEqual(after([.character("\n"), .character("\u{301}")], editor("ab")), "ab|",
                       "no newline, no lone mark")
    }

    func testBackspaceAndDelete() {
        XCTAssertEqual(after([.backspace], editor("abc")), "ab|")
        XCTAssertEqual(after([.backspace], editor("abc", cursor: 1)), "|bc")
        XCTAssertEqual(after([.backspace], editor("abc", cursor: 0)), "|abc", "nothing before the cursor")
        XCTAssertEqual(after([.delete], editor("abc", cursor: 1)), "a|c")
        XCTAssertEqual(after([.control("d")], editor("abc", cursor: 0)), "|bc")
        XCTAssertEqual(after([.delete], editor("abc")), "abc|", "nothing after the cursor")
    }

    func testCursorMovesByCharacterAndToEitherEnd() {
        XCTAssertEqual(after([.left], editor("abc")), "ab|c")
        XCTAssertEqual(after([.left, .left, .left, .left], editor("abc")), "|abc", "stops at the start")
        XCTAssertEqual(after([.right], editor("abc", cursor: 0)), "a|bc")
        XCTAssertEqual(after([.right], editor("abc")), "abc|", "stops at the end")
        XCTAssertEqual(after([.control("b")], editor("abc")), "ab|c")
        XCTAssertEqual(after([.control("f")], editor("abc", cursor: 1)), "ab|c")
        XCTAssertEqual(after([.home], editor("abc")), "|abc")
        XCTAssertEqual(after([.control("a")], editor("abc")), "|abc")
        XCTAssertEqual(after([.end], editor("abc", cursor: 0)), "abc|")
        XCTAssertEqual(after([.control("e")], editor("abc", cursor: 1)), "abc|")
        XCTAssertEqual(after([.left], editor("e\u{301}日")), "e\u{301}|日", "by character, not by scalar")
    }

    func testCtrlUClearsToTheStartAndCtrlKToTheEnd() {
        XCTAssertEqual(after([.control("u")], editor("alice")), "|")
        XCTAssertEqual(after([.control("u")], editor("192.0.2.1:7878", cursor: 9)), "|:7878")
        XCTAssertEqual(after([.control("k")], editor("192.0.2.1:7878", cursor: 9)), "192.0.2.1|")
    }

    func testCtrlWDeletesTheWordBeforeTheCursor() {
        XCTAssertEqual(after([.control("w")], editor("Zoë's game")), "Zoë's |")
        XCTAssertEqual(after([.control("w")], editor("Zoë's game  ")), "Zoë's |", "with the spaces after it")
        XCTAssertEqual(after([.control("w"), .control("w")], editor("a b c")), "a |")
        XCTAssertEqual(after([.control("w")], editor("one two", cursor: 5)), "one |wo")
        XCTAssertEqual(after([.control("w")], editor("", cursor: 0)), "|")
    }

    func testKeysThatAreNotEditingAreLeftToTheForm() {
        var editor = editor("abc")
        for key: Key in [.enter, .escape, .tab, .backTab, .control("x"), .up, .down, .resize] {
            XCTAssertEqual(editor.handle(key), .ignored, "\(key)")
        }
        XCTAssertEqual(shown(editor), "abc|")
    }

    func testTheLimitIsKept() {
        var short = LineEditor("1234", limit: .characters(5))
        short.handle(.character("5"))
        short.handle(.character("6"))
        XCTAssertEqual(short.text, "12345")
        var name = LineEditor(String(repeating: "a", count: 61), limit: .playerName)
        for c in "日bc" { name.handle(.character(c)) }  // 日 would make 64 bytes
        XCTAssertEqual(name.text, String(repeating: "a", count: 61) + "bc")
    }

    func testUpAndDownWalkTheHistoryNewestFirstAndComeBackToTheDraft() {
        var editor = LineEditor("10.0", history: ["a:1", "b:2", "c:3"])
        editor.handle(.up)
        XCTAssertEqual(shown(editor), "a:1|", "the newest first")
        editor.handle(.up)
        editor.handle(.up)
        XCTAssertEqual(shown(editor), "c:3|")
        editor.handle(.up)
        XCTAssertEqual(shown(editor), "c:3|", "the oldest stays")
        editor.handle(.down)
        XCTAssertEqual(shown(editor), "b:2|")
        editor.handle(.down)
        editor.handle(.down)
        XCTAssertEqual(shown(editor), "10.0|", "back to what was being typed")
        XCTAssertNil(editor.recalled)
        editor.handle(.up)
        editor.handle(.backspace)
        XCTAssertEqual(shown(editor), "a:|", "a recalled entry is edited as a copy")
        XCTAssertEqual(editor.history, ["a:1", "b:2", "c:3"])
        XCTAssertNil(editor.recalled)
    }
}
