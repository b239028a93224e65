import Foundation
import TicTacToeTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Local network privacy in the LAN lab: deferred prompting, the usage-description prompt, NoAuth, and
/// connections that wait for permission and proceed by themselves. Each test starts from a fresh decision
/// directory (TICTACTOE_CONFIG_DIR), never the lab's already-granted one. Avahi is watched with `dbus-monitor` on
/// the host's own system bus; the TUI runs on host-b in tmux (`lan exec host-b -- tictactoe …` in the pane).
final class PrivacyLabTests: LabTestCase {

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The prompt's text as the manifest gives it.
    static let manifest: (title: String, message: String) = {
        let url = root.appendingPathComponent("Assets/Info.plist")
        let data = (try? Data(contentsOf: url)) ?? Data()
        let plist = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] ?? [:]
        let name = plist["CFBundleDisplayName"] as? String ?? "?"
        return ("“\(name)” would like to find and connect to devices on your local network.",
                plist["NSLocalNetworkUsageDescription"] as? String ?? "?")
    }()

    // MARK: Helpers

    /// A new, empty decision directory: nothing decided yet.
    private func freshConfig() -> String {
        let path = Scratch.path("tictactoe-lab-privacy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        scratchPaths.append(path)
        return path
    }

    /// `tictactoe privacy ARGS` on `host` with the decision in `config`; its status and output.
    @discardableResult
    private func privacy(on host: String = "host-b", _ config: String, _ arguments: [String]) -> (Int32, String) {
        Lab.run(["exec", host, "--", "env", "TICTACTOE_CONFIG_DIR=\(config)",
                 "XDG_STATE_HOME=\(Lab.appStateDirectory)", tictactoeBinary, "privacy"] + arguments)
    }

    /// `privacy status --json` on `host`.
    private func status(on host: String = "host-b", _ config: String) -> [String: Any] {
        let (_, output) = privacy(on: host, config, ["status", "--json"])
        return output.split(separator: "\n").reversed().lazy.compactMap { LabProcess.json(String($0)) }.first ?? [:]
    }

    /// `dbus-monitor` on `host`'s bus for method calls to Avahi, started and listening.
    private func avahiMonitor(on host: String) throws -> LabProcess {
        let bus = Lab.bus(of: host)
        let monitor = track(try LabProcess(on: host, ["dbus-monitor", "--address", bus,
                                                      "type='method_call',destination='org.freedesktop.Avahi'"]))
        guard monitor.waitForLine(timeout: 15, { $0.contains("NameAcquired") || $0.contains("signal") }) != nil else {
            XCTFail("dbus-monitor did not start: \(monitor.standardError)")
            throw Lab.LabError.failed("dbus-monitor")
        }
        return monitor
    }

    /// The method calls to Avahi the monitor saw (one line each: sender, path, interface, member).
    private func avahiCalls(_ monitor: LabProcess) -> [String] {
        monitor.output.filter { $0.hasPrefix("method call") }
    }

    /// The member of each call (ServiceBrowserNew, GetVersionString, …).
    private func members(_ calls: [String]) -> [String] {
        calls.compactMap { line in line.range(of: "member=").map { String(line[$0.upperBound...]) } }
    }

    /// The TUI on `host` in a tmux session, showing its menu.
    private func startTUI(_ session: String, on host: String = "host-b", config: String, _ arguments: [String])
        throws -> LabTUI
    {
        if tmux == nil { tmux = try Tmux.lab() }
        let tui = try LabTUI(tmux: tmux!, session: session, on: host, configDirectory: config, arguments: arguments)
        tuis.append(tui)
        return tui
    }

    private func waitForMenu(_ tui: LabTUI, file: StaticString = #filePath, line: UInt = #line) throws {
        guard tui.waitFor("Play against the computer") != nil else {
            XCTFail("the TUI did not show its menu:\n\(tui.screen)\nlog:\n\(tui.log)", file: file, line: line)
            throw Lab.LabError.failed("no menu")
        }
    }

    /// Asserts that the prompt shows the manifest's title and usage description and both buttons.
    private func assertPromptShowsTheManifestText(_ tui: LabTUI, file: StaticString = #filePath, line: UInt = #line) {
        let text = tui.promptText()
        XCTAssertTrue(text.contains(Self.manifest.title), "title missing from the prompt: \(text)\n\(tui.screen)",
                      file: file, line: line)
        XCTAssertTrue(text.contains(Self.manifest.message), "usage description missing: \(text)\n\(tui.screen)",
                      file: file, line: line)
        XCTAssertTrue(text.contains("[ Don't Allow ]") && text.contains("[ OK ]"), text, file: file, line: line)
    }

    /// Opens Settings, selects Local Network and toggles it; returns when the row shows `< On >`.
    private func allowInSettings(_ tui: LabTUI, file: StaticString = #filePath, line: UInt = #line) throws
        -> ContinuousClock.Instant
    {
        try tui.keys("t")
        guard tui.waitFor("< Off >") != nil else {
            XCTFail("Settings does not show Local Network off:\n\(tui.screen)", file: file, line: line)
            throw Lab.LabError.failed("settings")
        }
        // Down, not j: on the name row letters are typed into the name.
        try tui.keys("Down", "Down", "Down", "Down", "Down")
        usleep(300_000)
        let toggled = ContinuousClock.now
        try tui.keys("Enter")
        guard tui.waitFor("< On >") != nil else {
            XCTFail("Local Network was not switched on:\n\(tui.screen)", file: file, line: line)
            throw Lab.LabError.failed("toggle")
        }
        return toggled
    }

    // MARK: Deferred prompting and the prompt

    func testATUIOnTheLANTouchesNoNetworkUntilSearchAndOKStartsTheBrowse() throws {
        let (host, _, registered) = try startHost(on: "host-a", name: "alice")
        let monitor = try avahiMonitor(on: "host-b")
        let config = freshConfig()
        let tui = try startTUI("bob", config: config, ["--name", "bob"])
        try waitForMenu(tui)
        let pid = try XCTUnwrap(tui.findPID(), "no tictactoe process in \(Lab.namespace(of: "host-b"))")
        // Its first seconds: no call to Avahi, no socket (only the terminal, the log and the like).
        sleep(3)
        XCTAssertEqual(avahiCalls(monitor), [], "calls to Avahi at launch")
        XCTAssertTrue(tui.descriptorTargets().contains { $0.hasPrefix("/dev/pts/") },
                      "pid \(pid) is not the TUI in the pane: \(tui.descriptorTargets())")
        XCTAssertEqual(tui.sockets(), [], "sockets at launch (pid \(pid)): \(tui.descriptorTargets())")
        XCTAssertFalse(tui.screen.contains("[ OK ]"), "a prompt at launch:\n\(tui.screen)")

        // Search for games: the prompt, with the manifest's text; still nothing sent to Avahi.
        try tui.keys("s")
        XCTAssertNotNil(tui.waitFor("[ OK ]"), tui.screen)
        assertPromptShowsTheManifestText(tui)
        sleep(1)
        XCTAssertEqual(avahiCalls(monitor), [], "calls to Avahi while the prompt is up")
        XCTAssertEqual(tui.sockets(), [], "sockets while the prompt is up: \(tui.descriptorTargets())")
        XCTAssertEqual(status(config)["state"] as? String, "not-determined")

        // OK: the browse starts (Avahi is called now) and alice's game on host-a is listed.
        try tui.keys("o")
        XCTAssertNotNil(monitor.waitForLine(timeout: 15) { $0.hasPrefix("method call") }, "no call to Avahi after OK")
        let screen = tui.waitFor { $0.contains("1 game") && $0.contains(registered) }
        XCTAssertNotNil(screen, "alice's game is not listed:\n\(tui.screen)")
        XCTAssertFalse(tui.screen.contains("[ OK ]"), tui.screen)
        let called = Set(members(avahiCalls(monitor)))
        print("Avahi methods called after OK: \(called.sorted())")
        XCTAssertTrue(called.contains("ServiceBrowserNew"), "\(avahiCalls(monitor))")
        // The socket check sees sockets when there are some: the browse's connection to the bus.
        XCTAssertFalse(tui.sockets().isEmpty, "no socket while browsing? \(tui.descriptorTargets())")
        let decision = status(config)
        XCTAssertEqual(decision["state"] as? String, "allowed")
        XCTAssertEqual(decision["decided_by"] as? String, "prompt")
        XCTAssertTrue(host.isRunning)
    }

    func testDontAllowMakesNoAvahiCallAndSaysWhyTheListIsEmpty() throws {
        let monitor = try avahiMonitor(on: "host-b")
        let config = freshConfig()
        let tui = try startTUI("bob", config: config, ["--name", "bob"])
        try waitForMenu(tui)
        XCTAssertNotNil(tui.findPID())
        try tui.keys("s")
        XCTAssertNotNil(tui.waitFor("[ OK ]"), tui.screen)
        assertPromptShowsTheManifestText(tui)
        try tui.keys("d")
        let screen = try XCTUnwrap(tui.waitFor { screenWords($0).contains("Local network permission denied") },
                                   "no explanation:\n\(tui.screen)")
        let words = screenWords(screen)
        XCTAssertTrue(words.contains("Settings › Privacy") && words.contains("tictactoe privacy grant"),
                      "the waiting line does not say how to change it:\n\(screen)")
        XCTAssertTrue(words.contains("Waiting for local network access"), "status line:\n\(screen)")
        XCTAssertTrue(words.contains("Press t for Settings"), "what to do:\n\(screen)")
        XCTAssertFalse(screen.contains("[ OK ]"), screen)
        sleep(2)
        XCTAssertEqual(avahiCalls(monitor), [], "calls to Avahi after Don't Allow")
        XCTAssertEqual(tui.sockets(), [], "sockets after Don't Allow: \(tui.descriptorTargets())")
        let decision = status(config)
        XCTAssertEqual(decision["state"] as? String, "denied")
        XCTAssertEqual(decision["decided_by"] as? String, "prompt")
    }

    func testPromptAtLaunchAsksBeforeAnyKey() throws {
        let monitor = try avahiMonitor(on: "host-b")
        let config = freshConfig()
        let tui = try startTUI("eager", config: config, ["--name", "bob", "--prompt-at-launch"])
        // No key is sent: the prompt is there by itself, over Search for games.
        let screen = try XCTUnwrap(tui.waitFor("[ OK ]"), "no prompt at launch:\n\(tui.screen)\n\(tui.log)")
        assertPromptShowsTheManifestText(tui)
        XCTAssertTrue(screen.contains("Search for games"), screen)
        XCTAssertEqual(avahiCalls(monitor), [], "Avahi called before the answer")
        try tui.keys("o")
        XCTAssertNotNil(monitor.waitForLine(timeout: 15) { $0.hasPrefix("method call") }, "no browse after OK")
        XCTAssertNotNil(tui.waitFor("No games found yet"), tui.screen)
    }

    // MARK: NoAuth

    func testAManifestWithoutNSBonjourServicesIsNoAuthOnSearchWithoutAPrompt() throws {
        let monitor = try avahiMonitor(on: "host-b")
        let config = freshConfig()
        let plist = Self.root.appendingPathComponent("Assets/Info-NoBonjourServices.plist").path
        let tui = try startTUI("noauth", config: config, ["--name", "bob", "--info-plist", plist])
        try waitForMenu(tui)
        try tui.keys("s")
        let screen = try XCTUnwrap(tui.waitFor("Not allowed to access the network"), "no NoAuth:\n\(tui.screen)")
        XCTAssertFalse(screen.contains("[ OK ]") || screen.contains("Don't Allow"), "a prompt for NoAuth:\n\(screen)")
        sleep(1)
        XCTAssertFalse(tui.screen.contains("[ OK ]"), tui.screen)
        let logLines = tui.log.split(separator: "\n")
        let noAuth = logLines.filter { $0.contains("NSBonjourServices") && $0.contains("NoAuth") }
        XCTAssertFalse(noAuth.isEmpty, "no log line naming NSBonjourServices:\n\(tui.log)")
        XCTAssertTrue(noAuth.contains { $0.contains("_tictactoe._tcp") && $0.contains("-65555") }, "\(noAuth)")
        XCTAssertEqual(avahiCalls(monitor), [], "Avahi called for a NoAuth browse")
        XCTAssertEqual(status(config)["state"] as? String, "not-determined", "NoAuth must not record an answer")
    }

    // MARK: Waiting connections

    func testAHeadlessJoinWithoutATTYWaitsAndStartsWithinOneSecondOfAGrant() throws {
        let (host, port, _) = try startHost(on: "host-a", name: "alice")
        let config = freshConfig()
        // stdin is /dev/null (LabProcess): no terminal to ask on, so it waits.
        let joiner = try tictactoe(on: "host-b", ["join", "\(Lab.address(of: "host-a")):\(port)", "--headless",
                                                  "--json", "--name", "bob"],
                                   environment: ["TICTACTOE_CONFIG_DIR": config])
        let waiting = try XCTUnwrap(joiner.waitForEvent("state", timeout: 15) { $0["state"] as? String == "waiting" },
                                    "no waiting state: \(joiner.output) \(joiner.standardError)")
        let reason = waiting.event["reason"] as? String ?? ""
        XCTAssertTrue(reason.contains("local network permission"), reason)
        sleep(1)
        XCTAssertTrue(joiner.isRunning, "the join gave up: \(joiner.output) \(joiner.standardError)")
        XCTAssertTrue(joiner.events(named: "connected").isEmpty, "\(joiner.output)")
        XCTAssertTrue(host.events(named: "connected").isEmpty, "\(host.output)")

        let grantStarted = ContinuousClock.now
        let (grantStatus, grantOutput) = privacy(config, ["grant"])
        let grantExited = ContinuousClock.now
        XCTAssertEqual(grantStatus, 0, grantOutput)
        // After the grant, with no retry by anyone (how soon is `make bench`'s to measure).
        let connected = joiner.waitForEvent("connected", from: waiting.index + 1, timeout: 30)
        let connectedTime = connected?.time
        let gameStart = joiner.waitForEvent("game-start", from: waiting.index + 1, timeout: 15)
        let fromExit = connectedTime.map { $0.milliseconds(since: grantExited) }
        let fromStart = connectedTime.map { $0.milliseconds(since: grantStarted) }
        let gameFromExit = gameStart.map { $0.time.milliseconds(since: grantExited) }
        print(String(format: "privacy grant → joiner connected: %.0f ms after the grant exited (%.0f ms after it was "
                     + "started; the grant took %.0f ms); game-start %.0f ms after the grant exited",
                     fromExit ?? -1, fromStart ?? -1, grantExited.milliseconds(since: grantStarted), gameFromExit ?? -1))
        XCTAssertNotNil(connected, "not connected after the grant: "
                        + "\(joiner.output) \(joiner.standardError)")
        XCTAssertNotNil(gameStart, "\(joiner.output)")
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, "\(joiner.output) \(joiner.standardError)")
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, "\(host.output) \(host.standardError)")
        XCTAssertNotNil(joiner.events(named: "match-over").last, "\(joiner.output)")
        XCTAssertEqual(status(config)["state"] as? String, "allowed")
    }

    func testAHeadlessJoinByNameWaitsWithoutCallingAvahiUntilGranted() throws {
        let (host, _, registered) = try startHost(on: "host-a", name: "alice")
        let monitor = try avahiMonitor(on: "host-b")
        let config = freshConfig()
        let joiner = try tictactoe(on: "host-b", ["join", registered, "--headless", "--json", "--name", "bob"],
                                   environment: ["TICTACTOE_CONFIG_DIR": config])
        let waiting = try XCTUnwrap(joiner.waitForEvent("state", timeout: 15) { $0["state"] as? String == "waiting" },
                                    "no waiting state: \(joiner.output) \(joiner.standardError)")
        XCTAssertTrue((waiting.event["reason"] as? String ?? "").contains("local network permission"), "\(waiting.event)")
        sleep(1)
        // Resolving the name is a browse: nothing reaches Avahi before permission.
        XCTAssertEqual(avahiCalls(monitor), [], "calls to Avahi while waiting for permission")
        XCTAssertTrue(joiner.isRunning, "\(joiner.output) \(joiner.standardError)")
        XCTAssertEqual(privacy(config, ["grant"]).0, 0)
        let granted = ContinuousClock.now
        let connected = joiner.waitForEvent("connected", from: waiting.index + 1, timeout: 15)
        XCTAssertNotNil(connected, "\(joiner.output) \(joiner.standardError)")
        if let connected {
            // Includes resolving the name with Bonjour (not asserted: discovery latency is measured elsewhere).
            print(String(format: "privacy grant → join by name connected: %.0f ms after the grant exited",
                         connected.time.milliseconds(since: granted)))
        }
        XCTAssertNotNil(monitor.waitForLine(timeout: 5) { $0.hasPrefix("method call") }, "resolved without Avahi?")
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, "\(joiner.output) \(joiner.standardError)")
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, "\(host.output) \(host.standardError)")
    }

    func testADeniedHeadlessJoinProceedsWhenAllowedInSettings() throws {
        let config = freshConfig()
        XCTAssertEqual(privacy(config, ["deny"]).0, 0)
        let (host, port, _) = try startHost(on: "host-a", name: "alice")
        let joiner = try tictactoe(on: "host-b", ["join", "\(Lab.address(of: "host-a")):\(port)", "--headless",
                                                  "--json", "--name", "bob"],
                                   environment: ["TICTACTOE_CONFIG_DIR": config])
        let waiting = try XCTUnwrap(joiner.waitForEvent("state", timeout: 15) { $0["state"] as? String == "waiting" },
                                    "no waiting state: \(joiner.output) \(joiner.standardError)")
        XCTAssertTrue((waiting.event["reason"] as? String ?? "").contains("local network permission denied"),
                      "\(waiting.event)")

        // Settings › Privacy › Local Network in a TUI on the same host, for the same user.
        let tui = try startTUI("settings", config: config, ["--name", "carol"])
        try waitForMenu(tui)
        let toggled = try allowInSettings(tui)
        let connected = joiner.waitForEvent("connected", from: waiting.index + 1, timeout: 15)
        XCTAssertNotNil(connected, "the waiting join did not proceed: \(joiner.output) \(joiner.standardError)")
        if let connected {
            print(String(format: "Settings toggle (Enter sent) → joiner connected: %.0f ms",
                         connected.time.milliseconds(since: toggled)))
        }
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, "\(joiner.output) \(joiner.standardError)")
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, "\(host.output) \(host.standardError)")
        let decision = status(config)
        XCTAssertEqual(decision["state"] as? String, "allowed")
        XCTAssertEqual(decision["decided_by"] as? String, "settings")
    }

    func testADeniedJoinInTheTUIWaitsAndProceedsWhenAllowedInSettings() throws {
        let config = freshConfig()
        XCTAssertEqual(privacy(config, ["deny"]).0, 0)
        let (host, port, _) = try startHost(on: "host-a", name: "alice")
        let joiner = try startTUI("join", config: config, ["--name", "bob"])
        try waitForMenu(joiner)
        try joiner.keys("a")
        XCTAssertNotNil(joiner.waitFor("Address"), joiner.screen)
        try joiner.literal("\(Lab.address(of: "host-a")):\(port)")
        try joiner.keys("Enter")
        // No prompt (the answer is remembered): the join waits and says why.
        let screen = try XCTUnwrap(joiner.waitFor { screenWords($0).contains("Waiting: local network permission denied") },
                                   "no waiting line:\n\(joiner.screen)")
        XCTAssertFalse(screen.contains("[ OK ]"), screen)
        sleep(1)
        XCTAssertTrue(host.events(named: "connected").isEmpty, "\(host.output)")

        // Another TUI of the same user switches Local Network on; the waiting join goes ahead by itself.
        let settings = try startTUI("settings", config: config, ["--name", "carol"])
        try waitForMenu(settings)
        _ = try allowInSettings(settings)
        XCTAssertNotNil(joiner.waitFor("Your turn (X)"), "the join did not proceed:\n\(joiner.screen)")
        XCTAssertNotNil(host.waitForEvent("connected", timeout: 15), "\(host.output)")
        XCTAssertTrue(screenWords(joiner.screen).contains("alice"), joiner.screen)
    }

    // MARK: Reset, a corrupt file, concurrent writers

    func testResetBringsThePromptBack() throws {
        let config = freshConfig()
        XCTAssertEqual(privacy(config, ["grant"]).0, 0)
        let tui = try startTUI("bob", config: config, ["--name", "bob"])
        try waitForMenu(tui)
        // Allowed: Search browses without asking.
        try tui.keys("s")
        XCTAssertNotNil(tui.waitFor("No games found yet"), tui.screen)
        XCTAssertFalse(tui.screen.contains("[ OK ]"), tui.screen)
        try tui.keys("q")
        try waitForMenu(tui)

        let (resetStatus, resetOutput) = privacy(config, ["reset"])
        XCTAssertEqual(resetStatus, 0, resetOutput)
        XCTAssertEqual(status(config)["state"] as? String, "not-determined")
        // The same TUI asks again, as after `tccutil reset`.
        try tui.keys("s")
        XCTAssertNotNil(tui.waitFor("[ OK ]"), "no prompt after reset:\n\(tui.screen)")
        assertPromptShowsTheManifestText(tui)
        // And a new one too.
        try tui.keys("d")
        XCTAssertEqual(privacy(config, ["reset"]).0, 0)
        let second = try startTUI("again", config: config, ["--name", "bob"])
        try waitForMenu(second)
        try second.keys("s")
        XCTAssertNotNil(second.waitFor("[ OK ]"), "no prompt after reset:\n\(second.screen)")
    }

    func testACorruptDecisionAsksAgainAndConcurrentWritersLeaveAValidFile() throws {
        let config = freshConfig()
        let file = config + "/local-network.json"
        try Data("{\"state\": \"allo".utf8).write(to: URL(fileURLWithPath: file))
        let before = status(config)
        XCTAssertEqual(before["state"] as? String, "not-determined", "\(before)")
        XCTAssertEqual(before["decision_file_status"] as? String, "corrupt", "\(before)")
        let tui = try startTUI("bob", config: config, ["--name", "bob"])
        try waitForMenu(tui)
        XCTAssertNotNil(tui.findPID())
        try tui.keys("s")
        XCTAssertNotNil(tui.waitFor("[ OK ]"), "no prompt over a corrupt decision:\n\(tui.screen)")
        XCTAssertTrue(tui.log.contains("treating it as not determined"), tui.log)
        try tui.keys("o")
        XCTAssertNotNil(tui.waitFor("No games found yet"), tui.screen)
        XCTAssertEqual(status(config)["decision_file_status"] as? String, "valid")

        // 20 writers at once on host-b, while the TUI watches the file.
        let writers = try (0..<20).map { index in
            try tictactoe(on: "host-b", ["privacy", index % 2 == 0 ? "grant" : "deny"],
                          environment: ["TICTACTOE_CONFIG_DIR": config])
        }
        for writer in writers {
            XCTAssertEqual(writer.waitForExit(timeout: 60), 0, writer.standardError)
        }
        let after = status(config)
        XCTAssertEqual(after["decision_file_status"] as? String, "valid", "\(after)")
        XCTAssertTrue(["allowed", "denied"].contains(after["state"] as? String ?? ""), "\(after)")
        XCTAssertTrue(tui.isRunning, "the TUI died:\n\(tui.screen)")
    }
}
