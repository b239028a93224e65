import Foundation
import TicTacToeTestSupport
import XCTest

/// Dead ends no more, in the real full-screen UI (tmux) on loopback: a failed join offers `r` and retrying reaches a
/// host started meanwhile; after a match the TUI host waits for another player, and a second joiner gets a match.
final class TUIRetryTests: XCTestCase {
    private var processes: [TicTacToeProcess] = []

    override func tearDown() {
        for process in processes { process.terminate() }
        processes = []
    }

    /// A loopback port nothing listens on now (the OS picked it free; it is closed again at once).
    private func unusedLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw XCTSkip("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw XCTSkip("cannot bind") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Plays the pane's side until `over` shows: tries every cell in turn while it is the pane's turn.
    private func playUntilOver(_ tmux: Tmux, _ pane: String, over: String) -> String? {
        for _ in 0..<3 {
            for cell in 1...9 {
                guard let screen = tmux.waitFor(pane, timeout: 10, { $0.contains("Your turn") || $0.contains(over) })
                else { return nil }
                if screen.contains(over) { return screen }
                try? tmux.keys(pane, String(cell))
                _ = tmux.waitFor(pane, timeout: 2) { !$0.contains("Your turn") || $0.contains(over) }
            }
        }
        return tmux.waitFor(pane, text: over)
    }

    func testAFailedJoinByAddressRetriesWithRAndReachesAHostStartedMeanwhile() throws {
        let port = try unusedLoopbackPort()
        let tmux = try Tmux()
        try tmux.start("join", tuiCommand("--name bob"))
        XCTAssertNotNil(tmux.waitFor("join", text: "Join by address"), tmux.screen("join"))
        try tmux.keys("join", "a")
        XCTAssertNotNil(tmux.waitFor("join", text: "Address"), tmux.screen("join"))
        try tmux.literal("join", "127.0.0.1:\(port)")
        try tmux.keys("join", "Enter")
        let failed = try XCTUnwrap(tmux.waitFor("join", text: "r retry", timeout: 40), tmux.screen("join"))
        XCTAssertTrue(failed.contains("r retry · Enter or q back to the menu"), failed)
        XCTAssertTrue(failed.contains("Joining 127.0.0.1:\(port) as bob"), failed)
        print("A failure screen with its retry key:\n\(failed)")

        let host = try TicTacToeProcess([
            "host", "--headless", "--no-advertise", "--bind", "127.0.0.1", "--port", "\(port)", "--json",
            "--games", "1", "--matches", "1", "--name", "alice",
        ])
        processes.append(host)
        XCTAssertNotNil(host.waitForEvent("listening"), host.standardError)
        try tmux.keys("join", "r")
        XCTAssertNotNil(tmux.waitFor("join", text: "Playing against alice"), tmux.screen("join"))
        XCTAssertNotNil(host.waitForEvent("connected"), host.standardError)
        XCTAssertNotNil(playUntilOver(tmux, "join", over: "q back to the menu"), tmux.screen("join"))
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
        // Enter goes back to the menu from an ended screen.
        try tmux.keys("join", "Enter")
        XCTAssertNotNil(tmux.waitFor("join", text: "Play against the computer"), tmux.screen("join"))
    }

    func testTheTUIHostWaitsForAnotherPlayerAfterAMatchAndASecondJoinerPlays() throws {
        let tmux = try Tmux()
        try tmux.start("host", tuiCommand("--name alice"))
        XCTAssertNotNil(tmux.waitFor("host", text: "Host a game"), tmux.screen("host"))
        try tmux.keys("host", "h")
        XCTAssertNotNil(tmux.waitFor("host", text: "Port"), tmux.screen("host"))
        try tmux.keys("host", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.literal("host", "0")
        try tmux.keys("host", "Enter")
        XCTAssertNotNil(tmux.waitFor("host", text: "[ OK ]"), tmux.screen("host"))
        try tmux.keys("host", "o")
        let waiting = try XCTUnwrap(tmux.waitFor("host", text: "Waiting for someone to join on port"),
                                    tmux.screen("host"))
        let port = try XCTUnwrap(waiting.range(of: #"port (\d+)"#, options: .regularExpression).map {
            String(waiting[$0].dropFirst(5))
        })

        for (round, name) in ["bob", "carol"].enumerated() {
            let joiner = try TicTacToeProcess([
                "join", "127.0.0.1:\(port)", "--headless", "--json", "--games", "1", "--name", name,
            ])
            processes.append(joiner)
            XCTAssertNotNil(tmux.waitFor("host", text: "Playing against \(name)"), tmux.screen("host"))
            let over = try XCTUnwrap(playUntilOver(tmux, "host", over: "Wait for another player? r waits"),
                                     tmux.screen("host"))
            XCTAssertTrue(over.contains("Wait for another player? r waits · Enter or q back to the menu"), over)
            if round == 0 { print("The TUI host after a match:\n\(over)") }
            XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
            try tmux.keys("host", "r")
            // The same port again, with its join lines: the next joiner uses what the first was told.
            let again = try XCTUnwrap(
                tmux.waitFor("host") { $0.contains("Waiting for someone to join on port \(port)") && $0.contains("Join with") },
                tmux.screen("host"))
            XCTAssertFalse(again.contains("Playing against"), again)
            if round == 0 { print("The TUI host waiting again after a match:\n\(again)") }
        }
    }
}
