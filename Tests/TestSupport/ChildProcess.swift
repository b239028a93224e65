import Foundation
import Synchronization
import XCTest

/// A process a test starts (posix_spawn, no other descriptor of the test inherited), the one harness of every test
/// that runs a program: its standard output and error are read on their own threads with blocking reads to their end,
/// line by line with the time each line came, so waits never poll and nothing it printed is lost.
/// `waitForExit` returns only once the process has exited and both streams have reached their end; a process that
/// exits while something it started still holds one open fails the test saying so. Teardown (or deinit) kills it.
public final class ChildProcess: Sendable {
    /// Standard input: a pipe the test writes to (`writeInput`), or /dev/null.
    public enum Input: Sendable { case pipe, null }

    /// Standard output.
    public enum Output: Sendable {
        /// Read to its end, line by line.
        case lines
        /// Read until `count` lines have come, then closed by the reader, as `| head -n COUNT` does.
        case head(Int)
        /// Read until a line containing `text` has come (that line included), then closed by the reader.
        case headUntil(String)
        /// A pipe already holding as much as it takes (64 KB nobody has read): the process's first write waits, until
        /// the test closes it (`closeOutput`).
        case full
        /// A file opened for writing (e.g. /dev/full, or a file a test reads when the process has ended).
        case file(String)
    }

    /// Standard error: read to its end on its own (`standardError`), or into standard output's pipe or file.
    public enum Errors: Sendable { case separate, merged }

    /// How a process ended.
    public enum Termination: Equatable, Sendable {
        case exit(Int32)
        case signal(Int32)
    }

    /// A line of output, with when it came and its position.
    public struct Line: Sendable {
        public let text: String
        public let time: ContinuousClock.Instant
        public let index: Int
    }

    /// A JSON object printed on a line, with when it came and its line's position.
    public struct Event {
        public let event: [String: Any]
        public let time: ContinuousClock.Instant
        public let index: Int

        public subscript(key: String) -> Any? { event[key] }
    }

    public let pid: pid_t
    public let arguments: [String]
    public let started: ContinuousClock.Instant
    private let shared: Shared

    /// The longest a process's output may stay open after it exited (a process it started holding it) before
    /// `waitForExit` fails the test.
    public static let endOfOutputBound: TimeInterval = 60

    /// Starts `executable` with exactly `environment`, in `directory` if given.
    public init(
        executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        input: Input = .pipe, output: Output = .lines, errors: Errors = .separate
    ) throws {
        Self.ignoreBrokenPipes
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var opened: [Int32] = []  // every descriptor made here; the child's ends are closed after the spawn
        defer { for fd in opened { close(fd) } }
        func makePipe() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard GNU.pipe2(&fds, O_CLOEXEC) == 0 else { throw SocketCallError(call: "pipe2", code: errno) }
            return (fds[0], fds[1])
        }

        var inputWrite: Int32 = -1
        switch input {
        case .pipe:
            let pipe = try makePipe()
            opened.append(pipe.read)
            inputWrite = pipe.write
            posix_spawn_file_actions_adddup2(&actions, pipe.read, 0)
        case .null:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var outputRead: Int32 = -1
        switch output {
        case .lines, .head, .headUntil, .full:
            let pipe = try makePipe()
            opened.append(pipe.write)
            outputRead = pipe.read
            if case .full = output {
                let flags = fcntl(pipe.write, F_GETFL)
                _ = fcntl(pipe.write, F_SETFL, flags | O_NONBLOCK)
                let filler = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
                while filler.withUnsafeBytes({ write(pipe.write, $0.baseAddress, $0.count) }) > 0 {}
                _ = fcntl(pipe.write, F_SETFL, flags)
            }
            posix_spawn_file_actions_adddup2(&actions, pipe.write, 1)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        var errorRead: Int32 = -1
        switch errors {
        case .separate:
            let pipe = try makePipe()
            opened.append(pipe.write)
            errorRead = pipe.read
            posix_spawn_file_actions_adddup2(&actions, pipe.write, 2)
        case .merged:
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        _ = GNU.addCloseFrom(&actions, 3)
        if let directory { _ = GNU.addChdir(&actions, directory) }

        var argv = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, &argv, &envp)
        guard result == 0 else {
            for fd in [inputWrite, outputRead, errorRead] where fd >= 0 { close(fd) }
            throw SocketCallError(call: "posix_spawn \(executable)", code: result)
        }
        self.pid = pid
        self.arguments = arguments
        started = .now
        var state = State()
        state.input = inputWrite
        switch output {
        case .lines, .head, .headUntil: break
        case .full:
            state.heldOutput = outputRead
            state.outputEnded = true  // no reader: the test holds it until `closeOutput`
        case .file: state.outputEnded = true
        }
        if errorRead < 0 { state.errorEnded = true }
        let shared = Shared(state)
        self.shared = shared
        Thread { [pid] in shared.waitForExit(of: pid) }.start()
        switch output {
        case .lines:
            Thread { [outputRead] in shared.readToEnd(outputRead, error: false) }.start()
        case .head(let count):
            Thread { [outputRead] in shared.readToEnd(outputRead, error: false) { $1 >= count } }.start()
        case .headUntil(let text):
            Thread { [outputRead] in shared.readToEnd(outputRead, error: false) { line, _ in line.contains(text) } }.start()
        case .full, .file: break
        }
        if errorRead >= 0 { Thread { [errorRead] in shared.readToEnd(errorRead, error: true) }.start() }
    }

    deinit {
        terminate()
        closeInput()
        closeOutput()
    }

    /// A write to a pipe whose reader left fails with EPIPE instead of killing the test process.
    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    // MARK: Output

    /// Standard output's lines so far (a last line without a newline counts once the output has ended).
    public var output: [String] { shared.get { $0.lines.map(\.text) } }

    /// Standard output so far, byte for byte.
    public var standardOutput: String { shared.get { String(decoding: $0.outputText, as: UTF8.self) } }

    /// Standard output's lines so far, with their times.
    public var outputLines: [Line] { shared.get { $0.lines } }

    /// Standard error so far.
    public var standardError: String { shared.get { String(decoding: $0.errorText, as: UTF8.self) } }

    /// The JSON objects printed so far (the lines that parse as objects).
    public var events: [[String: Any]] { output.compactMap(Self.json) }

    public func events(named name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    /// `line` as a JSON object, or nil.
    public static func json(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Waits for a line of standard output (from the first, or from index `from`) satisfying `predicate`; nil after
    /// `timeout` seconds or once the output has ended without one. `predicate` runs under the harness's lock: it must
    /// not ask this process for anything.
    @discardableResult
    public func waitForLine(from start: Int = 0, timeout: TimeInterval = 30, _ predicate: (String) -> Bool) -> Line? {
        waitForLine(in: \.lines, endedBy: \.outputEnded, from: start, timeout: timeout, predicate)
    }

    /// Waits for a line of standard error satisfying `predicate`.
    @discardableResult
    public func waitForErrorLine(timeout: TimeInterval = 30, _ predicate: (String) -> Bool) -> Line? {
        waitForLine(in: \.errorLines, endedBy: \.errorEnded, from: 0, timeout: timeout, predicate)
    }

    /// The first line of one stream from `start` on that satisfies `predicate`, read as it arrives.
    private func waitForLine(
        in stream: KeyPath<State, [Line]>, endedBy ended: KeyPath<State, Bool>, from start: Int,
        timeout: TimeInterval, _ predicate: (String) -> Bool
    ) -> Line? {
        var checked = start
        return shared.wait(timeout: timeout) { state in
            let lines = state[keyPath: stream]
            while checked < lines.count {
                if predicate(lines[checked].text) { return .found(lines[checked]) }
                checked += 1
            }
            return state[keyPath: ended] ? .gone : .waiting
        }
    }

    /// Waits for a JSON event named `name` (and satisfying `match`), from line index `from`.
    @discardableResult
    public func waitForEvent(
        _ name: String, from start: Int = 0, timeout: TimeInterval = 30,
        where match: ([String: Any]) -> Bool = { _ in true }
    ) -> Event? {
        var found: [String: Any]?
        guard let line = waitForLine(from: start, timeout: timeout, { line in
            guard let object = Self.json(line), object["event"] as? String == name, match(object) else { return false }
            found = object
            return true
        }), let found else { return nil }
        return Event(event: found, time: line.time, index: line.index)
    }

    /// Waits until at least `count` events named `name` have been printed.
    public func waitForEventCount(_ name: String, _ count: Int, timeout: TimeInterval = 30) -> Bool {
        var seen = 0
        return waitForLine(timeout: timeout) { line in
            guard Self.json(line)?["event"] as? String == name else { return false }
            seen += 1
            return seen >= count
        } != nil
    }

    // MARK: The end

    /// How it ended, once it has.
    public var termination: Termination? { shared.get { $0.termination } }

    public var isRunning: Bool { termination == nil }

    /// Waits for the process to exit and for its output and error to reach their end; returns its exit status
    /// (128 + N when signal N ended it), or nil if it still ran after `timeout` seconds. Output still open
    /// `endOfOutputBound` seconds after the exit fails the test: something the process started holds it.
    @discardableResult
    public func waitForExit(timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        let ended: Termination? = shared.wait(timeout: timeout) { state in
            state.termination.map { .found($0) } ?? .waiting
        }
        guard let ended else { return nil }
        if !waitForEndOfOutput(timeout: Self.endOfOutputBound) {
            XCTFail("\(arguments.joined(separator: " ")) (pid \(pid)) ended (\(ended)) but its output stayed open "
                        + "\(Int(Self.endOfOutputBound)) s: a process it started still holds it", file: file, line: line)
        }
        switch ended {
        case .exit(let code): return code
        case .signal(let number): return 128 + number
        }
    }

    /// Waits until standard output and error have reached their end (every process holding them has closed them);
    /// false after `timeout` seconds.
    public func waitForEndOfOutput(timeout: TimeInterval) -> Bool {
        shared.wait(timeout: timeout) { state in state.outputEnded && state.errorEnded ? .found(true) : .waiting }
            ?? false
    }

    /// Sends `number` to the process if it still runs.
    public func signal(_ number: Int32) {
        shared.get { state in
            if state.termination == nil { kill(pid, number) }  // not reaped yet: `pid` is still this process
        }
    }

    /// Ends the process (SIGKILL) if it still runs, and waits for it: for teardown.
    public func terminate() {
        signal(SIGCONT)
        signal(SIGKILL)
        _ = shared.wait(timeout: 60) { state in state.termination.map { .found($0) } ?? .waiting }
    }

    // MARK: Input and the test's own end of output

    /// Writes `text` to standard input (a pipe), and closes it when `close` is true.
    public func writeInput(_ text: String, close: Bool = true) {
        let fd = shared.get { $0.input }
        if fd >= 0 {
            let bytes = Array(text.utf8)
            var written = 0
            while written < bytes.count {
                let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                written += n
            }
        }
        if close { closeInput() }
    }

    public func closeInput() {
        let fd = shared.update { state -> Int32 in
            defer { state.input = -1 }
            return state.input
        }
        if fd >= 0 { close(fd) }
    }

    /// Closes the test's reading end of a `.full` output: the process's blocked write meets a reader that left.
    public func closeOutput() {
        let fd = shared.update { state -> Int32 in
            defer { state.heldOutput = -1 }
            return state.heldOutput
        }
        if fd >= 0 { close(fd) }
    }

    /// Waits until a thread of the process is blocked writing to a pipe (its standard output, full), or `timeout`.
    public func waitUntilBlockedWritingOutput(timeout: TimeInterval = 30) -> Bool {
        // The kernel tells no one when a writer blocks: look at the process's threads until one is.
        eventually(timeout: timeout, every: 0.01) {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.contains { task in
                ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? "")
                    .contains("pipe_write")
            }
        }
    }
}

extension ChildProcess {
    /// The built `tictactoe` on this machine, its output in English, Bonjour off (Bonjour only runs in the LAN lab),
    /// its state in a temporary directory; `environment` adds to or overrides this process's environment.
    public convenience init(
        _ arguments: [String], environment extra: [String: String] = [:], input: Input = .pipe,
        output: Output = .lines
    ) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = Scratch.path("tictactoe-e2e-state")
        environment["LANGUAGE"] = "en"
        environment["TICTACTOE_BONJOUR"] = "off"
        for (key, value) in extra { environment[key] = value }
        try self.init(executable: tictactoeBinary, arguments, environment: environment, input: input, output: output)
    }
}
