import GameClient
import GameProtocol
import GameRules
import TerminalUI
import TerminalWidgets
import XCTest
import TextSupport

/// Korean, Japanese and Chinese names and texts on the screens, at the smallest window the TUI accepts (44 columns),
/// 80 and 100 columns: laid out in display columns (wide characters count two), columns aligned, nothing wider than
/// the window, nothing split.
final class WideTextLayoutTests: XCTestCase {
    static let sizes = [TerminalSize(rows: 24, columns: 44), TerminalSize(rows: 24, columns: 80),
                        TerminalSize(rows: 30, columns: 100)]

    /// The display column of the first cell of `row` holding `character` (nil when none).
    func column(of character: Character, in canvas: Canvas, row: Int, from start: Int = 0) -> Int? {
        canvas.cells[row].indices.first { $0 >= start && !canvas.cells[row][$0].continuation
            && canvas.cells[row][$0].character == character }
    }

    func row(containing text: String, in canvas: Canvas) -> Int? {
        canvas.text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }
    }

    /// Every row of every frame fits the window: the text of a row is never wider than the window, and no wide
    /// character is cut at the right edge.
    func assertFits(_ terminal: FakeTerminal, _ size: TerminalSize, file: StaticString = #filePath, line: UInt = #line) {
        for frame in terminal.frames where frame.size == size {
            for (index, text) in frame.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                XCTAssertLessThanOrEqual(DisplayWidth.of(String(text)), size.columns, "row \(index): \(text)",
                                         file: file, line: line)
            }
            for cells in frame.cells {
                XCTAssertEqual(cells.count, size.columns, file: file, line: line)
                for (x, cell) in cells.enumerated() where cell.continuation {
                    XCTAssertTrue(x > 0 && DisplayWidth.of(cells[x - 1].character) == 2, file: file, line: line)
                }
            }
        }
    }

    func testSearchListWithCJKNamesAndHostsLinesUpAtEverySize() throws {
        let listed = [
            GameListing(name: "수진의 게임", state: .joinable(.open), host: "민수-노트북.local.", addresses: ["10.0.0.2"]),
            GameListing(name: "対局しましょう", state: .joinable(.private), host: "黒田のMac.local.",
                        addresses: ["10.0.0.3"]),
            GameListing(name: "我的井字棋游戏很长很长的名字", state: .joinable(.open), host: "张伟的电脑.local.",
                        addresses: ["10.0.0.4"]),
            GameListing(name: "alice", state: .joinable(.plaintext), host: "ALICE-PC.local.", addresses: ["10.0.0.5"]),
        ]
        let hosts: [Character] = ["민", "黒", "张", "A"]
        for size in Self.sizes {
            let terminal = FakeTerminal(size: size, script: [.keys("s"), .discovery(.games(listed)), .key(.down)])
            try runApp(terminal)
            assertFits(terminal, size)
            let frame = try XCTUnwrap(terminal.frames.last)
            var hostColumns: Set<Int> = []
            var stateColumns: Set<Int> = []
            var selectedWidths: [Int] = []
            for (game, host) in zip(listed, hosts) {
                let index = try XCTUnwrap(row(containing: String(game.name.prefix(2)), in: frame), "\(size): \(frame.text)")
                hostColumns.insert(try XCTUnwrap(column(of: host, in: frame, row: index), "\(size): \(frame.text)"))
                if let bracket = column(of: "[", in: frame, row: index) { stateColumns.insert(bracket) }
                let selected = frame.cells[index].filter { $0.style == .selected }.count
                if selected > 0 { selectedWidths.append(selected) }
            }
            XCTAssertEqual(hostColumns.count, 1, "the place column starts at one column: \(size)\n\(frame.text)")
            XCTAssertEqual(stateColumns.count, 1, "the state column starts at one column: \(size)\n\(frame.text)")
            XCTAssertEqual(selectedWidths, [size.columns - 4], "\(size)\n\(frame.text)")
            if size.columns >= 80 {
                for game in listed { XCTAssertTrue(frame.text.contains(game.name), "\(size)\n\(frame.text)") }
            } else {
                XCTAssertTrue(frame.text.contains("…"), "cut with an ellipsis at \(size)\n\(frame.text)")
            }
        }
    }

    func testTheBoardScreenWithCJKNames() throws {
        for size in Self.sizes {
            let peer = "黒田さんの長い長い名前です"
            let terminal = FakeTerminal(size: size, script: [
                .keys("h"), .key(.enter),
                .network(.report(.connected(peerName: peer, address: "127.0.0.1:5000", role: .host))),
                .network(.report(.session(.gameStarted(number: 1, localMark: .o, firstMover: .x)))),
            ])
            try runApp(terminal, settings: UISettings(name: "수진의 긴 이름입니다"))
            assertFits(terminal, size)
            let frame = try XCTUnwrap(terminal.frames.last)
            let text = frame.text
            XCTAssertTrue(text.contains("You (수진의 긴 이름입니다): O"), "\(size)\n\(text)")
            XCTAssertTrue(text.contains("黒田さんの長い長い…"), "the name cut to 20 columns: \(size)\n\(text)")
            XCTAssertTrue(text.contains("黒田さんの長い長い…'s turn"), "\(size)\n\(text)")
            // The board's vertical lines stay in their columns on every row.
            let bars = text.split(separator: "\n", omittingEmptySubsequences: false).indices.compactMap { row -> [Int]? in
                let columns = frame.cells[row].indices.filter { frame.cells[row][$0].character == "│" }
                return columns.isEmpty ? nil : columns
            }
            XCTAssertEqual(Set(bars).count, 1, "\(size)\n\(text)")
            XCTAssertEqual(bars.first?.count, 2)
        }
    }

    /// The local network prompt with a long message in Japanese, Chinese and Korean: wrapped inside the box (between
    /// characters for Japanese and Chinese, at spaces for Korean), all of it shown, the box's borders aligned.
    func testThePromptWrapsCJKMessagesInsideTheBox() throws {
        let texts: [(title: String, message: String)] = [
            ("「TicTacToe」がローカルネットワーク上のデバイスの検索および接続を求めています。", CJKMessages.japanese),
            ("“TicTacToe”想要查找并连接到您本地网络上的设备。", CJKMessages.chinese),
            ("“TicTacToe”이(가) 로컬 네트워크에서 기기를 찾고 연결하려고 합니다.", CJKMessages.korean),
        ]
        for size in Self.sizes {
            for (title, message) in texts {
                let privacy = FakePrivacy(state: .notDetermined)
                privacy.title = title
                privacy.message = message
                let terminal = FakeTerminal(size: size, script: [.keys("s")])
                try runApp(terminal, privacy: privacy)
                assertFits(terminal, size)
                let frame = try XCTUnwrap(terminal.frames.last)
                let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let top = try XCTUnwrap(lines.firstIndex { $0.contains("┌") }, frame.text)
                let bottom = try XCTUnwrap(lines.firstIndex { $0.contains("└") }, frame.text)
                let left = try XCTUnwrap(column(of: "┌", in: frame, row: top))
                let right = try XCTUnwrap(column(of: "┐", in: frame, row: top))
                XCTAssertEqual(column(of: "└", in: frame, row: bottom), left)
                XCTAssertEqual(column(of: "┘", in: frame, row: bottom), right)
                var inside = ""
                for row in (top + 1)..<bottom {
                    XCTAssertEqual(column(of: "│", in: frame, row: row), left, "\(size) row \(row)\n\(frame.text)")
                    XCTAssertEqual(column(of: "│", in: frame, row: row, from: left + 1), right,
                                   "\(size) row \(row)\n\(frame.text)")
                    for x in (left + 1)..<right where !frame.cells[row][x].continuation {
                        inside.append(frame.cells[row][x].character)
                    }
                }
                let shown = inside.filter { $0 != " " }
                XCTAssertTrue(shown.contains((title + message).filter { $0 != " " }), "all of it: \(size)\n\(frame.text)")
                XCTAssertFalse(inside.contains("…"), "\(size)\n\(frame.text)")
                XCTAssertTrue(inside.contains("[ Don't Allow ]") && inside.contains("[ OK ]"), frame.text)
            }
        }
    }

    /// Settings with a wide name: the row and its highlight as wide as the others, the name cut with "…".
    func testSettingsWithAWideName() throws {
        for size in Self.sizes {
            let name = "黒田さんの長い長い長い長い長い名前です"
            let terminal = FakeTerminal(size: size, script: [.keys("t"), .key(.down)])
            try runApp(terminal, settings: UISettings(name: name))
            assertFits(terminal, size)
            let frame = try XCTUnwrap(terminal.frames.last)
            let row = try XCTUnwrap(row(containing: "Who starts", in: frame), frame.text)
            let nameRow = row + 1
            let width = min(64, size.columns - 2)
            XCTAssertEqual(frame.cells[row].filter { $0.style == .selected }.count, width, frame.text)
            let text = frame.text.split(separator: "\n", omittingEmptySubsequences: false)[nameRow]
            XCTAssertTrue(text.contains("黒田さん"), frame.text)
            XCTAssertEqual(text.contains("…"), DisplayWidth.of(name) > width - 15, "\(size)\n\(frame.text)")
        }
    }

    /// The join form and the code entry with a wide name and game name: the field rows keep their width.
    func testJoinScreensWithWideText() throws {
        for size in Self.sizes {
            let terminal = FakeTerminal(size: size, script: [.keys("a"), .keys("黒田さんの対局黒田さんの対局黒田さんの対局")])
            try runApp(terminal, settings: UISettings(name: "수진"))
            assertFits(terminal, size)
            let frame = try XCTUnwrap(terminal.frames.last)
            let row = try XCTUnwrap(row(containing: "黒田さん", in: frame), frame.text)
            XCTAssertEqual(frame.cells[row].filter { $0.style == .selected || $0.style == .cursor }.count, 39,
                           "the field is 39 columns wide, wide characters or not\n\(frame.text)")
        }
    }

    /// A control character is never drawn, whatever reaches the canvas: text from outside is escaped before, and the
    /// canvas skips what has no width (C0, DEL, C1, CR LF) rather than writing it.
    func testControlCharactersAreNeverDrawn() throws {
        var canvas = Canvas(size: TerminalSize(rows: 2, columns: 44))
        canvas.put("a\u{1B}[2Jb\u{9B}c\r\nd\u{7F}e\u{85}f", row: 0, column: 0)
        XCTAssertEqual(canvas.text.split(separator: "\n").first, "a[2Jbcdef")
        for cell in canvas.cells.joined() {
            XCTAssertFalse(cell.character.unicodeScalars.contains { DisplayText.isControl($0) }, "\(cell)")
        }
        // Hosts and reasons from Bonjour in the Search list, at the smallest and a wide window: escaped.
        let hostile = "x\u{1B}]0;t\u{07}\u{202E}"
        let listed = [
            GameListing(name: "黒田" + hostile, state: .joinable(.open), host: "h" + hostile, addresses: ["10.0.0.2"]),
            GameListing(name: "민수", state: .notJoinable(reason: hostile), host: "k" + hostile),
        ]
        for size in [Self.sizes[0], Self.sizes[2]] {
            let terminal = FakeTerminal(size: size, script: [.keys("s"), .discovery(.games(listed))])
            try runApp(terminal)
            assertFits(terminal, size)
            for frame in terminal.frames {
                let raw = frame.text.unicodeScalars.filter { ($0 != "\n" && DisplayText.isControl($0)) || DisplayText.isBidiFormatting($0) }
                XCTAssertTrue(raw.isEmpty, frame.text)
            }
            let last = terminal.lastFrame
            XCTAssertTrue(last.contains(#"黒田x\x1b"#), last)
            if size.columns == 100 {
                XCTAssertTrue(last.contains(#"hx\x1b]0;t\x07\u202e"#), last)
                XCTAssertTrue(last.contains(#"(not joinable: x\x1b]0;t\x07\u202e)"#), last)
            }
        }
    }
}
