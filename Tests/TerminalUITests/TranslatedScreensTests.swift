import AppManifest
import Foundation
import GameClient
import GameProtocol
import Localization
import TerminalUI
import TerminalWidgets
import XCTest
import TextSupport

/// The screens in Japanese and Korean, from the tables the app ships (Assets/<lang>.lproj/Localizable.strings): the
/// menu, the Search list and a game over the network show the translated lines, whole, and nothing is wider than the
/// smallest window (44 columns); the local network prompt in every shipped language fits an 80-column window.
final class TranslatedScreensTests: XCTestCase {
    private let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private let size = TerminalSize(rows: 20, columns: 44)

    override func tearDown() {
        Localization.current = .english
        super.tearDown()
    }

    private func use(_ language: String) throws {
        let localization = Localization.load(
            directory: checkout.appendingPathComponent("Assets").path,
            environment: ["LANGUAGE": language, "LANG": "C.UTF-8"])
        XCTAssertEqual(localization.language, language)
        XCTAssertEqual(localization.problems, [])
        XCTAssertNotNil(localization.messages)
        Localization.current = localization
    }

    /// Every row of every frame is at most the window's width, and no wide character straddles its right edge.
    private func assertFits(_ terminal: FakeTerminal, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(terminal.frames.isEmpty, file: file, line: line)
        for frame in terminal.frames {
            for (index, text) in frame.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                XCTAssertLessThanOrEqual(DisplayWidth.of(String(text)), size.columns, "row \(index): \(text)",
                                         file: file, line: line)
            }
            for cells in frame.cells {
                XCTAssertEqual(cells.count, size.columns, file: file, line: line)
            }
        }
    }

    private func assertShows(_ frame: String, _ lines: [String], file: StaticString = #filePath, line: UInt = #line) {
        for text in lines {
            XCTAssertTrue(frame.contains(text), "no \"\(text)\" in\n\(frame)", file: file, line: line)
        }
    }

    /// The prompt as the shipped manifest words it in each language (LANGUAGE as a user sets it), at 80 columns: the
    /// box's right border in one column on every line whatever the characters, the title and the message inside it
    /// whole, and the buttons and key hints in the language.
    func testThePromptInEveryLanguageAt80Columns() throws {
        let languages: [(language: String, title: String, message: String, deny: String, ok: String)] = [
            ("en", "“TicTacToe” would like to find and connect to devices on your local network.",
             "TicTacToe uses the local network to discover players around you.", "Don't Allow", "OK"),
            ("ko", "“틱택토”이(가) 로컬 네트워크에서 기기를 찾고 연결하려고 합니다.",
             "틱택토는 로컬 네트워크를 사용하여 주변의 플레이어를 찾습니다.", "허용 안 함", "확인"),
            ("ja", "“三目並べ”がローカルネットワーク上のデバイスの検索および接続を求めています。",
             "三目並べはローカルネットワークを使って、近くのプレイヤーを見つけます。", "許可しない", "OK"),
            ("zh_CN", "“井字棋”想要查找并连接到你本地网络上的设备。", "井字棋使用本地网络来发现你附近的玩家。", "不允许", "好"),
            ("zh_TW", "「井字遊戲」想要尋找並連接到你區域網路上的裝置。", "井字遊戲使用區域網路來尋找你附近的玩家。", "不允許", "好"),
        ]
        let assets = checkout.appendingPathComponent("Assets").path
        let manifest = try AppManifest(contentsOf: assets + "/Info.plist")
        for expected in languages {
            Localization.current = Localization.load(
                directory: assets, environment: ["LANGUAGE": expected.language, "LANG": "C.UTF-8"])
            let privacy = FakePrivacy(state: .notDetermined)
            privacy.title = manifest.promptTitle()
            privacy.message = manifest.promptMessage()
            let terminal = FakeTerminal(size: TerminalSize(rows: 24, columns: 80), script: [.keys("s")])
            try runApp(terminal, privacy: privacy, settings: UISettings(name: "민준"))
            let screen = terminal.lastFrame
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let top = try XCTUnwrap(lines.firstIndex { $0.contains("┌") }, screen)
            let bottom = try XCTUnwrap(lines.firstIndex { $0.contains("└") }, screen)
            let right = DisplayWidth.of(String(lines[top].prefix { $0 != "┐" }) + "┐")
            for line in lines[(top + 1)...bottom] {
                let border: Character = line.contains("└") ? "┘" : "│"
                XCTAssertEqual(DisplayWidth.of(String(line.prefix(through: line.lastIndex(of: border) ?? line.startIndex))),
                               right, "\(expected.language): \(line)\n\(screen)")
            }
            // The title and the message, wrapped inside the box (joined again without the borders; Chinese and
            // Japanese wrap between characters, English and Korean at spaces).
            let spaced = expected.language == "en" || expected.language == "ko"
            let text = lines[(top + 1)..<bottom].reduce("") { joined, line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                let inside = String(trimmed.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                guard !inside.isEmpty else { return joined + "\n" }
                return joined + (joined.isEmpty || joined.hasSuffix("\n") || !spaced ? "" : " ") + inside
            }
            XCTAssertTrue(text.contains(expected.title), "\(expected.language): the title\n\(screen)")
            XCTAssertTrue(text.contains(expected.message), "\(expected.language): the message\n\(screen)")
            XCTAssertTrue(screen.contains("[ \(expected.deny) ]") && screen.contains("[ \(expected.ok) ]"), screen)
            XCTAssertTrue(screen.contains("o \(expected.ok) · d \(expected.deny)"), "the key hints name the buttons\n\(screen)")
        }
    }

    func testTheMenuInJapanese() throws {
        try use("ja")
        let terminal = FakeTerminal(size: size, script: [.key(.down)])
        try runApp(terminal, settings: UISettings(name: "さくら"))
        assertFits(terminal)
        let frame = terminal.lastFrame
        assertShows(frame, [
            "三目並べ", "ふたりで、ひとつのLANで、9マス。", "[p] コンピュータと対戦", "[h] ゲームをホスト",
            "[r] 非公開ゲームをホスト", "[s] ゲームを探す", "[a] アドレスで参加", "[t] 設定", "[q] 終了",
            "プレイヤー: さくら",
        ])
        XCTAssertFalse(frame.contains("Play against the computer"), frame)
    }

    func testTheSearchListInKorean() throws {
        try use("ko")
        let listed = [
            GameListing(name: "수진의 게임", state: .joinable(.open), host: "민수-노트북.local.", addresses: ["10.0.0.2"]),
            GameListing(name: "対局", state: .joinable(.private), host: "黒田のMac.local.", addresses: ["10.0.0.3"]),
            GameListing(name: "old", state: .notJoinable(reason: "protocol 9"), host: "old.local.",
                        addresses: ["10.0.0.4"]),
        ]
        let terminal = FakeTerminal(size: size, script: [.keys("s"), .discovery(.games(listed))])
        try runApp(terminal)
        assertFits(terminal)
        let frame = terminal.lastFrame
        assertShows(frame, ["게임 찾기", "[비공개]", "게임 2개, 참가 불가 1개"])
        XCTAssertFalse(frame.contains("Search for games"), frame)

        let empty = FakeTerminal(size: size, script: [.keys("s"), .discovery(.available)])
        try runApp(empty)
        assertFits(empty)
        assertShows(empty.lastFrame, ["찾는 중: 아직 게임 없음"])
    }

    func testAGameOverTheNetworkInJapanese() throws {
        try use("ja")
        let terminal = FakeTerminal(size: size, script: [
            .keys("h"), .key(.enter),
            .network(.report(.connected(peerName: "민준", address: "127.0.0.1:5000", role: .host))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .x, firstMover: .x)))),
        ])
        try runApp(terminal, settings: UISettings(name: "さくら"))
        assertFits(terminal)
        let frame = terminal.lastFrame
        assertShows(frame, [
            "あなた (さくら): X   민준: O", "第1戦   スコア: あなた 0 · 민준 0 · 引分 0", "あなたの番です (X)",
            "민준と対戦中",
        ])

        let waiting = FakeTerminal(size: size, script: [
            .keys("h"), .key(.enter),
            .network(.report(.connected(peerName: "민준", address: "127.0.0.1:5000", role: .host))),
            .network(.report(.session(.gameStarted(number: 1, localMark: .o, firstMover: .x)))),
        ])
        try runApp(waiting, settings: UISettings(name: "さくら"))
        assertFits(waiting)
        assertShows(waiting.lastFrame, ["민준の番です"])
    }
}
