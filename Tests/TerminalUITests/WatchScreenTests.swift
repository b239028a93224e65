import GameClient
import GameProtocol
import GameRules
import TerminalUI
import TerminalWidgets
import XCTest
import TextSupport

/// Spectators in the TUI: the host forms' Spectators row, the Search list's playing games, `w` and Watch a game, and
/// the read-only watch screen.
final class WatchScreenTests: XCTestCase {
    private func listing(_ name: String, security: GameSecurity = .open, playing: Bool, room: Int) -> GameListing {
        var game = GameListing(name: name, state: .joinable(security), host: "host-a.local", addresses: ["192.0.2.7"])
        game.playing = playing
        game.spectatorRoom = room
        return game
    }

    private func position(_ board: String, phase: WatchedMatch.Phase = .playing, winner: Mark? = nil,
                          ending: WatchedMatch.Ending = .none) -> WatchedMatch {
        WatchedMatch(hostName: "alice", joinerName: "bob", game: 1, hostMark: .x, firstMover: .x,
                     board: Board(board)!, phase: phase, winner: winner, ending: ending, hostWins: 0, joinerWins: 0,
                     draws: 0)
    }

    func testTheSearchListShowsPlayingGamesAndTheirRoomForSpectators() throws {
        let games = [
            listing("Alice's game", playing: true, room: 2),
            listing("Bob's game", playing: true, room: 0),
            listing("Carol's game", playing: false, room: 4),
        ]
        let terminal = FakeTerminal(script: [.keys("s"), .discovery(.games(games))])
        try runApp(terminal)
        XCTAssertTrue(terminal.lastFrame.contains("playing · 2 can watch"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("playing · no spectators"), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrame.contains("w watches"), terminal.lastFrame)
        // A game waiting for a joiner says nothing of spectators.
        let carol = terminal.lastFrame.split(separator: "\n").first { $0.contains("Carol's game") } ?? ""
        XCTAssertFalse(carol.contains("watch"), String(carol))
    }

    func testWOnAListedGameWatchesItAndTheScreenFollowsThePositions() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games([listing("Alice's game", playing: true, room: 2)])), .keys("w"),
            .network(.report(.watched(position("X........")))),
        ])
        let (app, _) = try runApp(terminal, network: network)
        XCTAssertEqual(network.watched.map(\.address), ["Alice's game"])
        XCTAssertEqual(network.watched.first?.code, nil)
        XCTAssertTrue(network.joined.isEmpty)
        XCTAssertTrue(network.browseHandles.last?.cancelled ?? false, "the search stops")
        guard case .watch(let watch) = app.model.screen else { return XCTFail("expected the watch screen") }
        XCTAssertEqual(watch.match?.board, Board("X........"))
        let words = terminal.lastFrameWords
        XCTAssertTrue(words.contains("X: alice O: bob"), words)
        XCTAssertTrue(words.contains("bob (O)'s turn"), words)
        XCTAssertTrue(words.contains("Game 1") && words.contains("Score: alice 0"), words)
        XCTAssertTrue(words.contains("Watching alice"), words)
        XCTAssertTrue(words.contains("q stops watching"), words)
    }

    func testKeysThatWouldPlayDoNothingAndTheEndSaysHow() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("w"), .keys("127.0.0.1:7878"), .key(.enter),
            .network(.report(.watched(position("XO.X.....")))),
            .keys("7"), .key(.enter), .key(.character(" ")), .keys("R"),
            .network(.report(.watched(position("XO.XO.X..", phase: .over, winner: .x, ending: .line)))),
            .network(.report(.watchEnded(.completed(by: .peer)))),
            .network(.finished(.success)),
        ])
        let (app, _) = try runApp(terminal, network: network)
        XCTAssertEqual(network.watched.map(\.address), ["127.0.0.1:7878"])
        XCTAssertEqual(network.handles.last?.sent, [], "nothing is played")
        guard case .watch(let watch) = app.model.screen else { return XCTFail("expected the watch screen") }
        XCTAssertEqual(watch.match?.board, Board("XO.XO.X.."))
        XCTAssertTrue(terminal.lastFrameWords.contains("The host is done."), terminal.lastFrame)
        XCTAssertTrue(terminal.lastFrameWords.contains("Enter or q back to the menu"), terminal.lastFrame)
        XCTAssertEqual(app.model.settings.addressHistory.first, "127.0.0.1:7878")
    }

    func testEnterGoesBackOnceItEndedAndAWatcherDroppedIsTold() throws {
        var model = AppModel(settings: UISettings(name: "tester"), size: TerminalSize(rows: 24, columns: 80), seed: 1)
        _ = model.handle(.key(.character("w")))
        for key in "127.0.0.1:7878" { _ = model.handle(.key(.character(key))) }
        XCTAssertEqual(model.handle(.key(.enter)).last, .checkNetwork(.watch(name: "tester", address: "127.0.0.1:7878")))
        XCTAssertEqual(model.handle(.gate(.exempt, .watch(name: "tester", address: "127.0.0.1:7878"), prompt: nil)),
                       [.watch(name: "tester", address: "127.0.0.1:7878", code: nil)])
        _ = model.handle(.network(.report(.watched(WatchedMatch(hostName: "alice")))))
        XCTAssertTrue(model.render(unicode: true).text.contains("Waiting for a player at alice"))
        XCTAssertEqual(model.handle(.key(.enter)), [], "Enter does nothing while it watches")
        _ = model.handle(.network(.report(.watchEnded(.peerLeft(nil)))))
        XCTAssertTrue(model.render(unicode: true).text.contains("The connection ended."))
        XCTAssertEqual(model.handle(.key(.enter)), [])
        guard case .menu = model.screen else { return XCTFail("expected the menu") }
    }

    func testQLeavesAtAnyTimeAndTheHostIsTold() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("w"), .keys("127.0.0.1:7878"), .key(.enter),
            .network(.report(.watched(position("X........")))), .keys("q"),
        ])
        let (app, _) = try runApp(terminal, network: network)
        XCTAssertEqual(network.handles.last?.cancelled, true, "cancel says bye to the host")
        guard case .menu(let menu) = app.model.screen else { return XCTFail("expected the menu") }
        XCTAssertEqual(menu.selected.shortcut, "w")
    }

    func testAPrivateGameAsksForItsCodeBeforeWatching() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("s"), .discovery(.games([listing("Alice's game", security: .private, playing: true, room: 1)])),
            .keys("w"), .keys("123456"), .key(.enter),
        ])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.watched.map(\.address), ["Alice's game"])
        XCTAssertEqual(network.watched.first?.code, "123456")
        // The code screen says it watches, not joins.
        let asked = try XCTUnwrap(terminal.frames.first { $0.text.contains("This game is private: enter its code") }).text
        XCTAssertTrue(asked.contains("Watching Alice's game as tester"), asked)
        XCTAssertTrue(asked.contains("Enter watches with this code"), asked)
        XCTAssertFalse(asked.contains("join"), asked)
    }

    /// A game won by resignation says who resigned and who wins.
    func testAResignationSaysWhoResignedAndWhoWins() throws {
        let terminal = FakeTerminal(script: [
            .keys("w"), .keys("127.0.0.1:7878"), .key(.enter),
            .network(.report(.watched(position("XO.X.....", phase: .over, winner: .x, ending: .resignation)))),
        ])
        try runApp(terminal)
        XCTAssertTrue(terminal.lastFrameWords.contains("bob (O) resigned: alice (X) wins."), terminal.lastFrame)
    }

    func testAWatchTurnedAwayForItsCodeAsksForIt() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("w"), .keys("127.0.0.1:7878"), .key(.enter),
            .network(.report(.error("hosts a private game", .wrongCode))), .keys("654321"), .key(.enter),
        ])
        try runApp(terminal, network: network)
        XCTAssertEqual(network.watched.map(\.code), [nil, "654321"])
    }

    func testTheHostFormsSpectatorsRowReachesTheRequestAndIsRemembered() throws {
        let network = FakeNetwork()
        let terminal = FakeTerminal(script: [
            .keys("h"), .key(.down), .key(.right), .key(.right), .key(.enter),
            .network(.report(.spectator(name: "eve", address: "192.0.2.9", joined: true, watching: 1))),
        ])
        let (app, _) = try runApp(terminal, network: network)
        XCTAssertEqual(network.hostedSpectators, [2])
        XCTAssertEqual(app.model.settings.spectators, 2)
        XCTAssertEqual(app.model.settings.stored.spectators, 2)
        XCTAssertTrue(terminal.lastFrame.contains("1 watching"), terminal.lastFrame)
        // The next form starts where this one was left.
        XCTAssertEqual(UISettings(stored: app.model.settings.stored, defaultName: "x").spectators, 2)
    }

    func testTheSpectatorsRowIsOffByDefaultAndCycles() throws {
        let terminal = FakeTerminal(script: [.keys("r"), .key(.tab)])
        let (app, _) = try runApp(terminal)
        guard case .form(let form) = app.model.screen else { return XCTFail("expected the form") }
        XCTAssertEqual(form.spectators, 0)
        XCTAssertTrue(terminal.lastFrame.contains("Spectators    < off >"), terminal.lastFrame)
        var seen: [Int] = []
        for count in 1...5 {
            let keys: [FakeTerminal.Step] = [.keys("r"), .key(.tab)] + Array(repeating: .key(.left), count: count)
            let (app, _) = try runApp(FakeTerminal(script: keys))
            guard case .form(let form) = app.model.screen else { return XCTFail("expected the form") }
            seen.append(form.spectators)
        }
        XCTAssertEqual(seen, [8, 4, 2, 1, 0])
        XCTAssertNil(UISettings(name: "x").stored.spectators, "off is not written")
    }

    func testTheWatchScreenFitsASmallWindowAndCutsWideNames() throws {
        var model = AppModel(settings: UISettings(name: "tester"), size: minimumSize, seed: 1)
        _ = model.handle(.key(.character("w")))
        for key in "127.0.0.1:7878" { _ = model.handle(.key(.character(key))) }
        _ = model.handle(.key(.enter))
        let wide = String(repeating: "名", count: 40)
        _ = model.handle(.network(.report(.watched(
            WatchedMatch(hostName: wide, joinerName: wide, game: 3, hostMark: .o, firstMover: .x,
                         board: Board("XO.......")!, phase: .playing, hostWins: 1, joinerWins: 1, draws: 0)))))
        let canvas = model.render(unicode: true)
        for line in canvas.text.split(separator: "\n", omittingEmptySubsequences: false) {
            XCTAssertLessThanOrEqual(DisplayWidth.of(String(line)), minimumSize.columns, String(line))
        }
        XCTAssertTrue(canvas.text.contains("X"), canvas.text)
    }
}
