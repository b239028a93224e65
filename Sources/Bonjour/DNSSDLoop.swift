import CDNSSD
import Dispatch
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The one thread that drives every dns_sd reference of the process.
///
/// Each `DNSServiceRef` of Avahi's compatibility library has a socket (`DNSServiceRefSockFD`) that becomes readable
/// when results wait; this thread `poll()`s all of them plus a wakeup pipe and calls `DNSServiceProcessResult` on
/// the readable ones. Timers (debounce, retry backoff, resolve timeouts) are kept here too and bound the poll
/// timeout, so an idle browser sleeps in `poll()` (no busy polling, no thread per reference).
///
/// Every dns_sd call, every callback and all the state of browsers and advertisers live on this thread; the public
/// API hops onto it with `execute` (or `sync`), and the loop-only state of the Sendable types above it is kept in
/// `DNSSDLoop.Bound` boxes that check the thread on every access. `AVAHI_COMPAT_NOWARN=1` is set before the first
/// dns_sd call so that Avahi's banner never reaches the terminal.
// Unchecked, the C boundary: `sources` and `timers` (dns_sd sockets, their handlers) belong to the loop thread alone.
// What other threads touch (the queue, the thread's identity) is behind `crossThread`, a Mutex.
final class DNSSDLoop: @unchecked Sendable {
    static let shared = DNSSDLoop()

    typealias TimerID = Int
    typealias SourceID = Int

    /// What other threads touch: work for the loop, and the loop thread once it runs.
    private struct CrossThread {
        var queued: [@Sendable () -> Void] = []
        var thread: pthread_t?
    }

    private let crossThread = Mutex(CrossThread())
    private let wakeRead: Int32
    private let wakeWrite: Int32

    // Loop thread only.
    private var sources: [SourceID: (fd: Int32, handler: () -> Void)] = [:]
    private var timers: [TimerID: (deadline: ContinuousClock.Instant, action: () -> Void)] = [:]
    private var nextID = 0

    private init() {
        setenv("AVAHI_COMPAT_NOWARN", "1", 1)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { fatalError("Bonjour: pipe failed: errno \(errno)") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    /// Runs `body` on the loop thread (later, even when called from it).
    func execute(_ body: @escaping @Sendable () -> Void) {
        crossThread.withLock { state in
            state.queued.append(body)
            if state.thread == nil { state.thread = startThread() }
        }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Runs `body` on the loop thread and waits for it (inline when already there).
    func sync<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        if isOnLoop { return body() }
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        execute {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }!
    }

    var isOnLoop: Bool {
        guard let thread = crossThread.withLock({ $0.thread }) else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// State that belongs to the loop thread, held by a Sendable type (a browser, an advertiser) that other threads
    /// use: only the loop reaches `value` (checked), as with SwiftNIO's `NIOLoopBound`.
    // Unchecked, the C boundary's thread confinement: checked at run time on every access.
    final class Bound<Value>: @unchecked Sendable {
        private let loop: DNSSDLoop
        private var stored: Value

        init(_ value: Value, loop: DNSSDLoop) {
            self.loop = loop
            self.stored = value
        }

        /// The value; on the loop thread only.
        var value: Value {
            get {
                precondition(loop.isOnLoop, "Bonjour: loop-bound state used off the Bonjour thread")
                return stored
            }
            set {
                precondition(loop.isOnLoop, "Bonjour: loop-bound state used off the Bonjour thread")
                stored = newValue
            }
        }
    }

    // MARK: loop thread only

    func addSource(fd: Int32, handler: @escaping () -> Void) -> SourceID {
        nextID += 1
        sources[nextID] = (fd, handler)
        return nextID
    }

    func removeSource(_ id: SourceID) {
        sources[id] = nil
    }

    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> TimerID {
        schedule(at: .now + delay, action)
    }

    @discardableResult
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping () -> Void) -> TimerID {
        nextID += 1
        timers[nextID] = (deadline, action)
        return nextID
    }

    func cancelTimer(_ id: TimerID?) {
        if let id { timers[id] = nil }
    }

    // MARK: the thread

    /// Called with `crossThread` locked (the new thread waits for it before it runs anything); returns the thread.
    private func startThread() -> pthread_t {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var created = pthread_t()
        let box = Unmanaged.passRetained(self)
        let result = pthread_create(&created, &attributes, { context in
            let loop = Unmanaged<DNSSDLoop>.fromOpaque(context!).takeRetainedValue()
            loop.run()
            return nil
        }, box.toOpaque())
        pthread_attr_destroy(&attributes)
        guard result == 0 else { fatalError("Bonjour: cannot start its thread (\(result))") }
        return created
    }

    private func run() {
        crossThread.withLock { $0.thread = pthread_self() }
        var pollfds: [pollfd] = []
        var ids: [SourceID] = []
        while true {
            runQueued()
            runDueTimers()
            runQueued()

            pollfds.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            pollfds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            for (id, source) in sources {
                pollfds.append(pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0))
                ids.append(id)
            }
            let ready = poll(&pollfds, nfds_t(pollfds.count), pollTimeout())
            guard ready > 0 else { continue }  // timeout, or EINTR
            if pollfds[0].revents != 0 { drainWakeups() }
            for (index, id) in ids.enumerated() where pollfds[index + 1].revents != 0 {
                sources[id]?.handler()  // may have been removed by an earlier handler
            }
        }
    }

    private func runQueued() {
        while true {
            let batch = crossThread.withLock { state in
                defer { state.queued.removeAll() }
                return state.queued
            }
            if batch.isEmpty { return }
            for body in batch { body() }
        }
    }

    private func runDueTimers() {
        let now = ContinuousClock.now
        let due = timers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (id, timer) in due where timers[id] != nil {
            timers[id] = nil
            timer.action()
        }
    }

    /// Milliseconds until the next timer (rounded up), or -1 (sleep until a socket or the wakeup pipe is readable).
    private func pollTimeout() -> Int32 {
        if crossThread.withLock({ !$0.queued.isEmpty }) { return 0 }
        guard let next = timers.values.map(\.deadline).min() else { return -1 }
        let remaining = next - .now
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    private func drainWakeups() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }
}
