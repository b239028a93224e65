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
/// smallest window (44 columns).
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
