import Foundation
import GameProtocol
import TicTacToeTestSupport
import XCTest
import TextSupport

/// Games with Korean, Japanese and Chinese names, hosted on host-b and host-c and listed by the TUI on host-a in the
/// smallest window it accepts (44x20), in Japanese: every row fits the window, and the host column starts in the same
/// terminal column on every row although the names' characters are two columns wide.
final class CJKGameListLabTests: LabTestCase {
    func testACJKGameListAt44Columns() throws {
        let names = ["さくら", "민준의 게임", "李小龍的棋局"]
        _ = try startHost(on: "host-b", name: names[0])
        _ = try startHost(on: "host-c", name: names[1])
        _ = try startHost(on: "host-b", name: names[2])

        if tmux == nil { tmux = try Tmux.lab() }
        let tui = try LabTUI(tmux: tmux!, session: "cjk", on: "host-a", configDirectory: Lab.grantedConfigDirectory,
                             arguments: ["--name", "민준"], language: "ja", columns: 44, rows: 20)
        tuis.append(tui)
        XCTAssertNotNil(tui.waitFor("三目並べ"), tui.screen)  // the title: the app's name in Japanese
        try tui.keys("s")
        let screen = try XCTUnwrap(
            tui.waitFor(timeout: 20) { screen in screen.contains("ゲーム 3件") && names.allSatisfy(screen.contains) },
            tui.screen)
        print("CJK GAME LIST AT 44 COLUMNS (LANGUAGE=ja):\n" + screen)

        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for line in lines {
            XCTAssertLessThanOrEqual(columns(line), 44, "wider than the window: \(line)\n\(screen)")
        }
        var hostColumns: [Int] = []
        for name in names {
            let row = try XCTUnwrap(lines.first { $0.contains(name) }, screen)
            let host = try XCTUnwrap(row.range(of: "host-"), "no host on the row of \(name): \(row)")
            hostColumns.append(columns(String(row[..<host.lowerBound])))
        }
        XCTAssertEqual(Set(hostColumns).count, 1, "the host column starts at \(hostColumns)\n\(screen)")
    }

    /// Terminal columns of `text` as tmux printed it (wide characters take two).
    private func columns(_ text: String) -> Int { DisplayWidth.of(text) }
}
