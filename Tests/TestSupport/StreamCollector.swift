import Foundation

/// Collects what a stream yields, on its own task.
public final class StreamCollector<Element: Sendable>: @unchecked Sendable {
    public let values = Recorder<Element>()
    private var task: Task<Void, Never>?

    public init(_ stream: AsyncStream<Element>) {
        task = Task { [values] in
            for await value in stream { values.append(value) }
        }
    }

    public func cancel() { task?.cancel() }

    /// Waits until some value satisfies `predicate`.
    public func waitFor(timeout: Double = 15, _ predicate: @escaping (Element) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { values.all.contains(where: predicate) }
    }

    deinit { task?.cancel() }
}
