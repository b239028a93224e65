import Foundation
import TicTacToeTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A `tictactoe` process whose standard output the test controls at the descriptor level (posix_spawn): a pipe the
/// test reads a few lines from and then closes, as `| head -n 2` does, or a file such as /dev/full. Standard input
/// is a pipe the test writes to; standard error goes to a file read at the end.
final class PipedProcess {
    enum Output {
        /// A pipe: read with `readLines`, close with `closeOutput`.
        case pipe
        /// A file opened for writing (e.g. /dev/full).
        case file(String)
        /// A pipe already holding as much as it takes (64 KB nobody has read): the process's first write waits.
        case fullPipe
    }

    let pid: pid_t
    private var outputRead: Int32 = -1
    private var inputWrite: Int32 = -1
    private let errorPath: String
    private var pending = [UInt8]()
    private var status: Int32?

    init(_ arguments: [String], output: Output, environment extra: [String: String] = [:]) throws {
        errorPath = NSTemporaryDirectory() + "tictactoe-stderr-\(UUID().uuidString)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var input: [Int32] = [0, 0]
        guard pipe(&input) == 0 else { throw RawPeerError.system("pipe", errno) }
        for fd in input { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        var outputPipe: [Int32] = [-1, -1]
        switch output {
        case .pipe, .fullPipe:
            guard pipe(&outputPipe) == 0 else { throw RawPeerError.system("pipe", errno) }
            for fd in outputPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            if case .fullPipe = output {
                let flags = fcntl(outputPipe[1], F_GETFL)
                _ = fcntl(outputPipe[1], F_SETFL, flags | O_NONBLOCK)
                let filler = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
                while filler.withUnsafeBytes({ write(outputPipe[1], $0.baseAddress, $0.count) }) > 0 {}
                _ = fcntl(outputPipe[1], F_SETFL, flags)
            }
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = NSTemporaryDirectory() + "tictactoe-e2e-state"
        environment["LANGUAGE"] = "en"  // English whatever the tests' own locale (a test asks for another)
        environment["TICTACTOE_BONJOUR"] = "off"  // loopback only: Bonjour is for the LAN lab
        for (key, value) in extra { environment[key] = value }
        var argv = ([tictactoeBinary] + arguments).map { strdup($0) } + [nil]
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, tictactoeBinary, &actions, nil, &argv, &envp)
        close(input[0])
        if outputPipe[1] >= 0 { close(outputPipe[1]) }
        guard result == 0 else {
            close(input[1])
            if outputPipe[0] >= 0 { close(outputPipe[0]) }
            throw RawPeerError.system("posix_spawn", result)
        }
        self.pid = pid
        inputWrite = input[1]
        outputRead = outputPipe[0]
    }

    deinit {
        terminate()
        if outputRead >= 0 { close(outputRead) }
        if inputWrite >= 0 { close(inputWrite) }
        unlink(errorPath)
    }

    /// Waits until a thread of the process is blocked writing to a pipe (its standard output, full), or `timeout`.
    func waitUntilBlockedWritingOutput(timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            if tasks.contains(where: { task in
                ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? "")
                    .contains("pipe_write")
            }) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Reads standard output until `count` lines have come (or `timeout` seconds passed, or it ended).
    func readLines(_ count: Int, timeout: TimeInterval = 30) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [String] = []
        while lines.count < count {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
                continue
            }
            let left = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            var ready = pollfd(fd: outputRead, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&ready, 1, left) == 1 else { break }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(outputRead, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            pending += chunk[..<n]
        }
        return lines
    }

    /// Reads standard output line by line until one contains `text`; returns the lines read (the last one the
    /// match, unless it ended or `timeout` passed first).
    func readLines(until text: String, timeout: TimeInterval = 30) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [String] = []
        while let line = readLines(1, timeout: max(0, deadline.timeIntervalSinceNow)).first {
            lines.append(line)
            if line.contains(text) { break }
        }
        return lines
    }

    /// Closes the reading end of standard output: the process's next write meets a reader that went away (EPIPE).
    func closeOutput() {
        if outputRead >= 0 { close(outputRead) }
        outputRead = -1
    }

    /// Writes `text` to the process's standard input.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(inputWrite, $0.baseAddress, $0.count) }
    }

    /// How the process ended: its exit code, or the signal that killed it; nil if it still ran after `timeout`.
    func waitForExit(timeout: TimeInterval = 60) -> (code: Int32?, signal: Int32?)? {
        let deadline = Date().addingTimeInterval(timeout)
        while status == nil {
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid {
                status = raw
                break
            }
            if result < 0, errno != EINTR { return nil }
            if Date() > deadline { return nil }
            usleep(20_000)
        }
        let raw = status!
        let signal = raw & 0x7F
        return signal == 0 ? (code: (raw >> 8) & 0xFF, signal: nil) : (code: nil, signal: signal)
    }

    var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Ends the process (SIGKILL) if it still runs: for teardown.
    func terminate() {
        guard status == nil else { return }
        kill(pid, SIGKILL)
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        status = raw
    }
}
