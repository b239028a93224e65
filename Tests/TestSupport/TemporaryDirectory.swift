import Foundation
import XCTest

/// Where a test process writes its files: one folder of its own in the temporary directory
/// (`$TMPDIR/tictactoe-tests-PID`), removed when the test process exits, so that nothing is left behind, not even by
/// a test that stopped half-way. Every path a test makes is under it.
public enum Scratch {
    public static let root: String = {
        let path = NSTemporaryDirectory() + "tictactoe-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        // At the process's exit (XCTest exits once every test has run); registering is safe from any thread.
        atexit { try? FileManager.default.removeItem(atPath: Scratch.root) }
        return path
    }()

    /// `name` under the root (made by the caller).
    public static func path(_ name: String) -> String { root + "/" + name }
}

/// A fresh directory, removed by the test case's teardown.
public func makeTemporaryDirectory(_ testCase: XCTestCase) throws -> String {
    let path = Scratch.path("tests-" + UUID().uuidString)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}
