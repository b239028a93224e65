import CDNSSD
import Foundation

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
/// API hops onto it with `execute`. `AVAHI_COMPAT_NOWARN=1` is set before the first dns_sd call so that Avahi's
/// banner never reaches the terminal.
final class DNSSDLoop: @unchecked Sendable {
    static let shared = DNSSDLoop()

    typealias TimerID = Int
    typealias SourceID = Int

    private let lock = NSLock()
    private var queued: [() -> Void] = []
    private var thread: pthread_t?
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
    func execute(_ body: @escaping () -> Void) {
        lock.lock()
        queued.append(body)
        let mustStart = thread == nil
        if mustStart { startThread() }
        lock.unlock()
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Runs `body` on the loop thread and waits for it (inline when already there).
    func sync<T>(_ body: @escaping () -> T) -> T {
        if isOnLoop { return body() }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        execute {
            result = body()
            done.signal()
        }
        done.wait()
        return result!
    }

    var isOnLoop: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let thread else { return false }
        return pthread_equal(thread, pthread_self()) != 0
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

    /// Called with `lock` held.
    private func startThread() {
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
        thread = created
    }

    private func run() {
        lock.lock()
        thread = pthread_self()
        lock.unlock()
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
            lock.lock()
            let batch = queued
            queued.removeAll()
            lock.unlock()
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
        lock.lock()
        let hasQueued = !queued.isEmpty
        lock.unlock()
        if hasQueued { return 0 }
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
