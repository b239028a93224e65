import Foundation
import XCTest

/// A fresh directory, removed by the test case's teardown.
public func makeTemporaryDirectory(_ testCase: XCTestCase) throws -> String {
    let path = NSTemporaryDirectory() + "tictactoe-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}
