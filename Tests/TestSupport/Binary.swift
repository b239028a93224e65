import Foundation
import XCTest
import Synchronization

/// The built `tictactoe` binary: $TICTACTOE_BIN, or the products directory the running test bundle lives in.
public let tictactoeBinary: String = {
    if let path = ProcessInfo.processInfo.environment["TICTACTOE_BIN"], !path.isEmpty { return path }
    let products = Bundle.main.bundleURL.path.hasSuffix(".xctest")
        ? Bundle.main.bundleURL.deletingLastPathComponent().path : Bundle.main.bundleURL.path
    return products + "/tictactoe"
}()

/// A thread-safe list of things that happened (events, states, errors) for a test to look at, and to wait for
/// (`waitUntil`: woken by each append, no polling).
public final class Recorder<Element: Sendable>: Sendable {
    private struct Watcher {
        var predicate: @Sendable ([Element]) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private let state = Mutex<(items: [Element], watchers: [Int: Watcher], next: Int)>(([], [:], 0))

    public init() {}

    public func append(_ item: Element) {
        let done = state.withLock { state -> [Watcher] in
            state.items.append(item)
            let items = state.items
            let done = state.watchers.filter { $0.value.predicate(items) }
            for id in done.keys { state.watchers[id] = nil }
            return Array(done.values)
        }
        for watcher in done { watcher.continuation.resume(returning: true) }
    }

    public var all: [Element] { state.withLock { $0.items } }

    /// Waits until the list satisfies `predicate`. After `timeout` of real time, the bound that keeps a test that
    /// never gets there from hanging, it fails the test saying `what` did not come, and returns false.
    @discardableResult
    public func waitUntil(
        _ what: @autoclosure () -> String, timeout: Duration = .seconds(15), file: StaticString = #filePath,
        line: UInt = #line, _ predicate: @escaping @Sendable ([Element]) -> Bool
    ) async -> Bool {
        var bound: Task<Void, Never>?
        defer { bound?.cancel() }
        let reached = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id = state.withLock { state -> Int? in
                if predicate(state.items) { return nil }
                defer { state.next += 1 }
                state.watchers[state.next] = Watcher(predicate: predicate, continuation: continuation)
                return state.next
            }
            guard let id else { return continuation.resume(returning: true) }
            bound = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.state.withLock { $0.watchers.removeValue(forKey: id) }?.continuation.resume(returning: false)
            }
        }
        if !reached { XCTFail("not within \(timeout): \(what())", file: file, line: line) }
        return reached
    }
}
