import TextSupport
import XCTest

/// `LineWrap`: every wrapped text of the terminal UI, in display columns, by the script's rules.
final class LineWrapTests: XCTestCase {
    static let japanese = "「TicTacToe」がローカルネットワーク上のデバイスを検索して接続することを求めています。近くのプレイヤーを見つけるために使用します。"
    static let chinese = "“TicTacToe”想要查找并连接到您本地网络上的设备。TicTacToe使用本地网络来发现您周围的玩家，并与他们对战。"
    static let korean = "TicTacToe이(가) 로컬 네트워크에서 기기를 찾고 연결하려고 합니다. 주변의 플레이어를 찾는 데 로컬 네트워크를 사용합니다."

    /// What must hold for any text at any width: no line wider than the width, and nothing lost or split: the lines
    /// put together are the text without the spaces dropped at breaks.
    func assertWellWrapped(_ text: String, width: Int, file: StaticString = #filePath, line: UInt = #line) {
        let lines = LineWrap.lines(text, width: width)
        for wrapped in lines {
            XCTAssertLessThanOrEqual(DisplayWidth.of(wrapped), width, "\(width): \(wrapped)", file: file, line: line)
            XCTAssertFalse(wrapped.hasSuffix(" ") || wrapped.hasPrefix(" "), "\(width): '\(wrapped)'", file: file, line: line)
        }
        XCTAssertEqual(lines.joined().filter { $0 != " " }, text.filter { $0 != " " }, "\(width)", file: file, line: line)
    }

    func testEnglishWrapsAtSpaces() {
        XCTAssertEqual(LineWrap.lines("the quick brown fox jumps", width: 10), ["the quick", "brown fox", "jumps"])
        XCTAssertEqual(LineWrap.lines("the quick", width: 9), ["the quick"])
        XCTAssertEqual(LineWrap.lines("", width: 9), [])
        XCTAssertEqual(LineWrap.lines("  leading and  two", width: 40), ["leading and  two"])
        XCTAssertEqual(LineWrap.lines("one\ntwo three", width: 5), ["one", "two", "three"])
    }

    func testAWordLongerThanTheLineIsCutBetweenCharacters() {
        XCTAssertEqual(LineWrap.lines("abcdefghij xy", width: 4), ["abcd", "efgh", "ij", "xy"])
        // Combining marks and emoji sequences stay whole.
        XCTAssertEqual(LineWrap.lines("e\u{301}e\u{301}e\u{301}", width: 2), ["e\u{301}e\u{301}", "e\u{301}"])
        XCTAssertEqual(LineWrap.lines("👩🏽‍💻👩🏽‍💻👩🏽‍💻", width: 5), ["👩🏽‍💻👩🏽‍💻", "👩🏽‍💻"])
        // A wide character never straddles the edge: at 5 columns, two ideographs and then the next line.
        XCTAssertEqual(LineWrap.lines("井字棋井字棋", width: 5), ["井字", "棋井", "字棋"])
        XCTAssertEqual(LineWrap.lines("井", width: 1), ["…"])
    }

    func testKoreanWrapsAtSpaces() {
        let lines = LineWrap.lines(Self.korean, width: 20)
        // Every line is whole words of the text.
        let words = Set(Self.korean.split(separator: " ").map(String.init))
        for line in lines {
            for word in line.split(separator: " ") { XCTAssertTrue(words.contains(String(word)), "\(line)") }
        }
        XCTAssertEqual(lines.joined(separator: " "), Self.korean)
        XCTAssertEqual(lines.first, "TicTacToe이(가) 로컬")
        for width in 10...60 { assertWellWrapped(Self.korean, width: width) }
    }

    func testJapaneseAndChineseWrapBetweenCharacters() {
        let japanese = LineWrap.lines(Self.japanese, width: 20)
        XCTAssertEqual(japanese.joined(), Self.japanese)
        // Filled lines, not one "word" cut with an ellipsis.
        XCTAssertLessThanOrEqual(japanese.count, DisplayWidth.of(Self.japanese) / 20 + 2, "\(japanese)")
        XCTAssertFalse(japanese.contains { $0.hasSuffix("…") })
        let chinese = LineWrap.lines(Self.chinese, width: 30)
        XCTAssertEqual(chinese.joined(), Self.chinese)
        XCTAssertLessThanOrEqual(chinese.count, DisplayWidth.of(Self.chinese) / 30 + 2, "\(chinese)")
        for width in 6...80 {
            assertWellWrapped(Self.japanese, width: width)
            assertWellWrapped(Self.chinese, width: width)
        }
    }

    func testNoLineStartsWithClosingPunctuationOrSmallKanaNorEndsWithAnOpeningBracket() {
        let closing = Set("、。，．！？」』）】〉》ーぁぃぅぇぉっゃゅょァィゥェォッャュョ")
        let opening = Set("「『（【〈《")
        let texts = [Self.japanese, Self.chinese,
                     "ちょっと待ってください。「じゃあ、またね」と言った。（テスト）【重要】キャッシュ、ショッピング！",
                     "我们（你和我）说：“好的！”然后《游戏》开始了。对吗？是的，对。"]
        for text in texts {
            for width in 6...40 {
                let lines = LineWrap.lines(text, width: width)
                XCTAssertEqual(lines.joined(), text)
                for (index, line) in lines.enumerated() {
                    if index > 0, let first = line.first { XCTAssertFalse(closing.contains(first), "\(width): \(lines)") }
                    if index < lines.count - 1, let last = line.last { XCTAssertFalse(opening.contains(last), "\(width): \(lines)") }
                }
            }
        }
        // The rule moves the character before along with it: "す。" goes to the next line together.
        XCTAssertEqual(LineWrap.lines("あいうえおです。", width: 14), ["あいうえおで", "す。"])
        XCTAssertEqual(LineWrap.lines("あいう「えお」", width: 8), ["あいう", "「えお」"])
        XCTAssertEqual(LineWrap.lines("ちょっと待って", width: 6), ["ちょっ", "と待っ", "て"])
    }

    func testMixedTextKeepsWordsWholeAndBreaksAroundThem() {
        // An English word in Japanese stays whole; the break falls between it and the kana.
        let text = "ホストの名前はAliceです。TicTacToeで遊びましょう。"
        let lines = LineWrap.lines(text, width: 16)
        XCTAssertEqual(lines.joined(), text)
        XCTAssertTrue(lines.contains { $0.contains("Alice") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.contains("TicTacToe") }, "\(lines)")
        // A name in quotes: the opening quote stays with the name.
        XCTAssertEqual(LineWrap.lines("ゲーム「민수 game」に参加", width: 10), ["ゲーム", "「민수", "game」に参", "加"])
        for width in 6...40 { assertWellWrapped(text + " " + Self.korean + " " + Self.chinese, width: width) }
    }
}
