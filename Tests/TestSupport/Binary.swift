import Foundation
import Synchronization

/// The built `tictactoe` binary: $TICTACTOE_BIN, or the products directory the running test bundle lives in.
public let tictactoeBinary: String = {
    if let path = ProcessInfo.processInfo.environment["TICTACTOE_BIN"], !path.isEmpty { return path }
    let products = Bundle.main.bundleURL.path.hasSuffix(".xctest")
        ? Bundle.main.bundleURL.deletingLastPathComponent().path : Bundle.main.bundleURL.path
    return products + "/tictactoe"
}()

/// A thread-safe list of things that happened (events, states, errors) for a test to look at.
public final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    public init() {}

    public func append(_ item: Element) {
        items.withLock { $0.append(item) }
    }

    public var all: [Element] { items.withLock { $0 } }
}
