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
        let directory = NSTemporaryDirectory() + "tictactoe-lab-config-granted-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let grant = Process()
        grant.executableURL = URL(fileURLWithPath: tictactoeBinary)
        grant.arguments = ["privacy", "grant"]
        var environment = ProcessInfo.processInfo.environment
        environment["TICTACTOE_CONFIG_DIR"] = directory
        grant.environment = environment
        grant.standardOutput = FileHandle.nullDevice
        grant.standardError = FileHandle.nullDevice
        try? grant.run()
        grant.waitUntilExit()
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

    /// One lab for a test class at a time, also across test processes (another `make test` on the same machine).
    /// `hosts` are names, or `NAME=IFNAME` for a host whose interface is named IFNAME (`lan up`).
    static func up(_ mode: Mode = .ipv4, hosts: [String] = Lab.hosts) {
        guard unavailableReason == nil else { return }
        lockFD = open("/run/lock/tictactoe-lab.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        if lockFD >= 0 { flock(lockFD, LOCK_EX) }
        let (status, output) = run(["up"] + (mode == .ipv6Only ? ["--ipv6-only"] : []) + hosts)
        upFailure = status == 0 ? nil : "`lan up` failed (\(status)): \(output)"
    }

    static func down() {
        guard unavailableReason == nil else { return }
        let (status, output) = run(["down"])
        if status != 0 { print("lan down failed: \(output)") }
        if lockFD >= 0 {
            flock(lockFD, LOCK_UN)
            close(lockFD)
            lockFD = -1
        }
    }

    /// Runs a lab verb to completion; returns its status and its output (stdout and stderr).
    ///
    /// posix_spawn and waitpid rather than Foundation's Process: `lan up` leaves daemons running in the background,
    /// and Process.waitUntilExit was seen to hang on such a script's exit.
    @discardableResult
    static func run(_ arguments: [String]) -> (Int32, String) {
        let outputPath = NSTemporaryDirectory() + "tictactoe-lab-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ["/bin/bash", script] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, &cArguments, environ)
        guard spawned == 0 else { return (-1, "posix_spawn failed: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
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

/// A process running on a lab host (`lan exec HOST -- …`, which execs, so `pid` is the command's own pid). Lines of
/// standard output are kept with the time they arrived.
final class LabProcess: @unchecked Sendable {
    let process = Process()
    let host: String
    let arguments: [String]
    private let lock = NSCondition()
    private var lines: [(time: ContinuousClock.Instant, text: String)] = []
    private var partial = Data()
    private var errorText = Data()
    private var errorLines: [(time: ContinuousClock.Instant, text: String)] = []
    private var errorPartial = Data()
    private var stdoutClosed = false
    let started = ContinuousClock.now

    /// `environment` adds to (or overrides) the test process's environment; by default the local network decision
    /// comes from a directory where access is already allowed (the privacy tests pass their own, fresh one).
    init(on host: String, _ command: [String], environment extra: [String: String] = [:]) throws {
        self.host = host
        self.arguments = command
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Lab.script, "exec", host, "--"] + command
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = NSTemporaryDirectory() + "tictactoe-lab-state"
        environment["TICTACTOE_BONJOUR"] = nil  // Bonjour is what the lab is for
        environment["LANGUAGE"] = "en"  // English whatever the tests' own locale
        environment["TICTACTOE_CONFIG_DIR"] = Lab.grantedConfigDirectory
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.receive(data, error: false)
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.receive(data, error: true)
        }
        try process.run()
    }

    /// `tictactoe ARGS` on `host`.
    static func tictactoe(on host: String, _ arguments: [String], environment: [String: String] = [:]) throws -> LabProcess {
        try LabProcess(on: host, [tictactoeBinary] + arguments, environment: environment)
    }

    private func receive(_ data: Data, error: Bool) {
        let now = ContinuousClock.now
        lock.lock()
        defer { lock.unlock() }
        if error {
            errorText.append(data)
            errorPartial.append(data)
            while let newline = errorPartial.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: errorPartial[errorPartial.startIndex..<newline], as: UTF8.self)
                errorLines.append((now, line))
                errorPartial = Data(errorPartial[errorPartial.index(after: newline)...])
            }
        } else if data.isEmpty {
            stdoutClosed = true
            if !partial.isEmpty { lines.append((now, String(decoding: partial, as: UTF8.self))) }
            partial = Data()
        } else {
            partial.append(data)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append((now, String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)))
                partial = Data(partial[partial.index(after: newline)...])
            }
        }
        lock.broadcast()
    }

    var output: [String] { lock.withLock { lines.map(\.text) } }
    var standardError: String { lock.withLock { String(decoding: errorText, as: UTF8.self) } }

    var events: [[String: Any]] { output.compactMap(Self.json) }
    func events(named name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    static func json(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Waits for a stdout line (from the first, or from index `from`) matching `predicate`; returns it with its
    /// arrival time and index, or nil after `timeout` or at end of output.
    func waitForLine(from start: Int = 0, timeout: TimeInterval = 20, _ predicate: (String) -> Bool)
        -> (text: String, time: ContinuousClock.Instant, index: Int)?
    {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        var checked = start
        while true {
            while checked < lines.count {
                if predicate(lines[checked].text) { return (lines[checked].text, lines[checked].time, checked) }
                checked += 1
            }
            if stdoutClosed { return nil }
            if !lock.wait(until: deadline) { return nil }
        }
    }

    /// Waits for a stderr line matching `predicate`.
    func waitForErrorLine(timeout: TimeInterval = 20, _ predicate: (String) -> Bool)
        -> (text: String, time: ContinuousClock.Instant)?
    {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let line = errorLines.first(where: { predicate($0.text) }) { return (line.text, line.time) }
            if !lock.wait(until: deadline) { return nil }
        }
    }

    /// Waits for a JSON event named `name` (matching `match`), after line index `from`.
    @discardableResult
    func waitForEvent(_ name: String, from start: Int = 0, timeout: TimeInterval = 20,
                      where match: ([String: Any]) -> Bool = { _ in true })
        -> (event: [String: Any], time: ContinuousClock.Instant, index: Int)?
    {
        guard let found = waitForLine(from: start, timeout: timeout, { line in
            guard let object = Self.json(line) else { return false }
            return object["event"] as? String == name && match(object)
        }) else { return nil }
        return (Self.json(found.text)!, found.time, found.index)
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

    func waitForExit(timeout: TimeInterval = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(20_000)
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func signal(_ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    /// SIGKILL if still running (teardown).
    func terminate() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
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
    /// for one. Sockets the process inherited from a parent in the machine's own namespace (Foundation's `Process`
    /// hands each child one end of a socketpair) are not listed: they are not the program's doing.
    static func unixSockets(of pid: pid_t, on host: String) -> [String] {
        let (_, output) = run(["exec", host, "--", "ss", "-xapH"])
        return output.split(separator: "\n").filter { $0.contains("pid=\(pid),") }.map(String.init)
    }

    /// Every descriptor of `pid` that is a socket of any kind (TCP, UDP, unix: the D-Bus connection too), as
    /// `socket:[inode]` from `/proc/PID/fd` (root reads any process's). Only meaningful for a process that inherited
    /// none (a TUI started by tmux; not a `LabProcess`, see `unixSockets`).
    static func socketDescriptors(of pid: pid_t) -> [String] {
        let directory = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)") }
            .filter { $0.hasPrefix("socket:") }
    }

    /// `dbus-monitor` on `host`'s own system bus for method calls to org.freedesktop.Avahi (from any process on that
    /// host), started and listening. Its stdout lines are the calls: see `avahiMethodCalls`.
    static func avahiCallMonitor(on host: String) throws -> LabProcess {
        let bus = "unix:path=/run/tictactoe-lab/hosts/\(host)/dbus/system_bus_socket"
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
