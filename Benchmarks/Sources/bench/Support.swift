// Processes, clocks, files and statistics for the bench driver.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNS() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Pins the calling process (the driver) to `cpu`, so that its reading does not compete with the game processes.
func pinSelf(to cpu: Int) {
    var set = cpu_set_t()
    withUnsafeMutableBytes(of: &set) { raw in
        for index in raw.indices { raw[index] = 0 }
        raw[cpu / 8] |= UInt8(1 << (cpu % 8))
    }
    // sched_setaffinity(2) is behind _GNU_SOURCE, which Glibc's module map does not show Swift: look it up.
    typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_setaffinity") else { return }
    let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
    _ = withUnsafeBytes(of: &set) { setAffinity(0, MemoryLayout<cpu_set_t>.size, $0.baseAddress!) }
}

/// Real-time scheduling for the driver (root only), so that its reads wake at once even when other work shares its
/// CPU; false if not allowed.
func raiseSelfToRealTime() -> Bool {
    var parameter = sched_param(sched_priority: 10)
    return sched_setscheduler(0, SCHED_FIFO, &parameter) == 0
}

/// What `wait4` says of a child: its status and resource usage (CPU, context switches, peak RSS).
struct Exit {
    var status: Int32
    var usage: rusage
    var userSystemNS: UInt64 {
        UInt64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000_000
            + UInt64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1000
    }
    var contextSwitches: Int { usage.ru_nvcsw + usage.ru_nivcsw }
    var exitCode: Int32 { (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f) }
}

/// A child process started with posix_spawn (not Foundation's Process: the driver reaps it with wait4 itself, for the
/// child's rusage).
final class Child {
    let pid: pid_t
    let argv: [String]
    private(set) var exit: Exit?

    /// stdin from /dev/null; stdout and stderr to the given descriptors (or /dev/null).
    init(_ argv: [String], environment: [String: String], stdout: Int32? = nil, stderr: Int32? = nil) throws {
        self.argv = argv
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr, 2) } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A new process group: a stray child never gets the terminal's signals meant for the driver.
        // The driver may run SCHED_FIFO (to read lines as they come on a busy machine): children never do.
        var normal = sched_param(sched_priority: 0)
        posix_spawnattr_setschedpolicy(&attributes, SCHED_OTHER)
        posix_spawnattr_setschedparam(&attributes, &normal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSCHEDULER))
        posix_spawnattr_setpgroup(&attributes, 0)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        guard result == 0 else { throw BenchError("cannot start \(argv[0]): \(String(cString: strerror(result)))") }
        self.pid = pid
    }

    /// Waits for the child (at most `timeout` seconds, then SIGKILL) and returns its status and rusage.
    @discardableResult
    func wait(timeout: Double = 120) -> Exit {
        if let exit { return exit }
        let deadline = monotonicNS() + UInt64(timeout * 1e9)
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let result = wait4(pid, &status, WNOHANG, &usage)
            if result == pid { break }
            if result < 0 { break }
            if monotonicNS() > deadline {
                kill(pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                break
            }
            usleep(2000)
        }
        let done = Exit(status: status, usage: usage)
        exit = done
        return done
    }

    /// Whether the child has exited (reaped here if so).
    var hasExited: Bool {
        if exit != nil { return true }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, WNOHANG, &usage) == pid else { return false }
        exit = Exit(status: status, usage: usage)
        return true
    }

    func terminate() {
        if exit == nil { kill(pid, SIGTERM) }
    }

    /// VmHWM from /proc/PID/status, kB (while it runs).
    var vmHWMKB: Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
        return nil
    }
}

/// A pipe whose read end the driver reads line by line, each line stamped with CLOCK_MONOTONIC when the read that
/// brought it returned.
final class LineReader {
    let readFD: Int32
    let writeFD: Int32
    /// Bytes read and not yet returned as lines: storage[start..<end].
    private var storage = [UInt8](repeating: 0, count: 1 << 20)
    private var start = 0
    private var end = 0
    private var eof = false
    private var lastStamp: UInt64 = 0
    private(set) var readCount = 0

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
        readFD = fds[0]
        writeFD = fds[1]
        _ = fcntl(readFD, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeFD, F_SETFD, FD_CLOEXEC)
    }

    /// The driver's copy of the write end, closed once the child has it (so EOF comes when the child exits).
    func closeWriteEnd() { close(writeFD) }

    deinit { close(readFD) }

    /// The next line and when it arrived; nil at EOF or after `timeout` seconds.
    func next(timeout: Double) -> (line: String, at: UInt64)? {
        let deadline = monotonicNS() + UInt64(max(0, timeout) * 1e9)
        while true {
            if let newline = storage[start..<end].firstIndex(of: 10) {
                let line = String(decoding: storage[start..<newline], as: UTF8.self)
                start = newline + 1
                return (line, lastStamp)
            }
            if eof { return nil }
            let now = monotonicNS()
            if now >= deadline { return nil }
            if start > 0 {  // keep the partial line at the front
                storage.withUnsafeMutableBufferPointer { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + start, end - start)
                }
                end -= start
                start = 0
            }
            if end == storage.count { storage += [UInt8](repeating: 0, count: storage.count) }
            var poller = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(1000, (deadline - now) / 1_000_000 + 1)))
            if ready <= 0 { continue }
            let count = storage.withUnsafeMutableBufferPointer { raw in
                read(readFD, raw.baseAddress! + end, raw.count - end)
            }
            let stamp = monotonicNS()
            if count <= 0 {
                eof = true
                continue
            }
            lastStamp = stamp
            readCount += 1
            end += count
        }
    }
}

/// Runs a command to completion and returns its exit code and standard output (stderr to `stderrPath` or discarded).
@discardableResult
func run(_ argv: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
         timeout: Double = 120) throws -> (code: Int32, output: String) {
    let reader = try LineReader()
    let child = try Child(argv, environment: environment, stdout: reader.writeFD, stderr: reader.writeFD)
    reader.closeWriteEnd()
    var lines: [String] = []
    let deadline = monotonicNS() + UInt64(timeout * 1e9)
    while let (line, _) = reader.next(timeout: max(0.01, Double(deadline &- monotonicNS()) / 1e9)) {
        lines.append(line)
        if monotonicNS() > deadline { break }
    }
    let exit = child.wait(timeout: 1)
    return (exit.exitCode, lines.joined(separator: "\n"))
}

/// A JSON line as a dictionary (nil if it is not one).
func jsonObject(_ line: String) -> [String: Any]? {
    guard let data = line.data(using: .utf8) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}

/// Waits until a file has a line for which `match` gives a value.
func waitForLine<T>(in path: String, timeout: Double, while child: Child? = nil, _ match: (String) -> T?) -> T? {
    let deadline = monotonicNS() + UInt64(timeout * 1e9)
    while monotonicNS() < deadline {
        let exited = child?.hasExited ?? false
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            for line in text.split(separator: "\n") { if let value = match(String(line)) { return value } }
        }
        if exited { return nil }
        usleep(3000)
    }
    return nil
}

/// Drops the file's pages from the page cache (written back first, so that none stays), as if the machine had not
/// read it since it started; nil, or why not. The kernel maps the cached part of a binary around each page a process
/// touches (64 kB at a time), so a binary that was just written (`cp`, `make install`, a link) shows more resident
/// memory than the same bytes read back on demand: up to 0.5 MB for ours. The memory figure's match starts from this
/// state (its host does; the joiner starts after the host has read back what it ran). Pages a running process maps
/// stay, and a file on tmpfs has no other copy to drop to.
func dropFromPageCache(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "open: \(String(cString: strerror(errno)))" }
    defer { close(fd) }
    guard fsync(fd) == 0 else { return "fsync: \(String(cString: strerror(errno)))" }
    let result = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
    return result == 0 ? nil : "posix_fadvise: \(String(cString: strerror(result)))"
}

func openForWriting(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
}

func makeTemporaryDirectory(_ prefix: String) -> String {
    var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    return path
}

/// p50, p99, mean, min, max of a sample (any unit).
struct Summary: Codable {
    var n: Int
    var p50: Double
    var p99: Double
    var mean: Double
    var min: Double
    var max: Double

    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func quantile(_ q: Double) -> Double {
            let position = q * Double(sorted.count - 1)
            let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
        n = sorted.count
        p50 = quantile(0.5)
        p99 = quantile(0.99)
        mean = sorted.reduce(0, +) / Double(sorted.count)
        min = sorted.first!
        max = sorted.last!
    }
}

/// A number with about three significant digits.
func format(_ value: Double) -> String {
    if value.isNaN { return "-" }
    let magnitude = abs(value)
    if magnitude >= 1000 { return String(format: "%.0f", value) }
    if magnitude >= 100 { return String(format: "%.0f", value) }
    if magnitude >= 10 { return String(format: "%.1f", value) }
    if magnitude >= 1 { return String(format: "%.2f", value) }
    return String(format: "%.3f", value)
}

/// Writes to standard error (fd 2) unbuffered.
func writeError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// What a SIGINT or SIGTERM to the driver runs before it exits: stop the children, take the lab down.
nonisolated(unsafe) var cleanUpOnSignal: (() -> Void)?
