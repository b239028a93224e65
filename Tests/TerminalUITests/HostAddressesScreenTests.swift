import GameClient
import GameProtocol
import TerminalUI
import TerminalWidgets
import XCTest

/// The waiting host's screen shows where joiners reach it: the exact `tictactoe join` line for the
/// first address, the other addresses under it (link-local last, with the note), as many as fit.
final class HostAddressesScreenTests: XCTestCase {
    private let addresses = [
        JoinAddress(host: "198.18.0.12", port: 7878, kind: .routable),
        JoinAddress(host: "2001:db8::5", port: 7878, kind: .routable),
        JoinAddress(host: "fe80::1", port: 7878, kind: .linkLocal),
    ]

    private func host(
        _ addresses: [JoinAddress], security: GameSecurity = .open, size: TerminalSize = TerminalSize(rows: 30, columns: 100),
        then tail: [FakeTerminal.Step] = []
    ) throws -> FakeTerminal {
        let terminal = FakeTerminal(size: size, script: [
            .keys(security == .private ? "r" : "h"), .key(.enter),
            .network(.report(.listening(host: "::", port: 7878, name: "tester", security: security,
                                        addresses: addresses))),
        ] + tail)
        try runApp(terminal)
        return terminal
    }

    private func lines(_ frame: String) -> [String] {
        frame.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func testTheHostScreenShowsTheJoinLineAndEveryAddress() throws {
        let terminal = try host(addresses)
        let shown = lines(terminal.lastFrame)
        let waiting = try XCTUnwrap(shown.firstIndex(of: "Waiting for someone to join on port 7878…"), terminal.lastFrame)
        XCTAssertEqual(Array(shown[(waiting + 1)...(waiting + 4)]), [
            "Join with: tictactoe join 198.18.0.12:7878",
            "or: tictactoe join [2001:db8::5]:7878",
            "or: tictactoe join [fe80::1]:7878",
            "(link-local: this link only; join finds its own interface)",
        ], terminal.lastFrame)
        // The exact line to type stands out.
        let canvas = try XCTUnwrap(terminal.frames.last)
        XCTAssertTrue(canvas.cells[waiting + 1].contains { $0.style == .accent && $0.character == "J" })
    }

    func testAPrivateGamesJoinLineReadsTheCodeTheScreenShows() throws {
        let terminal = try host(Array(addresses.prefix(1)), security: .private,
                                then: [.network(.privateCode("482913", replacedBecause: nil))])
        XCTAssertTrue(terminal.lastFrame.contains("Code: 482 913"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Join with: tictactoe join 198.18.0.12:7878 --code -"),
                      terminal.lastFrame)
    }

    func testLoopbackSaysOnlyThisMachineCanJoinAndNoAddressSaysSo() throws {
        let loopback = try host([JoinAddress(host: "127.0.0.1", port: 7878, kind: .loopback)])
        XCTAssertTrue(loopback.lastFrame.contains("Only this machine can join: tictactoe join 127.0.0.1:7878"),
                      loopback.lastFrame)
        let none = try host([])
        XCTAssertTrue(none.lastFrame.contains("This machine has no network address now: check its network connection"),
                      none.lastFrame)
    }

    func testASmallWindowShowsAsManyAsFitAndHowManyMore() throws {
        let many = (1...12).map { JoinAddress(host: "198.18.0.\($0)", port: 7878, kind: .routable) }
        let terminal = try host(many, size: TerminalSize(rows: 20, columns: 60))
        let shown = lines(terminal.lastFrame)
        let first = try XCTUnwrap(shown.firstIndex(of: "Join with: tictactoe join 198.18.0.1:7878"), terminal.lastFrame)
        // Rows 11 to 17 (the hints and the status line are rows 18 and 19): six addresses and the count of the rest.
        XCTAssertEqual(first, 11)
        XCTAssertEqual(shown[16], "or: tictactoe join 198.18.0.6:7878", terminal.lastFrame)
        XCTAssertEqual(shown[17], "and 6 more (tictactoe host lists them all)", terminal.lastFrame)
        XCTAssertFalse(terminal.lastFrame.contains("198.18.0.7:"), terminal.lastFrame)
    }

    func testFailedAttemptsStayInViewUnderTheAddresses() throws {
        let many = (1...12).map { JoinAddress(host: "198.18.0.\($0)", port: 7878, kind: .routable) }
        let terminal = try host(many, size: TerminalSize(rows: 20, columns: 60), then: [
            .network(.report(.peerFailed(remote: "198.18.0.99:5000", error: "wrong code"))),
        ])
        let shown = lines(terminal.lastFrame)
        XCTAssertEqual(shown[17], "Wrong code from 198.18.0.99:5000", terminal.lastFrame)
        XCTAssertEqual(shown[15], "and 8 more (tictactoe host lists them all)", terminal.lastFrame)
        XCTAssertEqual(shown[16], "", terminal.lastFrame)
    }
}
