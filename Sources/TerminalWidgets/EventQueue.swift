import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Inputs from other threads (network, signals, the window's size changing) for the UI loop, with the one pipe that
/// wakes the loop's `poll` (`Terminal.waitForInput(timeout:wakeDescriptor:)`).
public final class EventQueue<Input: Sendable>: Sendable {
    private let pending = Mutex<[Input]>([])
    private let resized = Mutex(false)
    private let readEnd: Int32
    private let writeEnd: Int32

    public init() {
        var fds: [Int32] = [0, 0]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        readEnd = fds[0]
        writeEnd = fds[1]
        for fd in fds where fd >= 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// The descriptor that becomes readable when something is posted.
    public var wakeDescriptor: Int32 { readEnd }

    public func post(_ input: Input) {
        pending.withLock { $0.append(input) }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// The window changed size (SIGWINCH): the loop takes the new size on its own thread.
    public func postResize() {
        resized.withLock { $0 = true }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether the window changed size since the last call.
    public func takeResize() -> Bool {
        resized.withLock { resized in
            defer { resized = false }
            return resized
        }
    }

    /// Everything posted so far, oldest first.
    public func drain() -> [Input] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(readEnd, &buffer, buffer.count) > 0 {}
        return pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }
}
