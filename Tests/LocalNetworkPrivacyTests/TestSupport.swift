import Foundation
import TicTacToeTestSupport
import XCTest

// Helpers for the privacy tests. Everything happens in fresh temporary directories; the only network traffic is on
// loopback. Waits poll with generous limits (15 s) so a loaded 2-core machine cannot make them flake; no test asserts
// a speed.

/// Collects what a stream yields, on its own task.
final class StreamCollector<Element: Sendable>: @unchecked Sendable {
    let values = Recorder<Element>()
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<Element>) {
        task = Task { [values] in
            for await value in stream { values.append(value) }
        }
    }

    func cancel() { task?.cancel() }

    /// Waits until some value satisfies `predicate`.
    func waitFor(timeout: Double = 15, _ predicate: @escaping (Element) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { values.all.contains(where: predicate) }
    }

    deinit { task?.cancel() }
}

/// The number of inotify descriptors this process has open.
func openInotifyDescriptors() -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter { entry in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"))?.contains("inotify")
            == true
    }.count
}

