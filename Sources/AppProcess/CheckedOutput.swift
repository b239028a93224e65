import Dispatch
import FoundationEssentials
import GameProtocol
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Why an output stopped taking text: the stream's name and the error of write(2) (or of opening it). A run whose
/// standard output failed ends with exit code 74 (`ExitStatus.unlessOutputFailed`).
public struct OutputError: ExitStatusConvertible, Sendable, Hashable, CustomStringConvertible {
    /// What was written: "standard output", "the log file /path".
    public var stream: String
    /// The `errno` value (EPIPE, ENOSPC, EBADF, …).
    public var code: Int32
    /// What failed: "write" or "open".
    public var operation: String

    public init(stream: String, code: Int32, operation: String = "write") {
        self.stream = stream
        self.code = code
        self.operation = operation
    }

    public var exitStatus: ExitStatus { .outputFailed }

    public var description: String {
        "cannot \(operation) \(stream) (\(String(cString: strerror(code))))"
    }
}

/// A file descriptor that text is written to with write(2), every result checked: the one way the app writes to
/// standard output, standard error and its log file.
///
/// Foundation's `FileHandle.write` traps on EPIPE, ENOSPC or EBADF (a reader that went away, a full disk, a closed
/// descriptor) and `print` ignores them; here a write that fails is an `OutputError`. The process ignores SIGPIPE
/// (the executable's first act), so a closed pipe arrives as EPIPE. EINTR is retried, EAGAIN waits (poll) until the
/// descriptor takes more, and a short write goes on with the rest. After the first failure the output is dead: later
/// writes do nothing and fail at once with the same error, and the failure handlers are called once.
///
/// A write never blocks its caller on a full pipe or a stopped terminal: a match runs on its connection's event loop,
/// which must keep answering the peer's heartbeat while a reader pauses (`less`, a script that reads
/// later). Text that comes while the descriptor cannot take any waits in a backlog, written in order by a drain on
/// its own queue; later text queues behind it; the process waits for the backlog when it exits (nothing is lost). A
/// failure found by the drain reaches the failure handlers, as any other.
///
/// Standard output gathers its text when it is not a terminal (`OutputGathering`): a line after a pause goes out at
/// once, lines that follow it within 2 ms go out together when that window closes (a reader is woken once for them,
/// not once a line), before anything written to standard error (unless its reader fell behind: then the backlog
/// keeps standard output's order, and standard error's text does not wait for it), and before the process exits.
public final class CheckedOutput: Sendable {
    /// Standard output (`--json` events, transcripts, line-mode games); gathered when it is not a terminal.
    public static let standardOutput = CheckedOutput(
        descriptor: STDOUT_FILENO, name: "standard output",
        gatheringWindow: isatty(STDOUT_FILENO) == 1 ? nil : .milliseconds(2))
    /// Standard error (problems, warnings): written at once, after what standard output holds.
    public static let standardError = CheckedOutput(
        descriptor: STDERR_FILENO, name: "standard error", before: CheckedOutput.standardOutput)

    private struct State {
        var failure: OutputError?
        var handlers: [@Sendable (OutputError) -> Void] = []
        /// Bytes taken but not yet written (the descriptor was full when they came), oldest first.
        var backlog: [UInt8] = []
        /// The drain is writing or about to: new text goes into the backlog behind what it writes.
        var draining = false
        /// Text held back to be written with what follows (nil: every text is written when it comes).
        var gathering: OutputGathering?
        /// Who runs the flush of held text when its window closes, while someone lends a scheduler (a match, its
        /// event loop: `scheduleFlushes`); nil: this output's queue.
        var flushScheduler: (id: Int, schedule: FlushScheduler)?
        var lastSchedulerID = 0
    }

    /// Runs `body` after `delay` nanoseconds, on a thread of the scheduler's choosing.
    public typealias FlushScheduler = @Sendable (_ delay: UInt64, _ body: @escaping @Sendable () -> Void) -> Void

    /// Writes the backlog, blocking on the descriptor as long as it needs.
    private let drainQueue = DispatchQueue(label: "tictactoe.output.drain")

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// A regular file: writable whenever asked (poll(2) says so every time), so no poll before each write.
    private let isRegularFile: Bool
    /// How the stream is named in errors.
    public let name: String
    /// Held for a whole write, so that text written from different tasks never interleaves.
    private let state: Mutex<State>
    /// An output whose held text is written before each text of this one (standard output, for standard error).
    private let precededBy: CheckedOutput?

    /// Writes to `descriptor`; it is closed when this output goes away if `ownsDescriptor`. With `gatheringWindow`,
    /// text that comes within that time of the last write is held and written with what follows (`OutputGathering`);
    /// `before`'s held text is written before each of this output's.
    public init(
        descriptor: Int32, name: String, ownsDescriptor: Bool = false, gatheringWindow: Duration? = nil,
        before: CheckedOutput? = nil
    ) {
        self.descriptor = descriptor
        self.name = name
        self.ownsDescriptor = ownsDescriptor
        self.precededBy = before
        var status = stat()
        self.isRegularFile = descriptor >= 0 && fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        let window = gatheringWindow.map { UInt64($0.components.seconds) * 1_000_000_000
            + UInt64($0.components.attoseconds / 1_000_000_000) }
        self.state = Mutex(State(gathering: window.map { OutputGathering(window: $0) }))
        drainQueue.setSpecific(key: Self.drainKey, value: ObjectIdentifier(self))
    }

    /// An output that could not be opened: every write fails with `error`, and handlers hear of it when they register.
    public init(failed error: OutputError) {
        self.descriptor = -1
        self.name = error.stream
        self.ownsDescriptor = false
        self.isRegularFile = false
        self.precededBy = nil
        self.state = Mutex(State(failure: error))
        drainQueue.setSpecific(key: Self.drainKey, value: ObjectIdentifier(self))
    }

    deinit {
        if ownsDescriptor, descriptor >= 0 { close(descriptor) }
    }

    /// The failure that ended this output, if any.
    public var failure: OutputError? { state.withLock { $0.failure } }

    /// Calls `handler` once when this output fails, on the thread whose write failed; at once if it already has.
    public func onFailure(_ handler: @escaping @Sendable (OutputError) -> Void) {
        let past = state.withLock { state -> OutputError? in
            if let failure = state.failure { return failure }
            state.handlers.append(handler)
            return nil
        }
        if let past { handler(past) }
    }

    /// Writes all of `text`, or throws why it could not (then, and from then on, nothing more is written). Text the
    /// descriptor cannot take without blocking is queued instead (see the type's notes) and this returns at once; so is
    /// text that this output gathers (its failure, if any, is then heard by the handlers and the next write).
    public func write(_ text: String) throws(OutputError) {
        try write(text, newline: false)
    }

    /// `write(_:)`, with a newline after `text` in the same write(2) when `newline`.
    private func write(_ text: String, newline: Bool) throws(OutputError) {
        precededBy?.writeHeld()
        let (error, handlers) = state.withLock { state -> (OutputError?, [@Sendable (OutputError) -> Void]) in
            if let failure = state.failure { return (failure, []) }
            guard state.gathering != nil else {
                var text = text
                if newline { text.append("\n") }  // one write(2) for the text and its newline
                return text.withUTF8 { emit($0, &state) }
            }
            // Gathered: the newline goes in after the text's bytes (a line is not copied to add it).
            switch state.gathering!.take(text.utf8, newline: newline, at: Self.now()) {
            case .write(let bytes):
                return bytes.withUnsafeBufferPointer { emit($0, &state) }
            case .hold(let flushAt):
                if let flushAt {
                    Self.waitForBacklogsAtExit()
                    let delay = flushAt &- min(flushAt, Self.now())
                    if let scheduler = state.flushScheduler {
                        scheduler.schedule(delay) { self.writeHeld() }
                    } else {
                        drainQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) { self.writeHeld() }
                    }
                }
                return (nil, [])
            }
        }
        guard let error else { return }
        for handler in handlers { handler(error) }
        throw error
    }

    /// From now on, until `endFlushes`, held text is flushed by `scheduler` rather than by this output's queue: a
    /// match lends its event loop, which wakes for it anyway, where a timer on the queue would wake two more threads
    /// each window. Returns what `endFlushes` takes.
    public func scheduleFlushes(_ scheduler: @escaping FlushScheduler) -> Int {
        state.withLock { state in
            state.lastSchedulerID += 1
            state.flushScheduler = (state.lastSchedulerID, scheduler)
            return state.lastSchedulerID
        }
    }

    /// Ends what `scheduleFlushes` returned `id` for (unless another scheduler came since) and writes what is held:
    /// a flush the scheduler still owes may never run (its event loop shut down).
    public func endFlushes(_ id: Int) {
        state.withLock { state in
            if state.flushScheduler?.id == id { state.flushScheduler = nil }
        }
        writeHeld()
    }

    /// Writes what this output holds (`OutputGathering`) now; failures go to the handlers.
    public func writeHeld() {
        let (error, handlers) = state.withLock { state -> (OutputError?, [@Sendable (OutputError) -> Void]) in
            guard state.failure == nil, let held = state.gathering?.takeHeld(at: Self.now()), !held.isEmpty else {
                return (nil, [])
            }
            return held.withUnsafeBufferPointer { emit($0, &state) }
        }
        guard let error else { return }
        for handler in handlers { handler(error) }
    }

    /// Writes `bytes` now, or queues them behind the backlog (or as one, if the descriptor cannot take them without
    /// blocking). Returns the failure and the handlers to tell, if write(2) failed.
    private func emit(
        _ bytes: UnsafeBufferPointer<UInt8>, _ state: inout State
    ) -> (OutputError?, [@Sendable (OutputError) -> Void]) {
        // A pipe that polls writable takes PIPE_BUF (4 KB) without blocking, whatever the reader does: so that much
        // at a time, while it does (gathered text is often more); the rest waits in the backlog. (A terminal that
        // polls writable may have less room; it is never gathered, and a line rarely comes near 4 KB.)
        let chunk = isRegularFile ? max(bytes.count, 1) : Self.pipeBuffer
        var offset = 0
        while offset < bytes.count {
            guard !state.draining, isRegularFile || Self.takesAtOnce(descriptor) else {
                state.backlog.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset...]))
                if !state.draining {
                    state.draining = true
                    Self.waitForBacklogsAtExit()
                    drainQueue.async { self.drain() }
                }
                return (nil, [])
            }
            let end = min(bytes.count, offset + chunk)
            if let code = Self.writeAll(UnsafeBufferPointer(rebasing: bytes[offset..<end]), to: descriptor) {
                return (fail(&state, code), takeHandlers(&state))
            }
            offset = end
        }
        return (nil, [])
    }

    /// PIPE_BUF: what a writable pipe takes at once.
    static let pipeBuffer = 4096

    /// Nanoseconds on the monotonic clock.
    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Writes what is held and blocks until the backlog is written (or the output failed). Returns once the held
    /// text is written on the drain itself (a failure handler that exits).
    public func waitUntilWritten() {
        writeHeld()
        guard DispatchQueue.getSpecific(key: Self.drainKey) != ObjectIdentifier(self) else { return }
        drainQueue.sync {}
    }

    /// Marks each output's drain queue, so that `waitUntilWritten` never waits for itself.
    private static let drainKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Writes the backlog in order until it is empty; runs on `drainQueue`.
    private func drain() {
        while true {
            let chunk = state.withLock { state -> [UInt8]? in
                guard state.failure == nil, !state.backlog.isEmpty else {
                    state.draining = false
                    state.backlog = []
                    return nil
                }
                defer { state.backlog = [] }
                return state.backlog
            }
            guard let chunk else { return }
            guard let code = chunk.withUnsafeBufferPointer({ Self.writeAll($0, to: descriptor) }) else { continue }
            let (error, handlers) = state.withLock { state in (fail(&state, code), takeHandlers(&state)) }
            for handler in handlers { handler(error) }
        }
    }

    private func fail(_ state: inout State, _ code: Int32) -> OutputError {
        let error = OutputError(stream: name, code: code)
        state.failure = error
        return error
    }

    private func takeHandlers(_ state: inout State) -> [@Sendable (OutputError) -> Void] {
        defer { state.handlers = [] }
        return state.handlers
    }

    /// Whether to write to `descriptor` now rather than queue: it is writable (poll), or in error (no reader: EPIPE;
    /// closed: EBADF), which write(2) reports at once. A writable pipe has room for PIPE_BUF (4 KB) bytes, so a line
    /// up to that size never blocks; a longer text may, once started, as the terminal or pipe drains.
    private static func takesAtOnce(_ descriptor: Int32) -> Bool {
        guard descriptor >= 0 else { return true }
        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            let result = poll(&ready, 1, 0)
            if result < 0 && errno == EINTR { continue }
            return result != 0
        }
    }

    /// Once per process: exit waits until standard output's and standard error's backlogs are written.
    private static func waitForBacklogsAtExit() {
        _ = exitHook
    }

    /// Set when the process has begun to exit (the hook below runs): a failure found now cannot change the exit status.
    private static let exiting = Atomic<Bool>(false)
    public static var isExiting: Bool { exiting.load(ordering: .relaxed) }

    private static let exitHook: Void = {
        atexit {
            CheckedOutput.exiting.store(true, ordering: .relaxed)
            CheckedOutput.standardOutput.waitUntilWritten()
            CheckedOutput.standardError.waitUntilWritten()
        }
    }()

    /// Writes `text` and a newline; a failure is only remembered (`failure`, `onFailure`). Returns whether it was
    /// written.
    @discardableResult
    public func writeLine(_ text: String) -> Bool {
        do {
            try write(text, newline: true)
            return true
        } catch {
            return false
        }
    }

    /// write(2) until every byte is out; returns the errno that stopped it, or nil when all was written.
    static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // A non-blocking descriptor (inherited so) that is full: wait until it takes more.
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&ready, 1, -1) < 0, errno != EINTR { return errno }
            case let code:
                return code
            }
        }
        return nil
    }
}
