import Foundation
import XCTest
import TicTacToeTestSupport

/// The real full-screen UI in real terminals (tmux).
final class TUITests: XCTestCase {
    func testAWholeGameAgainstTheComputerShowsTheResult() throws {
        let tmux = try Tmux()
        try tmux.start("solo", tuiCommand("--name solo"))
        XCTAssertNotNil(tmux.waitFor("solo", text: "Play against the computer"), tmux.screen("solo"))
        try tmux.keys("solo", "p")
        XCTAssertNotNil(tmux.waitFor("solo", text: "Score: you 0"), tmux.screen("solo"))
        // Try the cells in turn, each when it is our turn: the game must end.
        let screen = try XCTUnwrap(tmux.playUntilOver("solo", over: "Press r for a rematch"), tmux.screen("solo"))
        XCTAssertTrue(screen.contains("The computer wins") || screen.contains("Draw."), screen)
        XCTAssertFalse(screen.contains("You win"), "the perfect computer lost:\n\(screen)")
        XCTAssertTrue(screen.contains("┼"), "no box drawing in a UTF-8 locale:\n\(screen)")
        try tmux.keys("solo", "r")
        XCTAssertNotNil(tmux.waitFor("solo", text: "Game 2"), tmux.screen("solo"))
    }

    func testHostAndJoinPlayARematchAndTheScoresAgree() throws {
        let tmux = try Tmux()
        try tmux.start("host", tuiCommand("--name alice"))
        try tmux.start("join", tuiCommand("--name bob"))
        XCTAssertNotNil(tmux.waitFor("host", text: "Host a game"))
        // No event loop runs before the network is needed, and a host runs one (`EventLoops`; on a one-core machine
        // SwiftNIO's own default is one too, so only a machine with more cores tells the two apart).
        let hostPID = try XCTUnwrap(tmux.panePID("host"))
        XCTAssertEqual(eventLoopThreads(ofChildOf: hostPID), 0, "event loops started before anything needed them")
        try tmux.keys("host", "h")
        XCTAssertNotNil(tmux.waitFor("host", text: "Port"))
        try tmux.keys("host", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.literal("host", "0")
        try tmux.keys("host", "Enter")
        // Deferred prompting: hosting on the LAN is the first thing that needs the local network.
        let prompt = try XCTUnwrap(tmux.waitFor("host", text: "[ OK ]"), tmux.screen("host"))
        let words = screenWords(prompt)
        XCTAssertTrue(words.contains("“TicTacToe” would like to find and connect to devices on your local network."), prompt)
        XCTAssertTrue(words.contains("TicTacToe uses the local network to discover players around you."), prompt)
        try tmux.keys("host", "o")
        let waiting = try XCTUnwrap(tmux.waitFor("host", text: "Waiting for someone to join on port"), tmux.screen("host"))
        let port = try XCTUnwrap(waiting.range(of: #"port (\d+)"#, options: .regularExpression).map {
            String(waiting[$0].dropFirst(5))
        })
        XCTAssertEqual(eventLoopThreads(ofChildOf: hostPID), 1, "a host runs one event loop")
        XCTAssertNotNil(tmux.waitFor("join", text: "Join by address"))
        try tmux.keys("join", "a")
        XCTAssertNotNil(tmux.waitFor("join", text: "Address"))
        try tmux.literal("join", "127.0.0.1:\(port)")
        try tmux.keys("join", "Enter")
        XCTAssertNotNil(tmux.waitFor("join", text: "Your turn (X)"), tmux.screen("join"))
        XCTAssertNotNil(tmux.waitFor("host", text: "bob's turn"), tmux.screen("host"))

        // Game 1: bob (X) takes the top row.
        for (pane, cell, next) in [("join", "1", "host"), ("host", "4", "join"), ("join", "2", "host"), ("host", "5", "join")] {
            try tmux.keys(pane, cell)
            XCTAssertNotNil(tmux.waitFor(next, text: "Your turn"), tmux.screen(next))
        }
        try tmux.keys("join", "3")
        XCTAssertNotNil(tmux.waitFor("join", text: "You win!"), tmux.screen("join"))
        XCTAssertNotNil(tmux.waitFor("host", text: "bob wins."), tmux.screen("host"))

        // Rematch: both ask; game 2 has alice as X.
        try tmux.keys("host", "r")
        XCTAssertNotNil(tmux.waitFor("join", text: "alice wants a rematch"), tmux.screen("join"))
        try tmux.keys("join", "r")
        XCTAssertNotNil(tmux.waitFor("host", text: "Game 2"), tmux.screen("host"))
        XCTAssertNotNil(tmux.waitFor("host", text: "Your turn (X)"), tmux.screen("host"))
        for (pane, cell, next) in [("host", "1", "join"), ("join", "4", "host"), ("host", "2", "join"), ("join", "5", "host")] {
            try tmux.keys(pane, cell)
            XCTAssertNotNil(tmux.waitFor(next, text: "Your turn"), tmux.screen(next))
        }
        try tmux.keys("host", "3")
        let hostScreen = try XCTUnwrap(tmux.waitFor("host", text: "You win!"), tmux.screen("host"))
        let joinScreen = try XCTUnwrap(tmux.waitFor("join", text: "alice wins."), tmux.screen("join"))
        XCTAssertTrue(hostScreen.contains("Score: you 1 · bob 1 · draws 0"), hostScreen)
        XCTAssertTrue(joinScreen.contains("Score: you 1 · alice 1 · draws 0"), joinScreen)
    }

    func testCtrlCLeavesAUsableTerminalAndTheOpponentSeesItLeft() throws {
        let tmux = try Tmux()
        try tmux.start("host", tuiCommand("--name alice"))
        // The joiner runs from a shell, so the shell's terminal can be checked after Ctrl-C.
        try tmux.start("join", "env PS1='$ ' bash --norc --noprofile")
        XCTAssertNotNil(tmux.waitFor("host", text: "Host a game"))
        // No event loop runs before the network is needed, and a host runs one (`EventLoops`; on a one-core machine
        // SwiftNIO's own default is one too, so only a machine with more cores tells the two apart).
        let hostPID = try XCTUnwrap(tmux.panePID("host"))
        XCTAssertEqual(eventLoopThreads(ofChildOf: hostPID), 0, "event loops started before anything needed them")
        try tmux.keys("host", "h")
        try tmux.keys("host", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.literal("host", "0")
        try tmux.keys("host", "Enter")
        XCTAssertNotNil(tmux.waitFor("host", text: "[ OK ]"), tmux.screen("host"))
        try tmux.keys("host", "o")
        let waiting = try XCTUnwrap(tmux.waitFor("host", text: "Waiting for someone to join on port"))
        let port = try XCTUnwrap(waiting.range(of: #"port (\d+)"#, options: .regularExpression).map {
            String(waiting[$0].dropFirst(5))
        })
        XCTAssertEqual(eventLoopThreads(ofChildOf: hostPID), 1, "a host runs one event loop")
        try tmux.literal("join", tuiCommand("--name bob"))
        try tmux.keys("join", "Enter")
        XCTAssertNotNil(tmux.waitFor("join", text: "Join by address"), tmux.screen("join"))
        try tmux.keys("join", "a")
        try tmux.literal("join", "127.0.0.1:\(port)")
        try tmux.keys("join", "Enter")
        XCTAssertNotNil(tmux.waitFor("join", text: "Your turn (X)"), tmux.screen("join"))
        try tmux.keys("join", "5")
        XCTAssertNotNil(tmux.waitFor("host", text: "Your turn (O)"))

        try tmux.keys("join", "C-c")
        XCTAssertNotNil(tmux.waitFor("host", text: "left before the match was over."), tmux.screen("host"))
        try assertUsableShell(tmux, "join", exitStatus: 130)
    }

    /// Every other way out gives the terminal back too: q on the menu, SIGTERM, SIGHUP (each with its exit code).
    func testEveryWayOutRestoresTheTerminal() throws {
        let tmux = try Tmux()
        try tmux.start("shell", "env PS1='$ ' bash --norc --noprofile")
        XCTAssertNotNil(tmux.waitFor("shell") { $0.hasPrefix("$") }, tmux.screen("shell"))  // tmux trims the space
        let shell = try XCTUnwrap(tmux.panePID("shell"))
        for (way, status) in [("q", Int32(0)), ("SIGTERM", 143), ("SIGHUP", 143)] {
            try tmux.run(["clear-history", "-t", "shell"])
            try tmux.keys("shell", "C-l")
            try tmux.literal("shell", tuiCommand("--name \(way)"))
            try tmux.keys("shell", "Enter")
            XCTAssertNotNil(tmux.waitFor("shell", text: "Play against the computer"), "\(way): \(tmux.screen("shell"))")
            switch way {
            case "q": try tmux.keys("shell", "q")
            default:
                guard let game = Int32(paneProcess(shell)), game != shell else {
                    return XCTFail("no game process under the shell for \(way)")
                }
                kill(game, way == "SIGTERM" ? SIGTERM : SIGHUP)
            }
            try assertUsableShell(tmux, "shell", exitStatus: status, after: way)
        }
    }

    /// A terminal made smaller is drawn again at its new size: the menu centred in it, nothing cut off.
    func testAResizedTerminalIsDrawnAgainAtItsNewSize() throws {
        let tmux = try Tmux()
        try tmux.start("resize", tuiCommand("--name resize"), columns: 100, rows: 30)
        let wide = try XCTUnwrap(tmux.waitFor("resize", text: "Play against the computer"), tmux.screen("resize"))
        let wideIndent = try XCTUnwrap(Self.indent(of: "Play against the computer", in: wide), wide)
        try tmux.run(["resize-window", "-t", "resize", "-x", "60", "-y", "24"])
        let narrow = try XCTUnwrap(tmux.waitFor("resize") { screen in
            Self.indent(of: "Play against the computer", in: screen).map { $0 < wideIndent } ?? false
        }, "the menu was not drawn again for 60 columns:\n\(tmux.screen("resize"))")
        XCTAssertTrue(narrow.contains("Quit"), "the menu was cut off:\n\(narrow)")
        try tmux.keys("resize", "p")
        XCTAssertNotNil(tmux.waitFor("resize", text: "Score: you 0"), "the game did not start after the resize:\n"
            + tmux.screen("resize"))
    }

    /// On a terminal `tictactoe replay FILE` opens the viewer (through a pipe it prints the game as text:
    /// `ReplayCommandTests`); → steps, q quits with 0.
    func testReplayOnATerminalOpensTheViewer() throws {
        let record = Scratch.path("tictactoe-replay-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        try topRowWinRecord.write(toFile: record, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: record) }
        let tmux = try Tmux()
        try tmux.start("replay", "env PS1='$ ' bash --norc --noprofile")
        XCTAssertNotNil(tmux.waitFor("replay") { $0.hasPrefix("$") }, tmux.screen("replay"))
        try tmux.literal("replay", tuiCommand("replay \(record)"))
        try tmux.keys("replay", "Enter")
        XCTAssertNotNil(tmux.waitFor("replay", text: "move 0 of 5"), "no viewer:\n\(tmux.screen("replay"))")
        try tmux.keys("replay", "Right")
        XCTAssertNotNil(tmux.waitFor("replay", text: "Move 1 of 5"), tmux.screen("replay"))
        try tmux.keys("replay", "q")
        try assertUsableShell(tmux, "replay", exitStatus: 0, after: "the viewer's q")
    }

    /// The column where `text` starts on the screen, or nil when it is not shown.
    private static func indent(of text: String, in screen: String) -> Int? {
        for line in screen.split(separator: "\n") {
            if let range = line.range(of: text) { return line.distance(from: line.startIndex, to: range.lowerBound) }
        }
        return nil
    }

    /// Back at the shell in `pane` once the game ended with `exitStatus`: the shell echoes what is typed and runs
    /// it, stty shows a sane line discipline (echo and icanon on), and the game's screen is gone.
    private func assertUsableShell(
        _ tmux: Tmux, _ pane: String, exitStatus: Int32, after way: String = "Ctrl-C",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        // The game has ended when the pane's shell has no child left: only then is what is typed the shell's.
        let shell = try XCTUnwrap(tmux.panePID(pane), "no pane \(pane)", file: file, line: line)
        guard eventually(timeout: 15, { paneProcess(shell) == String(shell) }) else {
            return XCTFail("after \(way) the game still runs:\n\(tmux.screen(pane))", file: file, line: line)
        }
        try tmux.literal(pane, "echo status-$? ok-$((40+2)); stty -a | tr ' ' '\\n' | grep -x -e echo -e icanon | tr '\\n' ,; echo")
        try tmux.keys(pane, "Enter")
        // Both outputs must arrive (the stty line a moment after ok-42).
        let screen = try XCTUnwrap(
            tmux.waitFor(pane) { $0.contains("ok-42") && ($0.contains("icanon,echo,") || $0.contains("echo,icanon,")) },
            "after \(way) the shell did not echo and run the command with echo and icanon on:\n\(tmux.screen(pane))",
            file: file, line: line)
        XCTAssertTrue(screen.contains("status-\(exitStatus) ok-42"), "after \(way): \(screen)", file: file, line: line)
        XCTAssertFalse(screen.contains("TicTacToe"), "after \(way) the game's screen was left behind:\n\(screen)",
                       file: file, line: line)
    }

    func testIdleUIUsesNoCPU() throws {
        let tmux = try Tmux()
        try tmux.start("idle", tuiCommand("--name idle"))
        XCTAssertNotNil(tmux.waitFor("idle", text: "Play against the computer"))
        // The figure is written to the test log; tests assert behaviour, not speed: it must simply not spin.
        guard let shell = tmux.panePID("idle") else { return XCTFail("no pane pid") }
        let ticks = cpuTicks(ofChildOf: shell)
        sleep(3)
        let after = cpuTicks(ofChildOf: shell)
        print("idle TUI on the menu: \(after - ticks) CPU ticks (1/100 s) over 3 s")
        XCTAssertLessThan(after - ticks, 150, "the idle UI busy-loops")
    }

    /// Each frame reaches the terminal in one write: ncurses 6.4 wrote out every cursor movement while a
    /// screen was in its initial state, so the menu went out in 20 writes and a move of the selection in 4 (a
    /// terminal could show half a frame). `CursesTerminal.start` ends that state before the first frame.
    func testEachFrameIsOneWrite() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            return XCTFail("strace is missing: run `make deps`")
        }
        let trace = Scratch.path("tictactoe-frames-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt")
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let tmux = try Tmux()
        try tmux.start("frames", "strace -f -s 8192 -e trace=read,write -e signal=none -o \(trace) "
            + tuiCommand("--name frames"))
        XCTAssertNotNil(tmux.waitFor("frames", text: "Quit"), tmux.screen("frames"))
        // The menu's writes and reads of the terminal ("PID write(1, \"…\", N) = N"), as strace wrote them so far; a
        // call another thread's interrupted is split in two lines, the second "<... read resumed>\"j\", 1)  = 1".
        func calls() -> [String] {
            ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                .filter { $0.contains(" write(1, ") || $0.contains(" read(0, ") || $0.contains("read resumed>") }
        }
        let keyJ = #""j", 1)"#, keyQ = #""q", 1)"#
        // Down once, and wait until the frame it draws has been written (a write after the key's read).
        try tmux.keys("frames", "j")
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, !(calls().drop { !$0.contains(keyJ) }.contains { $0.contains(" write(1, ") }) {
            usleep(20_000)
        }
        try tmux.keys("frames", "q")
        _ = tmux.waitFor("frames", timeout: 10) { !$0.contains("Quit") }
        let lines = calls()
        let menu = lines.filter { $0.contains(" write(1, ") && $0.contains("Quit") }
        XCTAssertEqual(menu.count, 1, "the menu's last item was written more than once: \(lines)")
        XCTAssertTrue(menu.first.map { $0.contains("TicTacToe") && $0.contains("Play against the computer") } ?? false,
                      "the menu's first frame came in more than one write: \(lines)")
        let afterDown = lines.drop { !$0.contains(keyJ) }.dropFirst().prefix { !$0.contains(keyQ) }
        XCTAssertFalse(afterDown.isEmpty, "strace did not see the j key read: \(lines)")
        XCTAssertEqual(afterDown.filter { $0.contains(" write(1, ") }.count, 1,
                       "moving the selection was not one write: \(Array(afterDown))")
    }

    /// The process a pane runs: the shell's child, or the shell itself when it exec'd the command.
    private func paneProcess(_ pid: Int32) -> String {
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.map(String.init) ?? String(pid)
    }

    /// Threads of SwiftNIO's shared group ("NIO-SGLTN-…") in the pane's process.
    private func eventLoopThreads(ofChildOf pid: Int32) -> Int {
        let target = paneProcess(pid)
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(target)/task")) ?? []
        return tasks.filter {
            ((try? String(contentsOfFile: "/proc/\(target)/task/\($0)/comm", encoding: .utf8)) ?? "").hasPrefix("NIO-SGLTN")
        }.count
    }

    private func cpuTicks(ofChildOf pid: Int32) -> Int {
        let target = paneProcess(pid)
        guard let stat = try? String(contentsOfFile: "/proc/\(target)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)  // utime, stime
    }
}
