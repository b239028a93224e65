import Foundation
import TicTacToeTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Every LAN entry point is gated: with local network access not determined (no terminal, so a headless command
/// waits; the TUI shows the prompt) or denied, it makes no call to Avahi and opens no socket beyond loopback, and it
/// goes ahead once access is granted.
///
/// The entry points: headless `host` (default bind: `::`, dual-stack), `browse`, `join NAME`, `join ADDRESS:PORT`,
/// and in the TUI Host a game, Search for games, Join by address (an address, or a Bonjour name typed into the
/// same form) and the rematch. The witnesses, sampled every 250 ms for 1.5 s while it waits:
/// - the host's own system bus: `dbus-monitor` records every method call to org.freedesktop.Avahi from any process
///   on that host (Bonjour on Linux is libdns_sd over Avahi's D-Bus API: a browse or a registration is a call);
/// - the process's TCP and UDP sockets in the host's namespace (`ss -tuanpH`, by pid): no listener on `*`, `::`,
///   `0.0.0.0` or the lab address, no connection to another host;
/// - the process's unix sockets in the host's namespace: none at all (not even a connection to the D-Bus); for a
///   TUI, started by tmux with no inherited descriptors, every descriptor: no socket of any kind.
///
/// Then it is let go: headless commands and a denied TUI by `tictactoe privacy grant` in another process (they must
/// notice by themselves), a TUI that shows the prompt by OK. Sampling cannot see a socket opened and closed between
/// two samples (a DNS lookup, say): these tests use IP literals and Bonjour names, never DNS names.
///
/// Everything runs on host-b (198.18.0.12); host-a (198.18.0.11) serves the games to join and publishes the games to
/// find, with access granted. Each test takes a fresh decision directory (TICTACTOE_CONFIG_DIR).
final class GatedEntryPointLabTests: LabTestCase {
    override class var labHosts: [String] { ["host-a", "host-b"] }


    /// The two states in which nothing may reach the LAN.
    enum Undecided: String {
        case notDetermined = "not determined"
        case denied

        /// What the waiting reason says.
        var reason: String {
            self == .denied ? "local network permission denied" : "local network permission not determined"
        }
    }

    // MARK: Helpers

    /// A new decision directory in `state` (denied: `tictactoe privacy deny` ran there).
    private func decisionDirectory(_ state: Undecided, file: StaticString = #filePath, line: UInt = #line) -> String {
        let path = Scratch.path("tictactoe-lab-gated-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        scratchPaths.append(path)
        if state == .denied {
            let (status, output) = privacy(path, ["deny"])
            XCTAssertEqual(status, 0, "privacy deny: \(output)", file: file, line: line)
        }
        return path
    }

    /// `tictactoe privacy ARGS` on `host` with the decision in `config`: what a person runs in another terminal.
    @discardableResult
    private func privacy(on host: String = "host-b", _ config: String, _ arguments: [String]) -> (Int32, String) {
        Lab.run(["exec", host, "--", "env", "TICTACTOE_CONFIG_DIR=\(config)",
                 "XDG_STATE_HOME=\(Lab.appStateDirectory)", tictactoeBinary, "privacy"] + arguments)
    }

    /// `tictactoe privacy grant` for `config`; returns when it has exited.
    private func grant(_ config: String, file: StaticString = #filePath, line: UInt = #line)
        -> ContinuousClock.Instant
    {
        let (status, output) = privacy(config, ["grant"])
        XCTAssertEqual(status, 0, "privacy grant: \(output)", file: file, line: line)
        return .now
    }

    private func avahiMonitor(on host: String = "host-b") throws -> LabProcess {
        track(try Lab.avahiCallMonitor(on: host))
    }

    /// Watches `pid` on `host` for `seconds` while it waits for permission: no call to Avahi on the host's bus, no
    /// TCP or UDP socket of the process beyond loopback, and with `noSocketsAtAll` no unix socket made on the host
    /// either (the D-Bus) and, for a TUI (`allDescriptors`), no socket descriptor of any kind. Fails with what was
    /// seen.
    private func assertNothingReachesTheLAN(
        pid: pid_t, on host: String = "host-b", monitor: LabProcess, seconds: Double = 1.5, noSocketsAtAll: Bool,
        allDescriptors: Bool = false, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        var lanSockets: [String] = []
        var descriptors: [String] = []
        var samples = 0
        let deadline = Date().addingTimeInterval(seconds)
        func note(_ found: [String], in list: inout [String]) {
            for item in found where !list.contains(item) { list.append(item) }
        }
        repeat {
            samples += 1
            note(Lab.nonLoopbackSockets(of: pid, on: host).map(\.line), in: &lanSockets)
            if noSocketsAtAll { note(Lab.unixSockets(of: pid, on: host), in: &descriptors) }
            if allDescriptors { note(Lab.socketDescriptors(of: pid), in: &descriptors) }
            usleep(250_000)
        } while Date() < deadline
        XCTAssertTrue(FileManager.default.fileExists(atPath: "/proc/\(pid)"),
                      "\(what): pid \(pid) is gone, so the checks saw nothing", file: file, line: line)
        XCTAssertEqual(avahiMethodCalls(monitor), [], "\(what): calls to Avahi on \(host)'s bus", file: file, line: line)
        XCTAssertEqual(lanSockets, [], "\(what): sockets of pid \(pid) beyond loopback (\(samples) samples of ss)",
                       file: file, line: line)
        if noSocketsAtAll {
            XCTAssertEqual(descriptors, [], "\(what): sockets of pid \(pid) (\(samples) samples)",
                           file: file, line: line)
        }
    }

    /// Waits until the monitor has seen a call to each of `members`; returns the members seen.
    @discardableResult
    private func waitForAvahiCalls(
        _ members: [String], monitor: LabProcess, timeout: TimeInterval = 10, _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Set<String> {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = Set(avahiMembers(avahiMethodCalls(monitor)))
        while !Set(members).isSubset(of: seen), Date() < deadline {
            usleep(100_000)
            seen = Set(avahiMembers(avahiMethodCalls(monitor)))
        }
        XCTAssertTrue(Set(members).isSubset(of: seen),
                      "\(what): expected Avahi calls \(members), saw \(seen.sorted()): \(avahiMethodCalls(monitor))",
                      file: file, line: line)
        return seen
    }

    /// A headless command on host-b with the decision in `config`: waits for its `waiting` state (saying why).
    private func startWaitingCommand(
        _ arguments: [String], config: String, _ state: Undecided, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (LabProcess, waitingIndex: Int) {
        let process = try tictactoe(on: "host-b", arguments, environment: ["TICTACTOE_CONFIG_DIR": config])
        let waiting = try XCTUnwrap(
            process.waitForEvent("state", timeout: 15) { $0["state"] as? String == "waiting" },
            "\(arguments.prefix(2)) (\(state.rawValue)) did not wait: \(process.output) \(process.standardError)",
            file: file, line: line)
        let reason = waiting.event["reason"] as? String ?? ""
        XCTAssertTrue(reason.contains(state.reason), "waiting reason: \(reason)", file: file, line: line)
        return (process, waiting.index)
    }

    // MARK: TUI helpers

    private func startTUI(_ session: String, config: String, _ arguments: [String] = ["--name", "bob"]) throws -> LabTUI {
        if tmux == nil { tmux = try Tmux.lab() }
        let tui = try LabTUI(tmux: tmux!, session: session, on: "host-b", configDirectory: config, arguments: arguments)
        tuis.append(tui)
        guard tui.waitFor("Play against the computer") != nil else {
            XCTFail("the TUI did not show its menu:\n\(tui.screen)\nlog:\n\(tui.log)")
            throw Lab.LabError.failed("no menu")
        }
        return tui
    }

    /// The TUI's ways onto the LAN, from its menu.
    enum TUIEntry {
        case host
        case search
        /// Join by address with an address, or with a Bonjour name typed into the same form (`byName`: the form says
        /// it looks like a game name, and s searches for it).
        case join(String, byName: Bool = false)
    }

    private func open(_ entry: TUIEntry, in tui: LabTUI, file: StaticString = #filePath, line: UInt = #line) throws {
        switch entry {
        case .host:
            try tui.keys("h")
            XCTAssertNotNil(tui.waitFor("Port"), "no host form:\n\(tui.screen)", file: file, line: line)
            try tui.keys("Enter")  // the default port, 7878
        case .search:
            try tui.keys("s")
        case .join(let target, let byName):
            try tui.keys("a")
            XCTAssertNotNil(tui.waitFor("Address (host:port)"), "no join form:\n\(tui.screen)", file: file, line: line)
            try tui.literal(target)
            try tui.keys("Enter")
            if byName {
                XCTAssertNotNil(tui.waitFor("press s to search"), "no offer to search:\n\(tui.screen)", file: file,
                                line: line)
                try tui.keys("s")
            }
        }
    }

    /// Opens `entry` in a new TUI on host-b with a decision in `state`; returns once it waits: the prompt (not
    /// determined) or the waiting line (denied), after checking for 1.5 s that nothing reached the LAN.
    private func openAndCheckWaiting(
        _ entry: TUIEntry, _ state: Undecided, monitor: LabProcess, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (LabTUI, config: String) {
        let config = decisionDirectory(state, file: file, line: line)
        let tui = try startTUI("gated", config: config)
        let pid = try XCTUnwrap(tui.findPID(), "no TUI process on host-b", file: file, line: line)
        try open(entry, in: tui, file: file, line: line)
        switch state {
        case .notDetermined:
            let screen = try XCTUnwrap(tui.waitFor("[ OK ]"), "no prompt for \(entry):\n\(tui.screen)",
                                       file: file, line: line)
            XCTAssertTrue(screen.contains("Don't Allow"), screen, file: file, line: line)
        case .denied:
            // Search says it as a sentence ("Local network permission denied: …"), a join after "Waiting: ".
            let screen = try XCTUnwrap(tui.waitFor { screenWords($0).lowercased().contains(state.reason) },
                                       "\(entry) does not say it waits:\n\(tui.screen)", file: file, line: line)
            XCTAssertFalse(screen.contains("[ OK ]"), "a prompt although denied:\n\(screen)", file: file, line: line)
        }
        // A TUI has its terminal but no socket (PrivacyLabTests checks that at launch): still none while it waits.
        assertNothingReachesTheLAN(pid: pid, monitor: monitor, noSocketsAtAll: true, allDescriptors: true,
                                   "TUI \(entry), \(state.rawValue)", file: file, line: line)
        XCTAssertTrue(tui.isRunning, "the TUI died:\n\(tui.screen)", file: file, line: line)
        return (tui, config)
    }

    /// Lets the waiting TUI go on: OK on the prompt (not determined), or `tictactoe privacy grant` in another
    /// process (denied: the TUI must notice by itself).
    private func allow(_ tui: LabTUI, config: String, _ state: Undecided) throws {
        switch state {
        case .notDetermined: try tui.keys("o")
        case .denied: _ = grant(config)
        }
    }

    // MARK: Headless host (default bind: every interface)

    func testHeadlessHostNotDeterminedWaitsWithoutListeningOrAvahiUntilGranted() throws {
        try headlessHost(.notDetermined)
    }

    func testHeadlessHostDeniedWaitsWithoutListeningOrAvahiUntilGranted() throws {
        try headlessHost(.denied)
    }

    private func headlessHost(_ state: Undecided, file: StaticString = #filePath, line: UInt = #line) throws {
        let monitor = try avahiMonitor()
        let config = decisionDirectory(state)
        let (host, waitingIndex) = try startWaitingCommand(
            ["host", "--headless", "--json", "--name", "gated-host", "--port", "0"], config: config, state,
            file: file, line: line)
        let pid = host.pid
        assertNothingReachesTheLAN(pid: pid, monitor: monitor, noSocketsAtAll: true, "headless host, \(state.rawValue)",
                                   file: file, line: line)
        XCTAssertTrue(host.events(named: "listening").isEmpty, "listening before permission: \(host.output)",
                      file: file, line: line)

        let granted = grant(config, file: file, line: line)
        let listening = try XCTUnwrap(host.waitForEvent("listening", from: waitingIndex + 1, timeout: 10),
                                      "the host did not go on after the grant: \(host.output) \(host.standardError)",
                                      file: file, line: line)
        print(String(format: "grant → host listening: %.0f ms", listening.time.milliseconds(since: granted)))
        let port = try XCTUnwrap(listening.event["port"] as? Int, "\(listening.event)", file: file, line: line)
        XCTAssertNotNil(host.waitForEvent("advertised", timeout: 10), "not advertised: \(host.output)",
                        file: file, line: line)
        waitForAvahiCalls(["EntryGroupNew", "AddService"], monitor: monitor, "headless host after the grant",
                          file: file, line: line)
        // Now it listens beyond loopback (the socket check sees it): on every interface, `::` dual-stack.
        let listeners = Lab.sockets(of: pid, on: "host-b").filter(\.isListening)
        XCTAssertTrue(listeners.contains { !$0.isLoopbackOnly && $0.local.hasSuffix(":\(port)") },
                      "no listener on every interface: \(listeners)", file: file, line: line)
        print("host listeners after the grant: \(listeners.map(\.line))")
        // The unix socket check sees the D-Bus connection now that it advertises.
        XCTAssertFalse(Lab.unixSockets(of: pid, on: "host-b").isEmpty, "no unix socket seen while advertising",
                       file: file, line: line)
        // And serves the LAN: a joiner on host-a, by IPv4 address.
        let joiner = try tictactoe(on: "host-a", ["join", "\(Lab.address(of: "host-b")):\(port)", "--headless",
                                                  "--json", "--name", "alice"])
        XCTAssertEqual(joiner.waitForExit(timeout: 30), 0, "\(joiner.output) \(joiner.standardError)",
                       file: file, line: line)
        XCTAssertEqual(host.waitForExit(timeout: 20), 0, "\(host.output) \(host.standardError)", file: file, line: line)
    }

    func testHeadlessHostBoundToItsLabAddressWaitsUntilGranted() throws {
        let monitor = try avahiMonitor()
        let config = decisionDirectory(.notDetermined)
        let address = Lab.address(of: "host-b")
        let (host, waitingIndex) = try startWaitingCommand(
            ["host", "--headless", "--json", "--name", "gated-bound", "--port", "0", "--bind", address],
            config: config, .notDetermined)
        let pid = host.pid
        assertNothingReachesTheLAN(pid: pid, monitor: monitor, noSocketsAtAll: true, "host --bind \(address)")
        _ = grant(config)
        let listening = try XCTUnwrap(host.waitForEvent("listening", from: waitingIndex + 1, timeout: 10),
                                      "\(host.output) \(host.standardError)")
        let port = listening.event["port"] as? Int ?? -1
        let listeners = Lab.sockets(of: pid, on: "host-b").filter(\.isListening)
        XCTAssertEqual(listeners.map(\.local), ["\(address):\(port)"], "\(listeners)")
        XCTAssertNotNil(host.waitForEvent("advertised", timeout: 10), "not advertised: \(host.output)")
    }

    func testAMatchOverItsLabAddressWaitsUntilGrantedThenPlaysEveryGameOverThatAddress() throws {
        let monitor = try avahiMonitor()
        let config = decisionDirectory(.notDetermined)
        let address = Lab.address(of: "host-b")
        let log = Scratch.path("tictactoe-lab-match-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log")
        scratchPaths.append(log)
        let arguments = ["match", "--player", "perfect", "--player", "easy", "--games", "6", "--seed", "3", "--json"]
        let match = try tictactoe(
            on: "host-b", arguments + ["--over", address, "--log-file", log],
            environment: ["TICTACTOE_CONFIG_DIR": config])
        let deadline = Date().addingTimeInterval(15)
        while !match.standardError.contains("waiting for local network permission"), Date() < deadline { usleep(50_000) }
        XCTAssertTrue(match.standardError.contains(
            "tictactoe: waiting for local network permission: \(Undecided.notDetermined.reason)"), match.standardError)
        let pid = match.pid
        assertNothingReachesTheLAN(pid: pid, monitor: monitor, noSocketsAtAll: true, "match --over \(address)")
        XCTAssertEqual(match.output, [#"{"event":"seed","seed":3}"#], "nothing played before the permission")
        _ = grant(config)
        XCTAssertEqual(match.waitForExit(timeout: 60), 0, "\(match.output) \(match.standardError)")
        let games = match.output.filter { $0.contains(#""event":"match-game""#) }
        XCTAssertEqual(games.count, 6, "\(match.output)")
        // The same games as in process, and each one's host listened on the lab address and its joiner connected there.
        let local = try tictactoe(on: "host-b", arguments, environment: ["TICTACTOE_CONFIG_DIR": config])
        XCTAssertEqual(local.waitForExit(timeout: 60), 0, local.standardError)
        XCTAssertEqual(games, local.output.filter { $0.contains(#""event":"match-game""#) })
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("listening on \(address):") }.count, 6, "\(lines.suffix(20))")
        // One connection a game, counted, not told apart by port: the system may give a later game's listener a port
        // an earlier game used (it did: 32865 twice in six games).
        let connections = lines.filter { $0.contains("tictactoe match --over: connect to \(address):") }
        XCTAssertEqual(connections.count, 6, "a connection to the lab address for each game: \(lines.suffix(20))")
        XCTAssertEqual(avahiMethodCalls(monitor), [], "a match never advertises")
    }

    // MARK: A loopback host: no permission needed, never advertised

    func testALoopbackHostMakesNoAvahiCallAndSaysWhyItIsNotAdvertised() throws {
        // Granted: it could advertise, but nobody on the LAN could join 127.0.0.1.
        try loopbackHost(config: Lab.grantedConfigDirectory, "granted")
    }

    func testALoopbackHostNeedsNoPermissionWhenDenied() throws {
        try loopbackHost(config: decisionDirectory(.denied), "denied")
    }

    private func loopbackHost(config: String, _ state: String, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let monitor = try avahiMonitor()
        let host = try tictactoe(on: "host-b", ["host", "--headless", "--bind", "127.0.0.1", "--json", "--name",
                                                "loopy", "--port", "0"],
                                 environment: ["TICTACTOE_CONFIG_DIR": config])
        let listening = try XCTUnwrap(host.waitForEvent("listening", timeout: 10),
                                      "a loopback host (\(state)) did not listen: \(host.output) \(host.standardError)",
                                      file: file, line: line)
        let port = listening.event["port"] as? Int ?? -1
        let unavailable = try XCTUnwrap(host.events(named: "advertising-unavailable").first,
                                        "no advertising-unavailable event: \(host.output)", file: file, line: line)
        let message = unavailable["message"] as? String ?? ""
        XCTAssertEqual(message, "the host listens on 127.0.0.1 only, so nobody else could join it: use the default "
                       + "--bind (every interface) to be found on the local network", file: file, line: line)
        XCTAssertTrue(host.events(named: "state").isEmpty, "a loopback host waited (\(state)): \(host.output)",
                      file: file, line: line)
        let pid = host.pid
        // Listening, still: no call to Avahi, and only a loopback listener.
        assertNothingReachesTheLAN(pid: pid, monitor: monitor, noSocketsAtAll: true,
                                   "host --bind 127.0.0.1 (\(state))", file: file, line: line)
        XCTAssertEqual(Lab.sockets(of: pid, on: "host-b").map(\.local), ["127.0.0.1:\(port)"], file: file, line: line)
        XCTAssertTrue(host.events(named: "advertised").isEmpty, "\(host.output)", file: file, line: line)
        // It serves a joiner on the same host, which needs no permission either (same decision).
        let joiner = try tictactoe(on: "host-b", ["join", "127.0.0.1:\(port)", "--headless", "--json", "--name", "lo"],
                                   environment: ["TICTACTOE_CONFIG_DIR": config])
        XCTAssertEqual(joiner.waitForExit(timeout: 30), 0, "\(joiner.output) \(joiner.standardError)",
                       file: file, line: line)
        XCTAssertEqual(host.waitForExit(timeout: 20), 0, "\(host.output) \(host.standardError)", file: file, line: line)
        XCTAssertEqual(avahiMethodCalls(monitor), [], "calls to Avahi from a loopback match", file: file, line: line)
    }

    // MARK: Headless browse

    func testBrowseNotDeterminedWaitsWithoutAvahiUntilGranted() throws {
        try headlessBrowse(.notDetermined)
    }

    func testBrowseDeniedWaitsWithoutAvahiUntilGranted() throws {
        try headlessBrowse(.denied)
    }

    private func headlessBrowse(_ state: Undecided, file: StaticString = #filePath, line: UInt = #line) throws {
        let name = "Gated browse \(state == .denied ? "D" : "N")"
        _ = try publish(on: "host-a", name: name, file: file, line: line)
        let monitor = try avahiMonitor()
        let config = decisionDirectory(state)
        let (browse, _) = try startWaitingCommand(["browse", "--json", "--timeout", "2"], config: config, state,
                                                  file: file, line: line)
        assertNothingReachesTheLAN(pid: browse.pid, monitor: monitor, noSocketsAtAll: true,
                                   "browse, \(state.rawValue)", file: file, line: line)
        XCTAssertTrue(browse.isRunning, "browse gave up: \(browse.output)", file: file, line: line)

        _ = grant(config, file: file, line: line)
        waitForAvahiCalls(["ServiceBrowserNew"], monitor: monitor, "browse after the grant", file: file, line: line)
        XCTAssertEqual(browse.waitForExit(timeout: 20), 0, "\(browse.output) \(browse.standardError)",
                       file: file, line: line)
        XCTAssertTrue(names(browse.events(named: "game")).contains(name), "not listed: \(browse.output)",
                      file: file, line: line)
    }

    // MARK: Headless join by name

    func testJoinByNameNotDeterminedWaitsWithoutAvahiUntilGranted() throws {
        try headlessJoinByName(.notDetermined)
    }

    func testJoinByNameDeniedWaitsWithoutAvahiUntilGranted() throws {
        try headlessJoinByName(.denied)
    }

    private func headlessJoinByName(_ state: Undecided, file: StaticString = #filePath, line: UInt = #line) throws {
        let (host, _, registered) = try startHost(on: "host-a", name: "gated-name-\(state == .denied ? "d" : "n")",
                                                  file: file, line: line)
        let monitor = try avahiMonitor()
        let config = decisionDirectory(state)
        let (joiner, waitingIndex) = try startWaitingCommand(["join", registered, "--headless", "--json", "--name", "bob"],
                                                             config: config, state, file: file, line: line)
        assertNothingReachesTheLAN(pid: joiner.pid, monitor: monitor, noSocketsAtAll: true,
                                   "join NAME, \(state.rawValue)", file: file, line: line)
        XCTAssertTrue(host.events(named: "connected").isEmpty, "host-a saw a joiner: \(host.output)",
                      file: file, line: line)

        let granted = grant(config, file: file, line: line)
        let connected = joiner.waitForEvent("connected", from: waitingIndex + 1, timeout: 15)
        XCTAssertNotNil(connected, "join by name did not go on: \(joiner.output) \(joiner.standardError)",
                        file: file, line: line)
        if let connected {
            print(String(format: "grant → join by name connected: %.0f ms (resolving included)",
                         connected.time.milliseconds(since: granted)))
        }
        waitForAvahiCalls(["ServiceResolverNew"], monitor: monitor, "join by name after the grant", file: file, line: line)
        XCTAssertEqual(joiner.waitForExit(timeout: 30), 0, "\(joiner.output) \(joiner.standardError)",
                       file: file, line: line)
        XCTAssertNotNil(joiner.events(named: "match-over").last, "\(joiner.output)", file: file, line: line)
        XCTAssertEqual(host.waitForExit(timeout: 20), 0, "\(host.output) \(host.standardError)", file: file, line: line)
    }

    // MARK: Headless join by address

    func testJoinByAddressNotDeterminedWaitsWithoutConnectingUntilGranted() throws {
        try headlessJoinByAddress(.notDetermined)
    }

    func testJoinByAddressDeniedWaitsWithoutConnectingUntilGranted() throws {
        try headlessJoinByAddress(.denied)
    }

    private func headlessJoinByAddress(_ state: Undecided, file: StaticString = #filePath, line: UInt = #line) throws {
        let (host, port, _) = try startHost(on: "host-a", name: "gated-addr-\(state == .denied ? "d" : "n")",
                                            file: file, line: line)
        let monitor = try avahiMonitor()
        let config = decisionDirectory(state)
        let target = "\(Lab.address(of: "host-a")):\(port)"
        let (joiner, waitingIndex) = try startWaitingCommand(["join", target, "--headless", "--json", "--name", "bob"],
                                                             config: config, state, file: file, line: line)
        assertNothingReachesTheLAN(pid: joiner.pid, monitor: monitor, noSocketsAtAll: true,
                                   "join \(target), \(state.rawValue)", file: file, line: line)
        // Seen from host-a too: its host has only its listener, no connection.
        let hostSockets = Lab.sockets(of: host.pid, on: "host-a")
        XCTAssertEqual(hostSockets.filter { !$0.isListening }.map(\.line), [],
                       "host-a's host has a connection while host-b's join waits", file: file, line: line)
        XCTAssertTrue(host.events(named: "connected").isEmpty, "\(host.output)", file: file, line: line)

        _ = grant(config, file: file, line: line)
        XCTAssertNotNil(joiner.waitForEvent("connected", from: waitingIndex + 1, timeout: 15),
                        "join by address did not go on: \(joiner.output) \(joiner.standardError)",
                        file: file, line: line)
        XCTAssertEqual(joiner.waitForExit(timeout: 30), 0, "\(joiner.output) \(joiner.standardError)",
                       file: file, line: line)
        XCTAssertNotNil(joiner.events(named: "match-over").last, "\(joiner.output)", file: file, line: line)
        XCTAssertEqual(host.waitForExit(timeout: 20), 0, "\(host.output) \(host.standardError)", file: file, line: line)
        XCTAssertEqual(avahiMethodCalls(monitor), [], "a join by address called Avahi", file: file, line: line)
    }

    // MARK: TUI: Host a game

    func testTUIHostNotDeterminedPromptsWithoutListeningAndHostsAfterOK() throws {
        try tuiHost(.notDetermined)
    }

    func testTUIHostDeniedWaitsWithoutListeningAndHostsOnceGranted() throws {
        try tuiHost(.denied)
    }

    private func tuiHost(_ state: Undecided, file: StaticString = #filePath, line: UInt = #line) throws {
        let monitor = try avahiMonitor()
        let (tui, config) = try openAndCheckWaiting(.host, state, monitor: monitor, file: file, line: line)
        try allow(tui, config: config, state)
        XCTAssertNotNil(tui.waitFor("Waiting for someone to join on port 7878"),
                        "Host a game did not go on:\n\(tui.screen)", file: file, line: line)
        XCTAssertNotNil(tui.waitFor("Advertised as"), "not advertised:\n\(tui.screen)", file: file, line: line)
        waitForAvahiCalls(["EntryGroupNew", "AddService"], monitor: monitor, "TUI host", file: file, line: line)
        let pid = try XCTUnwrap(tui.findPID(), file: file, line: line)
        let listeners = Lab.sockets(of: pid, on: "host-b").filter(\.isListening)
        XCTAssertTrue(listeners.contains { !$0.isLoopbackOnly && $0.local.hasSuffix(":7878") },
                      "no listener on every interface: \(listeners)", file: file, line: line)
        // A joiner on host-a reaches it.
        let joiner = try tictactoe(on: "host-a", ["join", "\(Lab.address(of: "host-b")):7878", "--headless", "--json",
                                                  "--name", "alice"])
        XCTAssertNotNil(joiner.waitForEvent("connected", timeout: 15), "\(joiner.output) \(joiner.standardError)",
                        file: file, line: line)
        XCTAssertNotNil(tui.waitFor("alice"), tui.screen, file: file, line: line)
        let status = privacy(config, ["status", "--json"]).1.split(separator: "\n").reversed().lazy
            .compactMap { LabProcess.json(String($0)) }.first ?? [:]
        XCTAssertEqual(status["state"] as? String, "allowed", "\(status)", file: file, line: line)
    }

    // MARK: TUI: Search for games

    func testTUISearchNotDeterminedPromptsWithoutAvahiAndBrowsesAfterOK() throws {
        try tuiSearch(.notDetermined)
    }

    func testTUISearchDeniedWaitsWithoutAvahiAndBrowsesOnceGranted() throws {
        try tuiSearch(.denied)
    }

    private func tuiSearch(_ state: Undecided, file: StaticString = #filePath, line: UInt = #line) throws {
        let name = "Gated search \(state == .denied ? "D" : "N")"
        _ = try publish(on: "host-a", name: name, file: file, line: line)
        let monitor = try avahiMonitor()
        let (tui, config) = try openAndCheckWaiting(.search, state, monitor: monitor, file: file, line: line)
        try allow(tui, config: config, state)
        XCTAssertNotNil(tui.waitFor { $0.contains("1 game") && $0.contains(name) },
                        "Search did not go on:\n\(tui.screen)", file: file, line: line)
        waitForAvahiCalls(["ServiceBrowserNew"], monitor: monitor, "TUI search", file: file, line: line)
    }

    // MARK: TUI: Join by address, with an address or a Bonjour name

    func testTUIJoinByAddressNotDeterminedPromptsWithoutConnectingAndJoinsAfterOK() throws {
        try tuiJoin(byName: false, .notDetermined)
    }

    func testTUIJoinByAddressDeniedWaitsWithoutConnectingAndJoinsOnceGranted() throws {
        try tuiJoin(byName: false, .denied)
    }

    // In the TUI a name is joined from the Join by address form (anything that is not an address is a Bonjour name)
    // or from Search's list; Search itself waits while denied, so the form is the way to a name there.
    func testTUIJoinByNameNotDeterminedPromptsWithoutAvahiAndJoinsAfterOK() throws {
        try tuiJoin(byName: true, .notDetermined)
    }

    func testTUIJoinByNameDeniedWaitsWithoutAvahiAndJoinsOnceGranted() throws {
        try tuiJoin(byName: true, .denied)
    }

    private func tuiJoin(byName: Bool, _ state: Undecided, file: StaticString = #filePath, line: UInt = #line) throws {
        let (host, port, registered) = try startHost(
            on: "host-a", name: "gated-tui-\(byName ? "name" : "addr")-\(state == .denied ? "d" : "n")",
            file: file, line: line)
        let monitor = try avahiMonitor()
        let target = byName ? registered : "\(Lab.address(of: "host-a")):\(port)"
        let (tui, config) = try openAndCheckWaiting(.join(target, byName: byName), state, monitor: monitor, file: file, line: line)
        XCTAssertTrue(host.events(named: "connected").isEmpty, "host-a saw a joiner: \(host.output)",
                      file: file, line: line)
        XCTAssertEqual(Lab.sockets(of: host.pid, on: "host-a").filter { !$0.isListening }
                       .map(\.line), [], "host-a's host has a connection while the TUI waits", file: file, line: line)

        try allow(tui, config: config, state)
        XCTAssertNotNil(tui.waitFor("Your turn (X)"), "the join did not go on:\n\(tui.screen)", file: file, line: line)
        XCTAssertNotNil(host.waitForEvent("connected", timeout: 15), "\(host.output)", file: file, line: line)
        if byName {
            waitForAvahiCalls(["ServiceResolverNew"], monitor: monitor, "TUI join by name", file: file, line: line)
        } else {
            XCTAssertEqual(avahiMethodCalls(monitor), [], "a join by address called Avahi", file: file, line: line)
        }
    }

    // MARK: TUI: rematch

    /// What the TUI offers as a rematch: after a game of a LAN match, `r` accepts (or offers) the next game of the
    /// same match, over the same connection. Turning access off between games ends that match at once ("Local network
    /// access was turned off": no rematch over a connection the user no longer allows), closes the connection and
    /// calls no Avahi; playing the same host again is a new Join, which waits while denied (nothing reaches host-a)
    /// and goes on once granted.
    func testTurningAccessOffEndsTheTUIMatchAndANewJoinWaitsUntilGranted() throws {
        let config = decisionDirectory(.notDetermined)
        _ = grant(config)
        // Two matches on host-a, two games each: host-a offers the rematch after game 1.
        let host = try tictactoe(on: "host-a", ["host", "--headless", "--json", "--name", "gated-rematch", "--port", "0",
                                                "--games", "2", "--matches", "2"])
        let port = try XCTUnwrap(host.waitForEvent("listening")?.event["port"] as? Int, "\(host.output)")
        let monitor = try avahiMonitor()
        let tui = try startTUI("rematch", config: config)
        let pid = try XCTUnwrap(tui.findPID())
        let target = "\(Lab.address(of: "host-a")):\(port)"
        try open(.join(target), in: tui)
        XCTAssertNotNil(tui.waitFor("Your turn (X)"), "the granted join did not start:\n\(tui.screen)")
        let before = Lab.sockets(of: pid, on: "host-b").map { "\($0.netid) \($0.state) \($0.local) \($0.peer)" }
        XCTAssertEqual(before.count, 1, "one connection to host-a: \(before)")
        XCTAssertTrue(before.first?.hasPrefix("tcp ESTAB") == true && before.first?.hasSuffix(" \(target)") == true,
                      "not the connection to \(target): \(before)")

        // Game 1 ends (we resign); host-a offers a rematch. Then access is turned off: the match with a LAN player
        // ends at once (no rematch over a connection the user no longer allows), and host-a sees its peer leave.
        try tui.keys("R")
        XCTAssertNotNil(tui.waitFor { $0.contains("Resign this game?") }, "R did not ask:\n\(tui.screen)")
        try tui.keys("y")
        XCTAssertNotNil(tui.waitFor { $0.contains("offers a rematch") }, "no rematch offer:\n\(tui.screen)")
        XCTAssertEqual(privacy(config, ["deny"]).0, 0)
        XCTAssertNotNil(tui.waitFor { $0.contains("Local network access was turned off") },
                        "the match did not end when access was turned off:\n\(tui.screen)")
        let over = try XCTUnwrap(host.waitForEvent("match-over"), "\(host.output)")
        XCTAssertEqual(over.event["end"] as? String, "peer-left", "\(host.output)")
        var open = Lab.sockets(of: pid, on: "host-b")
        for _ in 0..<40 where !open.isEmpty {
            Thread.sleep(forTimeInterval: 0.25)
            open = Lab.sockets(of: pid, on: "host-b")
        }
        XCTAssertEqual(open.count, 0, "the connection to host-a is still open: \(open)")
        XCTAssertEqual(avahiMethodCalls(monitor), [], "calls to Avahi in a match joined by address")

        // Back to the menu, Join by address again: it waits.
        try tui.keys("q")
        XCTAssertNotNil(tui.waitFor("Play against the computer"), tui.screen)
        try tui.keys("a")
        XCTAssertNotNil(tui.waitFor("Address (host:port)"), tui.screen)
        try tui.keys("Up")  // the field starts empty; ↑ recalls the last address joined
        XCTAssertNotNil(tui.waitFor(target), "the last address is not recalled:\n\(tui.screen)")
        try tui.keys("Enter")
        XCTAssertNotNil(tui.waitFor { screenWords($0).contains(Undecided.denied.reason) },
                        "the new join does not wait:\n\(tui.screen)")
        assertNothingReachesTheLAN(pid: pid, monitor: monitor, noSocketsAtAll: true, allDescriptors: true,
                                   "TUI join again after a deny")
        XCTAssertNil(host.waitForEvent("connected", from: over.index + 1, timeout: 0),
                     "host-a saw a new joiner while the TUI waits: \(host.output)")

        _ = grant(config)
        XCTAssertNotNil(tui.waitFor("Your turn (X)"), "the second join did not go on:\n\(tui.screen)")
        XCTAssertNotNil(host.waitForEvent("connected", from: over.index + 1, timeout: 15), "\(host.output)")
    }
}
