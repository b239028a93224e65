#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A child process with pipes on its standard input and output and its standard error appended to a log file; the
/// leader of its own process group, so that ending it also ends whatever it started (`sh -c`, an interpreter's
/// children). A reader thread turns its output into `LineMailbox` events, and a watcher thread tells it when the
/// process has exited, so that an engine is judged by its exit even while a child it left holds its output open.
/// Only posix_spawn and file descriptors: the C boundary of this module.
final class EngineProcess: Sendable {
    let pid: pid_t
    let mailbox = LineMailbox()
    private let input: Mutex<Int32>  // the write end of the engine's standard input; -1 once closed
    /// How the process ended, once reaped.
    private let ending = Mutex<String?>(nil)
    /// Closed once the process has exited (by the watcher thread, or by `terminate` after reaping it).
    private let exitNotice: ExitNotice

    /// How `EngineFailure` tells an engine that closed its standard output but did not exit (the runner then kills it).
    static let closedOutput = "closed its standard output without exiting"

    /// How long the reader waits, after the end of the engine's output, for the process to exit: an engine that
    /// ends closes its output a moment before it can be reaped.
    static let exitGraceMilliseconds: Int32 = 250

    enum StartError: Error {
        case log(String)
        case spawn(String)
    }

    /// Starts `arguments[0]` (looked up in PATH when it has no `/`) with `arguments`.
    init(arguments: [String], logPath: String) throws(StartError) {
        _ = Self.ignoreSIGPIPE
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw .log("cannot open the log file \(logPath): \(Self.errnoText(errno))") }
        defer { close(log) }
        // pipe2 is not visible to Swift (_GNU_SOURCE); pipe and FD_CLOEXEC instead, under one lock for every spawn
        // of this process, so that no other engine inherits these pipes between the two steps.
        let spawned = Self.spawnLock.withLock { _ -> Result<(pid_t, Int32, Int32, [Int32]), StartError> in
            guard let exitPipe = Self.cloexecPipe() else { return .failure(.spawn("pipe: \(Self.errnoText(errno))")) }
            let spawned = Self.spawn(arguments: arguments, log: log)
            switch spawned {
            case .success(let (child, input, output)): return .success((child, input, output, exitPipe))
            case .failure(let error):
                close(exitPipe[0])
                close(exitPipe[1])
                return .failure(error)
            }
        }
        let (child, input, output, exitPipe): (pid_t, Int32, Int32, [Int32])
        switch spawned {
        case .success(let result): (child, input, output, exitPipe) = result
        case .failure(let error): throw error
        }
        pid = child
        self.input = Mutex(input)
        exitNotice = ExitNotice(fd: exitPipe[1])
        Self.startWatcher(pid: child, notice: exitNotice)
        Self.startReader(fd: output, exitFD: exitPipe[0], mailbox: mailbox)
    }

    private static let spawnLock = Mutex(())

    /// A pipe whose two ends are closed on exec.
    private static func cloexecPipe() -> [Int32]? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fds
    }

    /// Spawns the engine: (pid, the write end of its input, the read end of its output).
    private static func spawn(arguments: [String], log: Int32) -> Result<(pid_t, Int32, Int32), StartError> {
        guard let toChild = cloexecPipe() else { return .failure(.spawn("pipe: \(errnoText(errno))")) }
        guard let fromChild = cloexecPipe() else {
            let why = errnoText(errno)
            close(toChild[0])
            close(toChild[1])
            return .failure(.spawn("pipe: \(why)"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, log, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noMask = sigset_t()
        sigemptyset(&noMask)
        posix_spawnattr_setsigmask(&attributes, &noMask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard spawned == 0 else {
            close(toChild[1])
            close(fromChild[0])
            return .failure(.spawn(spawnProblem(arguments[0], spawned)))
        }
        // Writes never block: an engine that stops reading its input fails instead of stalling the runner.
        _ = fcntl(toChild[1], F_SETFL, fcntl(toChild[1], F_GETFL) | O_NONBLOCK)
        return .success((child, toChild[1], fromChild[0]))
    }

    deinit {
        terminate()
    }

    enum WriteResult {
        case written
        /// The engine has gone (EPIPE) or its input was closed.
        case gone
        /// The pipe is full: the engine does not read its input.
        case full
    }

    /// Writes `text` to the engine's standard input without blocking.
    func write(_ text: String) -> WriteResult {
        input.withLock { fd in
            guard fd >= 0 else { return .gone }
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { buffer in
                    Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno == EAGAIN || errno == EWOULDBLOCK ? .full : .gone
                }
                offset += written
            }
            return .written
        }
    }

    /// Closes the engine's standard input (it reads end of file).
    func closeInput() {
        input.withLock { fd in
            if fd >= 0 {
                close(fd)
                fd = -1
            }
        }
    }

    /// Kills the process group (SIGKILL), reaps the process and returns how it ended ("exited with status 3",
    /// "killed by signal 9"). Idempotent: later calls return the first answer.
    @discardableResult
    func terminate() -> String {
        ending.withLock { ending in
            if let ending { return ending }
            // The group first (an engine's children), then the process itself in case it left the group.
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
            let text: String
            if reaped != pid {
                text = "not reaped: \(Self.errnoText(errno))"
            } else if status & 0x7F == 0 {
                text = "exited with status \((status >> 8) & 0xFF)"
            } else {
                text = "killed by signal \(status & 0x7F)"
            }
            ending = text
            closeInput()
            exitNotice.post()
            return text
        }
    }

    /// Ends the process the way a finished engine ends: its input is closed first, then the group is killed and the
    /// process reaped. An engine that has already exited (after `quit`) reports its own status.
    func finish() -> String {
        closeInput()
        return terminate()
    }

    // MARK: - The reader and watcher threads

    /// The write end of a pipe whose read end the reader thread polls: closing it says the process has exited.
    private final class ExitNotice: Sendable {
        private let fd: Mutex<Int32>
        init(fd: Int32) { self.fd = Mutex(fd) }

        /// Closes the write end (once).
        func post() {
            fd.withLock { fd in
                if fd >= 0 {
                    close(fd)
                    fd = -1
                }
            }
        }
    }

    private final class WatcherContext {
        let pid: pid_t
        let notice: ExitNotice
        init(pid: pid_t, notice: ExitNotice) {
            self.pid = pid
            self.notice = notice
        }
    }

    /// A thread that waits for the process to exit without reaping it (`terminate` reaps it and reads its status),
    /// then posts the exit notice. Without the thread the notice comes from `terminate` alone.
    private static func startWatcher(pid: pid_t, notice: ExitNotice) {
        let context = Unmanaged.passRetained(WatcherContext(pid: pid, notice: notice)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { raw in
                let context = Unmanaged<WatcherContext>.fromOpaque(raw!).takeRetainedValue()
                var info = siginfo_t()
                while waitid(P_PID, id_t(context.pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
                context.notice.post()
                return nil
            }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<WatcherContext>.fromOpaque(context).release()
        }
    }

    private final class ReaderContext {
        let fd: Int32
        let exitFD: Int32
        let mailbox: LineMailbox
        init(fd: Int32, exitFD: Int32, mailbox: LineMailbox) {
            self.fd = fd
            self.exitFD = exitFD
            self.mailbox = mailbox
        }
    }

    /// A thread (not a task: it blocks) that reads the engine's output until it ends or the process exits, then
    /// closes both descriptors and posts `.ended`.
    private static func startReader(fd: Int32, exitFD: Int32, mailbox: LineMailbox) {
        let context = Unmanaged.passRetained(ReaderContext(fd: fd, exitFD: exitFD, mailbox: mailbox)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { raw in
                let context = Unmanaged<ReaderContext>.fromOpaque(raw!).takeRetainedValue()
                let exited = EngineProcess.readOutput(context)
                close(context.fd)
                close(context.exitFD)
                context.mailbox.post(.ended(exited: exited))
                return nil
            }, context)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<ReaderContext>.fromOpaque(context).release()
            close(fd)
            close(exitFD)
            mailbox.post(.ended(exited: false))
        }
    }

    /// Delivers the engine's output until its end or the process's exit; returns whether the process has exited.
    ///
    /// At the end of the output the process normally exits a moment later (it is waited for, up to
    /// `exitGraceMilliseconds`); one that is still running then only closed its output. When the process exits first
    /// (a child it started still holds the output open), what it wrote before exiting is read, and no more.
    private static func readOutput(_ context: ReaderContext) -> Bool {
        var fds = [
            pollfd(fd: context.fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: context.exitFD, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return false
            }
            if fds[1].revents != 0 {
                // Exited: what it wrote is in the pipe now; a child may write on, but it is not the engine.
                _ = fcntl(context.fd, F_SETFL, fcntl(context.fd, F_GETFL) | O_NONBLOCK)
                var drained = 0
                while drained < 1 << 20 {
                    let count = buffer.withUnsafeMutableBytes { read(context.fd, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    drained += count
                    buffer.withUnsafeBytes { context.mailbox.deliver(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                }
                return true
            }
            if fds[0].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(context.fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count > 0 {
                    buffer.withUnsafeBytes { context.mailbox.deliver(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                    continue
                }
                break  // end of output (or an error reading it)
            }
        }
        var exit = pollfd(fd: context.exitFD, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat { ready = poll(&exit, 1, exitGraceMilliseconds) } while ready < 0 && errno == EINTR
        return ready > 0
    }

    // MARK: - Helpers

    /// A write to an engine that has gone must fail with EPIPE, not end the program (the app ignores SIGPIPE too).
    private static let ignoreSIGPIPE: Bool = {
        _ = signal(SIGPIPE, SIG_IGN)
        return true
    }()

    /// Why `program` could not be started, in the player's words (the system's reason last).
    static func spawnProblem(_ program: String, _ code: Int32) -> String {
        switch code {
        case ENOENT:
            return program.contains("/")
                ? "\(program): no such program (No such file or directory)"
                : "\(program): no such program in PATH (give its path, e.g. ./\(program))"
        case EACCES: return "\(program): not allowed to run it (Permission denied: is it executable?)"
        case ENOEXEC: return "\(program): not a program this system can run (Exec format error: a script needs #!)"
        default: return "\(program): \(errnoText(code))"
        }
    }

    static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
