import Foundation
import Synchronization

// The machinery under `ChildProcess`: the state its reader threads fill and its waits look at.

/// glibc's functions that Swift's Glibc module leaves out (they need _GNU_SOURCE): a pipe made close-on-exec at
/// once, and spawn actions that close every other descriptor and change directory. Without them a process another
/// thread starts at the same moment could inherit a pipe's end and keep it open.
enum GNU {
    typealias Actions = UnsafeMutablePointer<posix_spawn_file_actions_t>
    static let pipe2 = function("pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    static let addCloseFrom = function(
        "posix_spawn_file_actions_addclosefrom_np", as: (@convention(c) (Actions, Int32) -> Int32).self)
    static let addChdir = function(
        "posix_spawn_file_actions_addchdir_np", as: (@convention(c) (Actions, UnsafePointer<CChar>) -> Int32).self)

    private static func function<T>(_ name: String, as type: T.Type) -> T {
        guard let symbol = dlsym(nil, name) else { fatalError("glibc has no \(name) (it needs glibc 2.34 or later)") }
        return unsafeBitCast(symbol, to: type)
    }
}

/// What the reader threads and the waiting test share: the state under a condition that wakes every waiter at each
/// change.
final class Shared: Sendable {
    private let condition = NSCondition()
    private let state: Mutex<State>

    init(_ state: State) { self.state = Mutex(state) }

    func get<T>(_ body: (State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return state.withLock { body($0) }
    }

    func update<T>(_ body: (inout State) -> T) -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return state.withLock { body(&$0) }
    }

    enum Check<T> { case found(T), gone, waiting }

    /// Waits until `check` finds something (it), finds it never will (nil), or `timeout` seconds pass (nil).
    func wait<T>(timeout: TimeInterval, _ check: (State) -> Check<T>) -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch state.withLock({ check($0) }) {
            case .found(let value): return value
            case .gone: return nil
            case .waiting:
                if !condition.wait(until: deadline) {
                    guard case .found(let value) = state.withLock({ check($0) }) else { return nil }
                    return value
                }
            }
        }
    }

    /// Reads `fd` to its end, or until `stop` says so given a line and its number (the lines after it are dropped,
    /// as `head` does); then closes it.
    func readToEnd(_ fd: Int32, error: Bool, until stop: ((String, Int) -> Bool)? = nil) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var stopped = false
        while !stopped {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            let now = ContinuousClock.now
            stopped = update { state in
                let added = state.append(buffer[..<n], error: error, at: now)
                guard let stop else { return false }
                let first = state.lines.count - added.count
                guard let last = added.indices.first(where: { stop(added[$0], first + $0 + 1) }) else { return false }
                state.lines.removeLast(added.count - last - 1)
                state.partial = []
                return true
            }
        }
        close(fd)
        update { $0.end(error: error, at: .now) }
    }

    /// Waits for the process's exit without reaping it, then reaps it and records how it ended under the lock, so
    /// that `kill` under the lock never reaches another process that got the pid.
    func waitForExit(of pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        update { state in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let signal = status & 0x7F
            state.termination = signal == 0 ? .exit((status >> 8) & 0xFF) : .signal(signal)
        }
    }
}

struct State: Sendable {
    var lines: [ChildProcess.Line] = []
    var outputText: [UInt8] = []
    var partial: [UInt8] = []
    var outputEnded = false
    var errorText: [UInt8] = []
    var errorLines: [ChildProcess.Line] = []
    var errorPartial: [UInt8] = []
    var errorEnded = false
    var termination: ChildProcess.Termination?
    var input: Int32 = -1
    var heldOutput: Int32 = -1

    /// Adds bytes read; returns the lines they completed.
    mutating func append(_ bytes: ArraySlice<UInt8>, error: Bool, at time: ContinuousClock.Instant) -> [String] {
        if error { errorText += bytes } else { outputText += bytes }
        var pending = error ? errorPartial : partial
        pending += bytes
        var added: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            added.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        if error { errorPartial = pending } else { partial = pending }
        for text in added { addLine(text, error: error, at: time) }
        return added
    }

    mutating func end(error: Bool, at time: ContinuousClock.Instant) {
        let rest = error ? errorPartial : partial
        if !rest.isEmpty { addLine(String(decoding: rest, as: UTF8.self), error: error, at: time) }
        if error {
            errorPartial = []
            errorEnded = true
        } else {
            partial = []
            outputEnded = true
        }
    }

    private mutating func addLine(_ text: String, error: Bool, at time: ContinuousClock.Instant) {
        if error {
            errorLines.append(ChildProcess.Line(text: text, time: time, index: errorLines.count))
        } else {
            lines.append(ChildProcess.Line(text: text, time: time, index: lines.count))
        }
    }
}
