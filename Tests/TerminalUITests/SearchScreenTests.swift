import GameClient
import TerminalUI
import TerminalWidgets
import XCTest

final class SearchScreenTests: XCTestCase {
    private let games: [GameListing] = [
        GameListing(name: "alice", security: .open),
        GameListing(name: "Apple's TicTacToe", notJoinableBecause: "no protocol version"),
        GameListing(name: "Zoë's game", security: .open),
    ]

    func testSearchListsGamesLiveAndMarksIncompatibleOnes() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [.keys("s"), .discovery(.available), .discovery(.games(games))])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.browses, 1)
        let frame = terminal.lastFrame
        XCTAssertTrue(frame.contains("alice"), frame)
        XCTAssertTrue(frame.contains("Zoë's game"), frame)
        XCTAssertTrue(frame.contains("Apple's TicTacToe  (not joinable: no protocol version)"), frame)
        XCTAssertTrue(frame.contains("2 games, 1 not joinable"), "only joinable games count as games: \(frame)")
        let lines = frame.split(separator: "\n").map(String.init)
        let order = ["alice", "Zoë's game", "Apple's TicTacToe"].map { name in lines.firstIndex { $0.contains(name) } ?? -1 }
        XCTAssertEqual(order, order.sorted(), "joinable games first: \(frame)")
    }

    /// Private games (joining asks for the host's code) and unencrypted ones (protocol 1) are marked after the name,
    /// wide names too (in a column as wide as the widest name); every row of the list, and so its highlight, is as
    /// wide as the window's width allows (4 columns of margin); both stay joinable.
    func testSearchMarksPrivateAndUnencryptedGames() throws {
        let listed = [
            GameListing(name: "alice", security: .open),
            GameListing(name: "Bob's secret", security: .private),
            GameListing(name: "黒田さんの対局", security: .private),
            GameListing(name: "Old timer", security: .plaintext),
        ]
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games(listed)), .key(.down), .key(.down), .key(.down), .key(.enter),
        ])
        try runApp(terminal, network: network)
        let frame = try XCTUnwrap(terminal.frames.first { $0.text.contains("4 games") })
        let lines = frame.text.split(separator: "\n").map(String.init)
        func row(_ name: String) -> String? { lines.first { $0.contains(name) } }
        XCTAssertEqual(row("alice")?.trimmingCharacters(in: .whitespaces), "alice", frame.text)
        XCTAssertEqual(row("Bob's secret")?.trimmingCharacters(in: .whitespaces), "Bob's secret    [private]", frame.text)
        XCTAssertEqual(row("黒田さんの対局")?.trimmingCharacters(in: .whitespaces), "黒田さんの対局  [private]",
                       frame.text)
        XCTAssertEqual(row("Old timer")?.trimmingCharacters(in: .whitespaces), "Old timer       [unencrypted]", frame.text)
        // The highlight covers the list's 96 columns on every row, a wide name's row (its characters count two) too.
        func highlighted(_ frame: Canvas, rowOf name: String) -> Int {
            let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
            guard let row = lines.firstIndex(where: { $0.contains(name) }) else { return 0 }
            return frame.cells[row].filter { $0.style == .selected }.count
        }
        XCTAssertEqual(highlighted(frame, rowOf: "alice"), 96)
        let wideSelected = try XCTUnwrap(terminal.frames.first { highlighted($0, rowOf: "黒田さんの対局") > 0 })
        XCTAssertEqual(highlighted(wideSelected, rowOf: "黒田さんの対局"), 96, wideSelected.text)
        // Selecting a private game asks for its code before anything joins.
        XCTAssertTrue(terminal.lastFrame.contains("This game is private: enter its code"), terminal.lastFrame)
        XCTAssertEqual(network.joined.map(\.address), [])
    }

    /// A game whose host does not answer is listed as such, with where it was, after the joinable ones; selecting
    /// it tries it again: the connecting screen shows the address being tried and counts down the 10 s the join may
    /// take.
    func testADeadHostIsListedNotAnsweringAndSelectingItCountsDown() throws {
        let listed = [
            GameListing(name: "日本語のゲーム", state: .notAnswering(since: .seconds(5)), host: "host-b.local.",
                        addresses: ["10.99.0.12"]),
            GameListing(name: "日本語のゲーム-2", state: .joinable(.open), host: "host-c.local.", addresses: ["10.99.0.13"]),
            GameListing(name: "mine", state: .joinable(.open), host: "here.local.", addresses: ["10.99.0.11"],
                        isThisMachine: true),
        ]
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games(listed)), .key(.down), .key(.down), .key(.enter),
            .network(.report(.discovery(.resolved(name: "日本語のゲーム", addresses: ["10.99.0.12:7990"])))),
            .wait(.seconds(1)), .wait(.seconds(1)), .wait(.seconds(1)),
        ])
        try runApp(terminal, network: network)
        let list = try XCTUnwrap(terminal.frames.first { $0.text.contains("2 games, 1 not joinable") }).text
        let lines = list.split(separator: "\n").map(String.init)
        XCTAssertNotNil(lines.first { $0.contains("日本語のゲーム-2") && $0.contains("host-c.local 10.99.0.13") }, list)
        XCTAssertNotNil(lines.first { $0.contains("mine") && $0.contains("this machine") }, list)
        let dead = try XCTUnwrap(lines.firstIndex { $0.contains("host-b.local 10.99.0.12") && $0.contains("(not answering)") }, list)
        let joinable = ["mine", "日本語のゲーム-2"].compactMap { name in lines.firstIndex { $0.contains(name) } }
        XCTAssertEqual(joinable.count, 2, list)
        XCTAssertTrue(joinable.allSatisfy { $0 < dead }, "joinable first: \(list)")
        XCTAssertEqual(network.joined.first?.address, "日本語のゲーム", "selecting it tries it again")
        let texts = terminal.frames.map(\.text)
        XCTAssertNotNil(texts.first {
            $0.contains("Connecting to 日本語のゲーム at host-b.local 10.99.0.12…") && $0.contains("Gives up in 10 s")
        }, texts.last ?? "")
        XCTAssertNotNil(texts.first { $0.contains("Trying 10.99.0.12:7990…") && $0.contains("Gives up in 9 s") }, texts.last ?? "")
        XCTAssertNotNil(texts.first { $0.contains("Trying 10.99.0.12:7990…") && $0.contains("Gives up in 7 s") }, texts.last ?? "")
        XCTAssertTrue(terminal.lastFrame.contains("Trying 10.99.0.12:7990…"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("Giving up"), terminal.lastFrame)
    }

    /// Waiting for local network permission is not part of the 10 s: the countdown starts once access is allowed
    /// (the core's connect timeout counts from then too).
    func testTheCountdownWaitsForPermission() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games([GameListing(name: "alice", security: .open)])), .key(.enter),
            .network(.report(.connectionState(.waiting(.notAllowed("local network permission denied"))))),
            .wait(.seconds(1)), .wait(.seconds(1)), .wait(.seconds(1)), .wait(.seconds(1)),
            .network(.report(.discovery(.resolved(name: "alice", addresses: ["10.99.0.12:7990"])))),
            .wait(.seconds(1)),
        ])
        try runApp(terminal, network: network)
        let texts = terminal.frames.map(\.text)
        let waiting = texts.filter { $0.contains("Waiting: local network permission denied") }
        XCTAssertFalse(waiting.isEmpty, texts.last ?? "")
        XCTAssertTrue(waiting.allSatisfy { !$0.contains("Gives up in") }, waiting.last ?? "")
        XCTAssertNotNil(texts.first { $0.contains("Trying 10.99.0.12:7990…") && $0.contains("Gives up in 9 s") }, texts.last ?? "")
    }

    /// Until the person moves it, the cursor is on the top row, whichever game the list puts there: Down then goes
    /// to the second row, as the screen shows it.
    func testTheCursorStartsOnTheTopRowAsGamesArrive() throws {
        let network = FakeNetwork()
        let bob = GameListing(name: "bob", security: .open)
        let alice = GameListing(name: "alice", security: .open)
        let carol = GameListing(name: "carol", security: .open)
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games([bob])), .discovery(.games([bob, alice])), .discovery(.games([bob, alice, carol])),
            .key(.down), .key(.enter),
        ])
        try runApp(terminal, network: network)
        let listed = try XCTUnwrap(terminal.frames.first { $0.text.contains("3 games") })
        let rows = listed.text.split(separator: "\n", omittingEmptySubsequences: false)
        let highlighted = rows.indices.filter { row in listed.cells[row].contains { $0.style == .selected } }
        XCTAssertEqual(highlighted.map { rows[$0].trimmingCharacters(in: .whitespaces) }, ["alice"], listed.text)
        XCTAssertEqual(network.joined.map(\.address), ["bob"], "Down from the top row is the second row: bob")
    }

    /// Once moved, the cursor stays on its game as games come, go and change state around it; when its game leaves,
    /// it stays on the same row.
    func testTheCursorStaysOnItsGameAsTheListChanges() throws {
        let network = FakeNetwork()
        let open = { (name: String) in GameListing(name: name, security: .open) }
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games([open("alice"), open("carol")])), .key(.down),
            .discovery(.games([open("alice"), open("bob"), open("carol"), open("dave")])),
            .discovery(.games([open("aaron"), open("bob"), open("carol")])),
            .key(.enter),
        ])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.joined.map(\.address), ["carol"])
        let gone = FakeTerminal(script: [
            .keys("s"), .discovery(.games([open("alice"), open("bob"), open("carol")])), .key(.down),
            .discovery(.games([open("alice"), open("carol")])), .key(.enter),
        ])
        let goneNetwork = FakeNetwork()
        try runApp(gone, network: goneNetwork)
        XCTAssertEqual(goneNetwork.joined.map(\.address), ["carol"], "bob left: the cursor stays on its row")
    }

    func testEnterJoinsTheSelectedGameByNameAndStopsBrowsing() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games(games)), .key(.down), .key(.enter),
        ])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.joined.first?.address, "Zoë's game")
        XCTAssertTrue(network.browseHandles.first?.cancelled ?? false)
    }

    /// A service name from the LAN is listed escaped, and joined as listed (the join turns the escapes back, as
    /// `tictactoe join` does with a name `browse` printed).
    func testHostileServiceNamesAreListedEscapedAndJoinedAsListed() throws {
        let network = FakeNetwork()
        let hostile = [GameListing(name: "evil\u{1B}]0;pwned\u{07}\u{202E}", security: .open)]
        let terminal = FakeTerminal(script: [.keys("s"), .discovery(.games(hostile)), .key(.enter)])
        try runApp(terminal, network: network)
        let listed = terminal.frames.map(\.text).first { $0.contains("1 game") } ?? ""
        XCTAssertTrue(listed.contains(#"evil\x1b]0;pwned\x07\u202e"#), listed)
        XCTAssertEqual(network.joined.first?.address, #"evil\x1b]0;pwned\x07\u202e"#)
    }

    func testIncompatibleGamesAreNotJoined() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games(games)), .key(.down), .key(.down), .key(.enter),
        ])
        try runApp(terminal, network: network)
        XCTAssertTrue(network.joined.isEmpty)
        XCTAssertTrue(terminal.lastFrame.contains("cannot be joined: no protocol version"), terminal.lastFrame)
    }

    func testDaemonAbsentIsExplainedAndTheListComesBack() throws {
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games(games)), .discovery(.unavailable("Bonjour is unavailable: is avahi-daemon running? Try: sudo systemctl start avahi-daemon")),
        ])
        try runApp(terminal)
        XCTAssertTrue(terminal.lastFrame.contains("Bonjour is unavailable: is avahi-daemon running?"), terminal.lastFrame)
        XCTAssertFalse(terminal.lastFrame.contains("alice"), "stale results were kept")
        let back = FakeTerminal(script: [
            .keys("s"), .discovery(.unavailable("Bonjour is unavailable: is avahi-daemon running? Try: sudo systemctl start avahi-daemon")), .discovery(.available), .discovery(.games(games)),
        ])
        try runApp(back)
        XCTAssertTrue(back.lastFrame.contains("alice"), back.lastFrame)
    }

    func testLeavingSearchStopsTheBrowser() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [.keys("s"), .keys("q")])
        try runApp(terminal, network: network)
        XCTAssertTrue(network.browseHandles.first?.cancelled ?? false)
    }

    func testHostShowsTheAdvertisedName() throws {
        let terminal = FakeTerminal(script: [
            .keys("h"), .key(.enter), .network(.report(.listening(host: "0.0.0.0", port: 7878, name: "tester"))),
            .network(.report(.discovery(.advertised(name: "tester #2")))),
        ])
        try runApp(terminal)
        XCTAssertTrue(terminal.lastFrame.contains("Advertised as tester #2"), terminal.lastFrame)
    }
}
