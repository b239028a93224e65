import Dispatch
import Synchronization

/// The one place a thread waits for async work: the executable's main thread while an asynchronous command runs
/// (`Entry`), and the synchronous line game while its engine answers (`LineEngine`). `operation` runs in a task of
/// its own; the calling thread blocks until it returns, so this is never called from a task.
public func blockingWait<T: Sendable>(for operation: sending @escaping () async -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let value = await operation()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0 }!
}
