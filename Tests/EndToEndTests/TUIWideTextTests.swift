import Foundation
import GameProtocol
import TicTacToeTestSupport
import XCTest
import TextSupport

/// Wide (CJK) names in a real terminal (tmux, through curses): the board screen of a host at the smallest window
/// the TUI accepts (44 columns) and of a joiner at 100 columns, names in display columns, the board's lines aligned.
final class TUIWideTextTests: XCTestCase {
    /// The display columns of every `│` on each line that has one.
    private func bars(_ screen: String) -> [[Int]] {
        screen.split(separator: "\n").compactMap { line -> [Int]? in
            var columns: [Int] = []
            var column = 0
            for character in line {
                if character == "│" { columns.append(column) }
                column += DisplayWidth.of(character)
            }
            return columns.isEmpty ? nil : columns
        }
    }

    func testCJKNamesOnTheBoardScreenAt44And100Columns() throws {
        let tmux = try Tmux()
        try tmux.start("host", tuiCommand("--name 黒田さん"), columns: 44, rows: 24)
        try tmux.start("join", tuiCommand("--name 수진"))
        XCTAssertNotNil(tmux.waitFor("host", text: "Host a game"), tmux.screen("host"))
        XCTAssertNotNil(tmux.waitFor("host", text: "Playing as 黒田さん"), tmux.screen("host"))
        try tmux.keys("host", "h")
        XCTAssertNotNil(tmux.waitFor("host", text: "Port"))
        try tmux.keys("host", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.literal("host", "0")
        try tmux.keys("host", "Enter")
        XCTAssertNotNil(tmux.waitFor("host", text: "[ OK ]"), tmux.screen("host"))
        try tmux.keys("host", "o")
        let waiting = try XCTUnwrap(tmux.waitFor("host", { collapse($0).contains("Waiting for someone to join on port") }),
                                    tmux.screen("host"))
        let port = try XCTUnwrap(collapse(waiting).range(of: #"port (\d+)"#, options: .regularExpression).map {
            String(collapse(waiting)[$0].dropFirst(5))
        })
        XCTAssertNotNil(tmux.waitFor("join", text: "Join by address"))
        try tmux.keys("join", "a")
        XCTAssertNotNil(tmux.waitFor("join", text: "Address"))
        try tmux.literal("join", "127.0.0.1:\(port)")
        try tmux.keys("join", "Enter")
        let joiner = try XCTUnwrap(tmux.waitFor("join", text: "Your turn (X)"), tmux.screen("join"))
        let host = try XCTUnwrap(tmux.waitFor("host", text: "수진's turn"), tmux.screen("host"))
        XCTAssertTrue(host.contains("You (黒田さん): O   수진: X"), host)
        XCTAssertTrue(joiner.contains("You (수진): X   黒田さん: O"), joiner)
        for (screen, columns) in [(host, 44), (joiner, 100)] {
            for line in screen.split(separator: "\n") {
                XCTAssertLessThanOrEqual(DisplayWidth.of(String(line)), columns, "\(line)\n\(screen)")
            }
            let rows = bars(screen)
            XCTAssertGreaterThanOrEqual(rows.count, 9, screen)
            XCTAssertEqual(Set(rows).count, 1, "the board's lines in the same columns on every row:\n\(screen)")
            // Centred: the board's middle column is the window's.
            let middle = try XCTUnwrap(rows.first).reduce(0, +) / 2
            XCTAssertLessThanOrEqual(abs(middle - columns / 2), 2, screen)
        }
    }
}
