import Foundation
import TicTacToeTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif


/// The project's LAN lab (Tests/lab/lan): hosts in network namespaces with their own dbus-daemon and avahi-daemon.
/// Everything Bonjour in these tests runs inside it, never in the machine's own network namespace.
enum Lab {
    static let script: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lab/lan").path
    }()

    static let hosts = ["host-a", "host-b", "host-c"]

    /// Which lab this test process uses (`TICTACTOE_LAB`, as `lan` reads it; default `lab`): `make test` runs the lab
    /// tests on three lines at once, each in a lab of its own.
    static let name = ProcessInfo.processInfo.environment["TICTACTOE_LAB"] ?? "lab"

    /// HOST's network namespace (`ip netns pids` lists what runs there).
    static func namespace(of host: String) -> String { "ttt-\(name)-\(host)" }

    /// HOST's own system bus, where its avahi-daemon is.
    static func bus(of host: String) -> String { "unix:path=/run/tictactoe-\(name)/hosts/\(host)/dbus/system_bus_socket" }

    /// The apps' state directory (their debug log and privacy report) for every process of this lab's tests.
    static let appStateDirectory = Scratch.path("tictactoe-\(name)-state")

    /// Why the lab cannot run here, or nil when it can (root, the tools installed).
    static var unavailableReason: String? {
        if geteuid() != 0 {
            return "the LAN lab needs root (network namespaces, mounts): run `sudo make test` to include these tests"
        }
        for tool in ["/usr/sbin/avahi-daemon", "/usr/bin/dbus-daemon", "/usr/bin/avahi-publish"] {
            if !FileManager.default.isExecutableFile(atPath: tool) {
                return "\(tool) is missing: run `make deps` (avahi-daemon, avahi-utils, dbus, iproute2)"
            }
        }
        return nil
    }

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// A local network decision directory where access is allowed (`tictactoe privacy grant` ran there once), for
    /// the discovery tests: they are about Bonjour, not about the prompt.
    static let grantedConfigDirectory: String = {
        let directory = Scratch.path("tictactoe-lab-config-granted-\(getpid())")
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = try? runToEnd(tictactoeBinary, ["privacy", "grant"], environment: ["TICTACTOE_CONFIG_DIR": directory])
        return directory
    }()

    /// Skips the test with the reason (or fails it in CI, where a skip would hide that these tests never ran).
    static func require(file: StaticString = #filePath, line: UInt = #line) throws {
        if let reason = unavailableReason ?? upFailure {
            if isCI {
                XCTFail("LAN lab tests cannot run in CI: \(reason)", file: file, line: line)
                throw LabError.unavailable(reason)
            }
            throw XCTSkip("LAN lab tests skipped: \(reason)")
        }
    }

    enum LabError: Error { case unavailable(String), failed(String) }

    /// Set when `up` failed.
    nonisolated(unsafe) static var upFailure: String?
    nonisolated(unsafe) private static var lockFD: Int32 = -1
    /// How the lab's hosts are addressed: `ipv4` (198.18.0.x; avahi on IPv4 only) or `ipv6Only` (`lan up
    /// --ipv6-only`: no IPv4 at all, only each host's link-local fe80:: address; avahi on IPv6 only).
    enum Mode: Sendable { case ipv4, ipv6Only }

    /// The lab `up` brought up in this test process: its mode and every host as `lan up` was given it.
    nonisolated(unsafe) private static var upAs: (mode: Mode, hosts: [String])?

    /// The lab for a test class. It is brought up once per test process and mode, with every host of `Lab.hosts`
    /// (a class uses the ones it names), and kept for the next class when that asks for no other mode or interface
    /// name: a class that asks for more than the lab that is up gets a fresh one (`lan up` clears the one before).
    /// What a failed test left behind is cleared by its class (`restartDaemons`). The lab goes down when the test run
    /// ends. The lab lock is held from the first `up` to the end of the run: one user of a lab at a time, also across
    /// test processes (another `make test` on the same machine). `hosts` are names, or `NAME=IFNAME` for a host whose
    /// interface is named IFNAME (`lan up`).
    static func up(_ mode: Mode = .ipv4, hosts: [String] = Lab.hosts) {
        guard unavailableReason == nil else { return }
        if lockFD < 0 {
            lockFD = open("/run/lock/tictactoe-\(name).lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
            if lockFD >= 0 { flock(lockFD, LOCK_EX) }
            XCTestObservationCenter.shared.addTestObserver(LabTeardown())
        }
        let named = Set(hosts.map { String($0.prefix { $0 != "=" }) })
        let all = hosts + Lab.hosts.filter { !named.contains($0) }
        if let upAs, upFailure == nil, upAs.mode == mode, Set(hosts).isSubset(of: upAs.hosts) { return }
        let (status, output) = run(["up"] + (mode == .ipv6Only ? ["--ipv6-only"] : []) + all)
        upFailure = status == 0 ? nil : "`lan up` failed (\(status)): \(output)"
        upAs = status == 0 ? (mode, all) : nil
    }

    /// Takes the lab down and lets it go (the end of the test run).
    static func down() {
        guard unavailableReason == nil else { return }
        let (status, output) = run(["down"])
        if status != 0 { print("lan down failed: \(output)") }
        upAs = nil
        if lockFD >= 0 {
            flock(lockFD, LOCK_UN)
            close(lockFD)
            lockFD = -1
        }
    }

    /// Starts the avahi-daemon of each host again, with an empty cache: after a test that failed, so that what it
    /// left behind on the network never reaches the next test (nothing to do when the lab is not up).
    static func restartDaemons(on hosts: [String]) {
        guard unavailableReason == nil, upFailure == nil else { return }
        for host in hosts {
            let (status, output) = run(["restart-avahi", host])
            if status != 0 { print("lan restart-avahi \(host) failed: \(output)") }
        }
    }

    /// Runs a lab verb to completion; returns its status and its output (stdout and stderr). The output goes to a
    /// file, not a pipe: `lan up` leaves daemons running that keep what they inherited.
    @discardableResult
    static func run(_ arguments: [String]) -> (Int32, String) {
        let outputPath = Scratch.path("tictactoe-lab-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out")
        defer { unlink(outputPath) }
        let status: Int32
        do {
            let process = try ChildProcess(
                executable: "/bin/bash", [script] + arguments, environment: ProcessInfo.processInfo.environment,
                input: .null, output: .file(outputPath), errors: .merged)
            guard let ended = process.waitForExit(timeout: 300) else {
                process.terminate()
                return (-1, "`lan \(arguments.joined(separator: " "))` still ran after 300 s")
            }
            status = ended
        } catch {
            return (-1, "cannot start `lan`: \(error)")
        }
        return (status, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }

    /// HOST's address: 198.18.0.x, or in IPv6-only mode its link-local `fe80::…` (no scope: seen from another host,
    /// the scope is that host's own interface, `lab0`).
    static func address(of host: String) -> String {
        run(["addr", host]).1.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A host's network interface unless its class names another (`LabTestCase.labInterfaces`).
    static let interface = "lab0"

    /// HOST's interface name (`lan ifname`): the scope of a link-local address seen from HOST.
    static func interface(of host: String) -> String {
        run(["ifname", host]).1.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Takes the lab down once every test has run.
private final class LabTeardown: NSObject, XCTestObservation {
    func testBundleDidFinish(_ testBundle: Bundle) { Lab.down() }
}

/// A process running on a lab host (`lan exec HOST -- …`, which execs, so `pid` is the command's own pid):
/// TestSupport's one process harness.
typealias LabProcess = ChildProcess

extension ChildProcess {
    /// `command` on lab host `host`. `environment` adds to (or overrides) the test process's environment; by default
    /// the local network decision comes from a directory where access is already allowed (the privacy tests pass
    /// their own, fresh one).
    convenience init(on host: String, _ command: [String], environment extra: [String: String] = [:]) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = Lab.appStateDirectory
        environment["TICTACTOE_BONJOUR"] = nil  // Bonjour is what the lab is for
        environment["LANGUAGE"] = "en"  // English whatever the tests' own locale
        environment["TICTACTOE_CONFIG_DIR"] = Lab.grantedConfigDirectory
        for (key, value) in extra { environment[key] = value }
        try self.init(executable: "/bin/bash", [Lab.script, "exec", host, "--"] + command, environment: environment,
                      input: .null)
    }

    /// `tictactoe ARGS` on `host`.
    static func tictactoe(on host: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> ChildProcess
    {
        try ChildProcess(on: host, [tictactoeBinary] + arguments, environment: environment)
    }

    /// Waits for a `browse --watch --json` list satisfying `match` (given the game names and their objects).
    @discardableResult
    func waitForGames(from start: Int = 0, timeout: TimeInterval = 20, where match: ([[String: Any]]) -> Bool)
        -> (games: [[String: Any]], time: ContinuousClock.Instant, index: Int)?
    {
        guard let found = waitForEvent("games", from: start, timeout: timeout, where: { object in
            match(object["games"] as? [[String: Any]] ?? [])
        }) else { return nil }
        return (found.event["games"] as? [[String: Any]] ?? [], found.time, found.index)
    }
}

func names(_ games: [[String: Any]]) -> [String] { games.compactMap { $0["name"] as? String } }

/// Decodes the `\DDD` (decimal) escapes of `avahi-browse -p` output.
func avahiUnescape(_ text: String) -> String {
    var bytes: [UInt8] = []
    let utf8 = Array(text.utf8)
    var index = 0
    while index < utf8.count {
        if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count,
           let value = UInt8(String(decoding: utf8[(index + 1)...(index + 3)], as: UTF8.self)) {
            bytes.append(value)
            index += 4
        } else {
            bytes.append(utf8[index])
            index += 1
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

extension ContinuousClock.Instant {
    func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = (self - start).components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

// MARK: What a process does on a lab host's network

/// One TCP or UDP socket as `ss -tuanpH` prints it in a lab host's namespace.
struct LabSocket: CustomStringConvertible, Hashable {
    /// tcp or udp.
    let netid: String
    /// LISTEN, ESTAB, SYN-SENT, UNCONN, …
    let state: String
    /// Local and peer addresses with their port: 127.0.0.1:7878, [::]:7878, *:7878, 198.18.0.11:54321.
    let local: String
    let peer: String
    /// The whole line, for messages.
    let line: String

    var description: String { line }

    /// The host part of `ss`'s ADDRESS:PORT (no brackets, no %interface).
    static func host(_ address: String) -> String {
        var host = address
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        if let percent = host.firstIndex(of: "%") { host = String(host[..<percent]) }
        return host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }

    static func isLoopback(_ host: String) -> Bool {
        host.hasPrefix("127.") || host == "::1" || host.lowercased().hasPrefix("::ffff:127.")
    }

    /// True when only this machine is involved: a listener (or unconnected UDP socket) bound to a loopback address,
    /// or a connection to a loopback peer. `*`, `::`, `0.0.0.0` and the lab address are not.
    var isLoopbackOnly: Bool {
        if state == "LISTEN" || state == "UNCONN" { return Self.isLoopback(Self.host(local)) }
        return Self.isLoopback(Self.host(peer))
    }

    var isListening: Bool { state == "LISTEN" }
}

extension Lab {
    /// The TCP and UDP sockets of process `pid` on lab host `host` (`ss -tuanpH` in the host's namespace, the lines
    /// naming `pid=PID,`).
    static func sockets(of pid: pid_t, on host: String) -> [LabSocket] {
        let (_, output) = run(["exec", host, "--", "ss", "-tuanpH"])
        return output.split(separator: "\n").compactMap { line -> LabSocket? in
            guard line.contains("pid=\(pid),") else { return nil }
            let fields = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard fields.count >= 6 else { return nil }
            return LabSocket(netid: fields[0], state: fields[1], local: fields[4], peer: fields[5], line: String(line))
        }
    }

    /// The sockets of `pid` on `host` that reach beyond loopback (see `LabSocket.isLoopbackOnly`).
    static func nonLoopbackSockets(of pid: pid_t, on host: String) -> [LabSocket] {
        sockets(of: pid, on: host).filter { !$0.isLoopbackOnly }
    }

    /// The unix sockets of `pid` made in `host`'s namespace (`ss -xapH` there): a connection to the host's D-Bus,
    /// for one. Sockets made in the machine's own namespace (none a `LabProcess` inherits) are not listed.
    static func unixSockets(of pid: pid_t, on host: String) -> [String] {
        let (_, output) = run(["exec", host, "--", "ss", "-xapH"])
        return output.split(separator: "\n").filter { $0.contains("pid=\(pid),") }.map(String.init)
    }

    /// Every descriptor of `pid` that is a socket of any kind (TCP, UDP, unix: the D-Bus connection too), as
    /// `socket:[inode]` from `/proc/PID/fd` (root reads any process's). Only meaningful for a process that inherited
    /// none (a TUI started by tmux, or a `LabProcess`: the harness passes on no descriptor but its three streams).
    static func socketDescriptors(of pid: pid_t) -> [String] {
        let directory = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)") }
            .filter { $0.hasPrefix("socket:") }
    }

    /// `dbus-monitor` on `host`'s own system bus for method calls to org.freedesktop.Avahi (from any process on that
    /// host), started and listening. Its stdout lines are the calls: see `avahiMethodCalls`.
    static func avahiCallMonitor(on host: String) throws -> LabProcess {
        let bus = bus(of: host)
        let monitor = try LabProcess(on: host, ["dbus-monitor", "--address", bus,
                                                "type='method_call',destination='org.freedesktop.Avahi'"])
        guard monitor.waitForLine(timeout: 15, { $0.contains("NameAcquired") || $0.contains("signal") }) != nil else {
            monitor.terminate()
            throw LabError.failed("dbus-monitor on \(host) did not start: \(monitor.standardError)")
        }
        return monitor
    }
}

/// The method calls to Avahi a `Lab.avahiCallMonitor` saw (one line each: sender, path, interface, member).
func avahiMethodCalls(_ monitor: LabProcess) -> [String] {
    monitor.output.filter { $0.hasPrefix("method call") }
}

/// The member of each call (ServiceBrowserNew, EntryGroupNew, AddService, …).
func avahiMembers(_ calls: [String]) -> [String] {
    calls.compactMap { line in
        line.range(of: "member=").map { String(line[$0.upperBound...].prefix { !$0.isWhitespace }) }
    }
}
