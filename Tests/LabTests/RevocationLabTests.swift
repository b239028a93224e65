import Foundation
import TicTacToeTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Revocation in the LAN lab: turning local network access off (`tictactoe privacy deny` in another process, as a
/// person would in another terminal, or Settings) while something runs on the LAN.
///
/// - a match with a LAN peer ends at once as `local-network-off` ("local network access was turned off", exit 12)
///   on the side that lost access; the other side sees its opponent leave;
/// - a host's advertisement is withdrawn at once (Avahi's entry group freed; gone from another host's
///   `avahi-browse`) and comes back when access is turned on again;
/// - a TUI's Search stops browsing at once (the ServiceBrowser is freed, the list empties with the reason) and
///   comes back when access is turned on again;
/// - and, before any permission: a join to a host NAME does not look the name up (no DNS, no mDNS) until granted.
///
/// Each process that is denied has its own decision directory (TICTACTOE_CONFIG_DIR), never the lab's shared
/// granted one (denying that would cut every other process of the test too).
final class RevocationLabTests: LabTestCase {
    override class var labHosts: [String] { ["host-a", "host-b"] }


    static let offText = "local network access was turned off"

    // MARK: Helpers

    /// A new decision directory where access is allowed (`privacy grant` ran there), for one process's host.
    private func grantedDirectory(_ label: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let path = Scratch.path("tictactoe-lab-revoke-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        scratchPaths.append(path)
        let (status, output) = privacy(on: "host-a", path, ["grant"])
        XCTAssertEqual(status, 0, "privacy grant: \(output)", file: file, line: line)
        return path
    }

    /// A new, empty decision directory: nothing decided yet.
    private func undecidedDirectory(_ label: String) -> String {
        let path = Scratch.path("tictactoe-lab-revoke-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        scratchPaths.append(path)
        return path
    }

    /// `tictactoe privacy ARGS` on `host` with the decision in `config`: another process, as from another terminal.
    @discardableResult
    private func privacy(on host: String, _ config: String, _ arguments: [String]) -> (Int32, String) {
        Lab.run(["exec", host, "--", "env", "TICTACTOE_CONFIG_DIR=\(config)",
                 "XDG_STATE_HOME=\(Lab.appStateDirectory)", tictactoeBinary, "privacy"] + arguments)
    }

    /// Runs `privacy deny` (or `grant`) on `host`; returns the instant it exited (the decision is written then).
    private func set(_ verb: String, on host: String, _ config: String, file: StaticString = #filePath,
                     line: UInt = #line) -> (started: ContinuousClock.Instant, done: ContinuousClock.Instant) {
        let started = ContinuousClock.now
        let (status, output) = privacy(on: host, config, [verb])
        XCTAssertEqual(status, 0, "privacy \(verb) on \(host): \(output)", file: file, line: line)
        return (started, .now)
    }

    private func ms(_ instant: ContinuousClock.Instant, since start: ContinuousClock.Instant) -> String {
        String(format: "%.0f ms", instant.milliseconds(since: start))
    }

    /// Whether a one-shot `avahi-browse -rpt _tictactoe._tcp` on `host` lists `name` (resolved or not).
    private func avahiBrowseLists(on host: String, name: String) -> Bool {
        let (_, output) = Lab.run(["exec", host, "--", "timeout", "10", "avahi-browse", "-rpt", "_tictactoe._tcp"])
        return output.split(separator: "\n").contains { line in
            guard line.hasPrefix("=;") || line.hasPrefix("+;") else { return false }
            let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            return fields.count >= 4 && avahiUnescape(fields[3]) == name
        }
    }

    /// The calls a monitor saw from index `start` on.
    private func calls(_ monitor: LabProcess, from start: Int) -> [String] {
        Array(avahiMethodCalls(monitor).dropFirst(start))
    }

    /// Waits until a call from index `start` on satisfies `predicate`.
    private func waitForCall(_ monitor: LabProcess, from start: Int, timeout: TimeInterval,
                             _ predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let call = calls(monitor, from: start).first(where: predicate) { return call }
            usleep(50_000)
        } while Date() < deadline
        return nil
    }

    /// A dbus-monitor line for a call of MEMBER on org.freedesktop.Avahi.INTERFACE (Server also matches Server2).
    private func isCall(_ line: String, interface: String, member: String) -> Bool {
        line.contains("interface=org.freedesktop.Avahi.\(interface)") && avahiMembers([line]) == [member]
    }

    /// `dbus-monitor` on `host`'s bus for method calls to Avahi and for the bus's NameOwnerChanged signals
    /// (connections coming and going), started and listening.
    ///
    /// Why the connections: with Avahi's dns_sd compatibility library each DNSServiceRef has its own AvahiClient, that
    /// is its own D-Bus connection, and DNSServiceRefDeallocate frees that client, which closes the connection
    /// *before* freeing its entry groups and browsers ("so that the free() functions won't issue needless server
    /// calls", avahi-client/client.c): no `Free` call goes out, and avahi-daemon frees the connection's objects when
    /// it sees it close. So "the entry group (or the ServiceBrowser) was freed" shows on the bus as the connection
    /// that created it closing: NameOwnerChanged(NAME, NAME, "").
    private func busMonitor(on host: String, file: StaticString = #filePath, line: UInt = #line) throws -> LabProcess {
        let bus = Lab.bus(of: host)
        let monitor = track(try LabProcess(on: host, [
            "dbus-monitor", "--address", bus, "type='method_call',destination='org.freedesktop.Avahi'",
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'",
        ]))
        guard monitor.waitForLine(timeout: 15, { $0.contains("NameAcquired") || $0.contains("signal") }) != nil else {
            XCTFail("dbus-monitor on \(host) did not start: \(monitor.standardError)", file: file, line: line)
            throw Lab.LabError.failed("dbus-monitor")
        }
        return monitor
    }

    /// The sender (a unique name, ":1.7") of a dbus-monitor line.
    private func sender(_ line: String) -> String? {
        line.range(of: "sender=").map { String(line[$0.upperBound...].prefix { !$0.isWhitespace }) }
    }

    /// The unique names whose connection closed (NameOwnerChanged NAME NAME ""), as the monitor saw them.
    private func closedConnections(_ monitor: LabProcess) -> Set<String> {
        let lines = monitor.output
        var closed = Set<String>()
        for (index, line) in lines.enumerated()
        where line.hasPrefix("signal") && line.contains("member=NameOwnerChanged") {
            let arguments = lines.dropFirst(index + 1).prefix(3).map { argument -> String? in
                let text = argument.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("string \"") && text.hasSuffix("\"") else { return nil }
                return String(text.dropFirst(8).dropLast())
            }
            guard arguments.count == 3, let name = arguments[0], name.hasPrefix(":"), arguments[2] == "" else { continue }
            closed.insert(name)
        }
        return closed
    }

    /// Waits until every one of `names` has closed its connection; returns those still open.
    private func waitForClosed(_ names: Set<String>, monitor: LabProcess, timeout: TimeInterval) -> Set<String> {
        let deadline = Date().addingTimeInterval(timeout)
        var open = names.subtracting(closedConnections(monitor))
        while !open.isEmpty, Date() < deadline {
            usleep(50_000)
            open = names.subtracting(closedConnections(monitor))
        }
        return open
    }

    /// A headless host on host-a with its own granted decision (`config`), 3 games with a pause before each move so
    /// that a match is in progress for a while; waits until it listens. `--matches 1` (the default).
    private func startSlowHost(config: String, name: String, file: StaticString = #filePath, line: UInt = #line)
        throws -> (LabProcess, port: Int)
    {
        let host = try tictactoe(on: "host-a", ["host", "--headless", "--json", "--name", name, "--port", "0",
                                                "--games", "3", "--matches", "1", "--move-delay", "1"],
                                 environment: ["TICTACTOE_CONFIG_DIR": config])
        let port = try XCTUnwrap(host.waitForEvent("listening")?.event["port"] as? Int,
                                 "host on host-a did not listen: \(host.output) \(host.standardError)",
                                 file: file, line: line)
        return (host, port)
    }

    /// A headless joiner on host-b (by host-a's address) with its own granted decision; waits for its first game.
    private func startSlowJoiner(config: String, port: Int, file: StaticString = #filePath, line: UInt = #line)
        throws -> (LabProcess, gameStart: Int)
    {
        let joiner = try tictactoe(on: "host-b", ["join", "\(Lab.address(of: "host-a")):\(port)", "--headless", "--json",
                                                  "--name", "bob", "--move-delay", "1"],
                                   environment: ["TICTACTOE_CONFIG_DIR": config])
        let started = try XCTUnwrap(joiner.waitForEvent("game-start", timeout: 15),
                                    "no game started on the joiner: \(joiner.output) \(joiner.standardError)",
                                    file: file, line: line)
        return (joiner, started.index)
    }

    // MARK: 1. A match in progress ends when the joiner's access is turned off

    func testAMatchEndsAsLocalNetworkOffWhenTheJoinersAccessIsTurnedOff() throws {
        let hostConfig = grantedDirectory("host")
        let joinerConfig = grantedDirectory("joiner")
        let (host, port) = try startSlowHost(config: hostConfig, name: "revoke-joiner")
        let (joiner, _) = try startSlowJoiner(config: joinerConfig, port: port)
        XCTAssertNotNil(host.waitForEvent("game-start", timeout: 10), "\(host.output)")

        let deny = set("deny", on: "host-b", joinerConfig)
        let status = joiner.waitForExit(timeout: 30)
        let exited = ContinuousClock.now
        print("privacy deny (joiner) → joiner exited: \(ms(exited, since: deny.done)) after the deny exited")
        XCTAssertEqual(status, 12, "the joiner did not exit 12 after the deny: \(joiner.output) "
                       + "\(joiner.standardError)")
        let over = try XCTUnwrap(joiner.events(named: "match-over").last, "no match-over: \(joiner.output)")
        XCTAssertEqual(over["end"] as? String, "local-network-off", "\(over)")
        XCTAssertEqual(over["detail"] as? String, Self.offText, "\(over)")
        let summary = try XCTUnwrap(joiner.events(named: "summary").last, "no summary: \(joiner.output)")
        XCTAssertEqual(summary["end"] as? String, "local-network-off", "\(summary)")
        XCTAssertEqual(summary["exit"] as? Int, 12, "\(summary)")
        XCTAssertTrue(joiner.events(named: "game-over").allSatisfy { ($0["game"] as? Int ?? 0) <= 1 },
                      "more than one game was played: the revocation came late? \(joiner.output)")

        // host-a: the opponent left (a bye); its one match was not completed, so it keeps listening.
        let hostOver = try XCTUnwrap(host.waitForEvent("match-over", timeout: 5), "host: \(host.output)")
        XCTAssertEqual(hostOver.event["end"] as? String, "peer-left", "\(hostOver.event)")
        print("host-a's match-over: \(hostOver.event); \(ms(hostOver.time, since: deny.done)) after the deny exited")
        usleep(500_000)
        XCTAssertTrue(host.isRunning, "host-a stopped after its joiner left (--matches 1 counts completed "
                      + "matches): \(host.output) \(host.standardError)")
        XCTAssertTrue(Lab.sockets(of: host.pid, on: "host-a").contains(where: \.isListening),
                      "host-a's host no longer listens")
    }

    // MARK: 2. The same from the host's side

    func testAMatchEndsAsLocalNetworkOffWhenTheHostsAccessIsTurnedOff() throws {
        let hostConfig = grantedDirectory("host")
        let joinerConfig = grantedDirectory("joiner")
        let (host, port) = try startSlowHost(config: hostConfig, name: "revoke-host")
        let (joiner, _) = try startSlowJoiner(config: joinerConfig, port: port)
        XCTAssertNotNil(host.waitForEvent("game-start", timeout: 10), "\(host.output)")

        let deny = set("deny", on: "host-a", hostConfig)
        let hostOver = try XCTUnwrap(host.waitForEvent("match-over", timeout: 30),
                                     "host-a's match did not end after the deny: \(host.output) \(host.standardError)")
        print("privacy deny (host) → host's match-over: \(ms(hostOver.time, since: deny.done)) after the deny exited")
        XCTAssertEqual(hostOver.event["end"] as? String, "local-network-off", "\(hostOver.event)")
        XCTAssertEqual(hostOver.event["detail"] as? String, Self.offText, "\(hostOver.event)")

        // host-b: the opponent left.
        XCTAssertEqual(joiner.waitForExit(timeout: 5), 3, "the joiner: \(joiner.output) \(joiner.standardError)")
        let joinerOver = try XCTUnwrap(joiner.events(named: "match-over").last, "\(joiner.output)")
        XCTAssertEqual(joinerOver["end"] as? String, "peer-left", "\(joinerOver)")

        // host-a: its match did not complete, so (--matches 1) it goes on: it stops listening at once and waits for
        // access, saying why; nothing on the LAN reaches it meanwhile; once access is back it listens again.
        let waiting = try XCTUnwrap(
            host.waitForEvent("state", from: hostOver.index + 1, timeout: 5) { ($0["state"] as? String) == "waiting" },
            "host-a does not wait for access: \(host.output.dropFirst(hostOver.index + 1)) \(host.standardError)")
        XCTAssertTrue((waiting.event["reason"] as? String ?? "").contains("denied"), "\(waiting.event)")
        XCTAssertTrue(host.isRunning, "host-a ended: \(host.output) \(host.standardError)")
        let sockets = Lab.nonLoopbackSockets(of: host.pid, on: "host-a")
        XCTAssertEqual(sockets.map(\.line), [], "host-a keeps sockets beyond loopback while its access is off")
        let before = host.output.count
        let second = try tictactoe(on: "host-b", ["join", "\(Lab.address(of: "host-a")):\(port)", "--headless", "--json",
                                                  "--name", "carol", "--connect-timeout", "2"],
                                   environment: ["TICTACTOE_CONFIG_DIR": joinerConfig])
        XCTAssertNil(host.waitForEvent("connected", from: before, timeout: 3),
                     "host-a, its access turned off, served a new joiner from the LAN: \(host.output.dropFirst(before))")
        second.terminate()
        _ = set("grant", on: "host-a", hostConfig)
        XCTAssertNotNil(host.waitForEvent("listening", from: waiting.index + 1, timeout: 5),
                        "host-a does not listen again once access is back: \(host.output.dropFirst(waiting.index + 1))")
        host.terminate()
    }

    // MARK: 3. Advertising stops at once, and comes back

    func testAdvertisingIsWithdrawnAtOnceWhenAccessIsTurnedOffAndReturnsWhenTurnedOn() throws {
        let config = grantedDirectory("adv")
        let monitor = try busMonitor(on: "host-a")
        let host = try tictactoe(on: "host-a", ["host", "--headless", "--json", "--name", "revoke-adv", "--port", "0"],
                                 environment: ["TICTACTOE_CONFIG_DIR": config])
        let advertised = try XCTUnwrap(host.waitForEvent("advertised"), "\(host.output) \(host.standardError)")
        let name = try XCTUnwrap(advertised.event["name"] as? String)
        XCTAssertNotNil(avahiBrowseResolved(on: "host-b", name: name), "host-b does not see '\(name)'")
        let entryGroupNew = try XCTUnwrap(
            waitForCall(monitor, from: 0, timeout: 5) { isCall($0, interface: "Server", member: "EntryGroupNew") },
            "no EntryGroupNew on host-a's bus: \(avahiMethodCalls(monitor))")
        let registrant = try XCTUnwrap(sender(entryGroupNew), entryGroupNew)
        XCTAssertFalse(closedConnections(monitor).contains(registrant), "the registration's connection closed already")

        // Off.
        let callsBefore = avahiMethodCalls(monitor).count
        let deny = set("deny", on: "host-a", config)
        let unavailable = host.waitForEvent("advertising-unavailable", from: advertised.index + 1, timeout: 30)
        if let unavailable {
            print("privacy deny → advertising-unavailable: \(ms(unavailable.time, since: deny.done)) after the deny "
                  + "exited (\(ms(unavailable.time, since: deny.started)) after it started)")
            XCTAssertEqual(unavailable.event["message"] as? String, Self.offText, "\(unavailable.event)")
        } else {
            XCTFail("no advertising-unavailable after the deny: \(host.output) \(host.standardError)")
        }
        // The entry group freed: its connection closes (see `busMonitor`), or an explicit Free or Reset.
        let freedByCall = waitForCall(monitor, from: callsBefore, timeout: 0) {
            isCall($0, interface: "EntryGroup", member: "Free") || isCall($0, interface: "EntryGroup", member: "Reset")
        }
        let stillOpen = freedByCall == nil ? waitForClosed([registrant], monitor: monitor, timeout: 15) : []
        XCTAssertEqual(stillOpen, [], "the entry group was not freed on host-a's bus: the connection "
                       + "\(registrant) that registered it is still open and there was no EntryGroup Free or Reset: "
                       + "\(calls(monitor, from: callsBefore))")
        print("privacy deny → the registration's connection \(registrant) closed "
              + "\(stillOpen.isEmpty ? "" : "never")\(freedByCall.map { " (\($0))" } ?? "")")
        let goneBy = Date().addingTimeInterval(20)
        var stillListed = true
        while Date() < goneBy {
            stillListed = avahiBrowseLists(on: "host-b", name: name)
            if !stillListed { break }
            usleep(250_000)
        }
        print("avahi-browse on host-b no longer lists it: \(stillListed ? "never (20 s)" : ms(.now, since: deny.done))")
        XCTAssertFalse(stillListed, "host-b's avahi-browse still lists '\(name)' 20 s after the deny")
        XCTAssertTrue(host.isRunning, "the host stopped: \(host.output) \(host.standardError)")
        // Off: no new registration meanwhile.
        XCTAssertFalse(calls(monitor, from: callsBefore).contains {
            isCall($0, interface: "Server", member: "EntryGroupNew") || avahiMembers([$0]) == ["AddService"]
        }, "registered again while off: \(calls(monitor, from: callsBefore))")

        // On again: advertised again.
        let indexBeforeGrant = host.output.count
        let grant = set("grant", on: "host-a", config)
        let again = host.waitForEvent("advertised", from: indexBeforeGrant, timeout: 10)
        XCTAssertNotNil(again, "not advertised again after the grant: \(host.output) \(host.standardError)")
        if let again { print("privacy grant → advertised: \(ms(again.time, since: grant.done))") }
        let againName = again?.event["name"] as? String ?? name
        XCTAssertNotNil(avahiBrowseResolved(on: "host-b", name: againName, timeout: 10),
                        "host-b's avahi-browse does not list '\(againName)' after the grant")
    }

    // MARK: 4. Search in the TUI stops at once, and comes back

    func testTUISearchStopsBrowsingAtOnceWhenAccessIsTurnedOffAndResumesWhenTurnedOn() throws {
        let name = "Revoke search"
        _ = try publish(on: "host-a", name: name)
        let config = grantedDirectory("search")
        let monitor = try busMonitor(on: "host-b")
        tmux = try Tmux.lab()
        let tui = try LabTUI(tmux: tmux!, session: "revoke", on: "host-b", configDirectory: config,
                             arguments: ["--name", "bob"])
        tuis.append(tui)
        XCTAssertNotNil(tui.waitFor("Play against the computer"), "no menu:\n\(tui.screen)\n\(tui.log)")
        XCTAssertNotNil(tui.findPID(), "no TUI process on host-b")
        try tui.keys("s")
        XCTAssertNotNil(tui.waitFor { $0.contains("1 game") && $0.contains(name) },
                        "Search does not list '\(name)':\n\(tui.screen)")
        let browserNew = try XCTUnwrap(
            waitForCall(monitor, from: 0, timeout: 5) { isCall($0, interface: "Server", member: "ServiceBrowserNew") },
            "no ServiceBrowserNew: \(avahiMethodCalls(monitor))")
        let browsing = try XCTUnwrap(sender(browserNew), browserNew)

        // Off, from another process.
        let callsBefore = avahiMethodCalls(monitor).count
        let deny = set("deny", on: "host-b", config)
        let waiting = tui.waitFor(timeout: 30) { screen in
            screenWords(screen).contains("Waiting for local network access") && !screen.contains(name)
        }
        let shown = ContinuousClock.now
        XCTAssertNotNil(waiting, "Search still browses after the deny:\n\(tui.screen)")
        print("privacy deny → Search shows the reason, no games: ≤ \(ms(shown, since: deny.done)) after the deny exited")
        // The ServiceBrowser freed: its connection closes (see `busMonitor`), or an explicit Free. And every other
        // connection the TUI made to Avahi (a TXT query, say) is gone too.
        let freedByCall = waitForCall(monitor, from: callsBefore, timeout: 0) {
            isCall($0, interface: "ServiceBrowser", member: "Free")
        }
        let browserOpen = freedByCall == nil ? waitForClosed([browsing], monitor: monitor, timeout: 15) : []
        XCTAssertEqual(browserOpen, [], "the ServiceBrowser was not freed: its connection \(browsing) is "
                       + "still open and there was no ServiceBrowser Free: \(calls(monitor, from: callsBefore))")
        let clients = Set(avahiMethodCalls(monitor).prefix(callsBefore).compactMap(sender))
        let clientsOpen = waitForClosed(clients, monitor: monitor, timeout: 15)
        XCTAssertEqual(clientsOpen, [], "connections of host-b's TUI to Avahi still open after the deny "
                       + "(of \(clients.sorted()))")
        print("privacy deny → the browse's connection \(browsing) closed \(browserOpen.isEmpty ? "" : "never"); "
              + "the TUI's Avahi connections \(clients.sorted()), open: \(clientsOpen.sorted())")
        // Then nothing more: no call at all for 2 s after the clean-up settled, and nothing new since the deny.
        usleep(500_000)
        let settled = avahiMethodCalls(monitor).count
        sleep(2)
        XCTAssertEqual(calls(monitor, from: settled), [], "calls to Avahi on host-b while access is off")
        let sinceDeny = calls(monitor, from: callsBefore)
        XCTAssertTrue(avahiMembers(sinceDeny).allSatisfy { $0 == "Free" }, "calls after the deny other than Free: \(sinceDeny)")
        print("calls on host-b's bus after the deny: \(avahiMembers(sinceDeny))")
        XCTAssertFalse(tui.screen.contains(name), tui.screen)
        XCTAssertTrue(tui.isRunning, "the TUI died:\n\(tui.screen)")

        // On again: the list comes back by itself.
        let grant = set("grant", on: "host-b", config)
        let back = tui.waitFor(timeout: 10) { $0.contains("1 game") && $0.contains(name) }
        XCTAssertNotNil(back, "the list did not come back after the grant:\n\(tui.screen)")
        if back != nil { print("privacy grant → listed again: ≤ \(ms(.now, since: grant.done))") }
        XCTAssertNotNil(waitForCall(monitor, from: settled, timeout: 5) {
            isCall($0, interface: "Server", member: "ServiceBrowserNew")
        }, "no new ServiceBrowserNew after the grant")
    }

    // MARK: 5. No lookup of a host name before permission

    func testAJoinToAHostNameLooksNothingUpBeforePermission() throws {
        // Safety: after the grant the name IS looked up (DNS): host-b's namespace must have no way out of the lab.
        let (_, routes) = Lab.run(["exec", "host-b", "--", "ip", "route", "show", "table", "all"])
        XCTAssertFalse(routes.split(separator: "\n").contains { $0.hasPrefix("default") },
                       "host-b has a default route; not running a DNS lookup from there: \(routes)")
        guard !routes.split(separator: "\n").contains(where: { $0.hasPrefix("default") }) else { return }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            XCTFail("strace is missing: run `make deps`")
            return
        }

        let config = undecidedDirectory("lookup")
        let trace = Scratch.path("tictactoe-lab-revoke-strace-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt")
        scratchPaths.append(trace)
        let target = "some-host.local:7878"
        let joiner = track(try LabProcess(
            on: "host-b",
            ["strace", "-f", "-ttt", "-e", "trace=socket,connect,sendto,sendmsg,sendmmsg", "-o", trace,
             tictactoeBinary, "join", target, "--headless", "--json", "--name", "bob", "--connect-timeout", "3"],
            environment: ["TICTACTOE_CONFIG_DIR": config]))
        let waiting = try XCTUnwrap(joiner.waitForEvent("state", timeout: 15) { $0["state"] as? String == "waiting" },
                                    "join \(target) did not wait: \(joiner.output) \(joiner.standardError)")
        XCTAssertTrue((waiting.event["reason"] as? String ?? "").contains("local network permission not determined"),
                      "\(waiting.event)")
        sleep(2)  // time for a lookup to show, if there were one
        XCTAssertTrue(joiner.isRunning, "the join gave up: \(joiner.output) \(joiner.standardError)")
        let granted = Date().timeIntervalSince1970
        _ = set("grant", on: "host-b", config)

        let status = joiner.waitForExit(timeout: 20)
        let text = joiner.output.joined(separator: "\n") + "\n" + joiner.standardError
        XCTAssertEqual(status, 5, "after the grant: \(text)")
        XCTAssertTrue(text.contains("cannot resolve"), "after the grant: \(text)")

        let lines = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        XCTAssertFalse(lines.isEmpty, "strace wrote nothing to \(trace): \(joiner.standardError)")
        // "PID SECONDS.MICROS syscall(…)": split at the grant.
        func time(_ line: String) -> Double? {
            let fields = line.split(separator: " ", maxSplits: 2)
            return fields.count >= 2 ? Double(fields[1]) : nil
        }
        let before = lines.filter { (time($0) ?? .infinity) < granted }
        let after = lines.filter { (time($0) ?? 0) >= granted }
        func isLookup(_ line: String) -> Bool {
            line.contains("htons(53)") || line.contains("htons(5353)")
                || line.contains("avahi-daemon/socket")  // nss-mdns asks avahi-daemon
                || (line.contains("socket(AF_INET") && line.contains("SOCK_DGRAM"))
                || ((line.contains("connect(") || line.contains("send")) && line.contains("AF_INET"))
        }
        let early = before.filter(isLookup)
        XCTAssertEqual(early, [], "network activity before the grant (join \(target)):\n\(early.joined(separator: "\n"))")
        // The same trace sees the lookup once allowed: it would have seen one before.
        let late = after.filter(isLookup)
        print("before the grant: \(before.count) traced calls, none a lookup; after: \(late.count) lookup calls, e.g. "
              + "\(late.prefix(3))")
        XCTAssertFalse(late.isEmpty, "no lookup traced after the grant either (is the trace working?): \(after)")
    }
}
