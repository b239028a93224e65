import Foundation
import XCTest

@testable import LocalNetworkPrivacy
import TicTacToeTestSupport

final class DecisionChangesTests: XCTestCase {
    func testAnotherStoreInstanceWritingIsSeen() async throws {
        let directory = try makeTemporaryDirectory(self)
        let watched = DecisionStore(directory: directory)
        let changes = StreamCollector(watched.changes())
        defer { changes.cancel() }

        let writer = DecisionStore(directory: directory)
        try writer.write(.allowed)
        let sawAllowed = await changes.waitFor { $0 == .allowed }
        XCTAssertTrue(sawAllowed, "\(changes.values.all)")
        try writer.write(.denied)
        let sawDenied = await changes.waitFor { $0 == .denied }
        XCTAssertTrue(sawDenied, "\(changes.values.all)")
        try writer.reset()
        let sawReset = await changes.waitFor { $0 == .notDetermined }
        XCTAssertTrue(sawReset, "\(changes.values.all)")
    }

    func testRepeatedWritesOfTheSameStateYieldOnce() async throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory)
        let stream = store.changes()
        var iterator = stream.makeAsyncIterator()
        try store.write(.allowed)
        let first = await iterator.next()
        XCTAssertEqual(first, .allowed)
        try store.write(.allowed)
        try store.write(.allowed)
        try store.write(.denied)
        let second = await iterator.next()
        XCTAssertEqual(second, .denied, "the repeated allowed writes yielded nothing")
    }

    func testTheCurrentStateIsNotYieldedFirst() async throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory)
        try store.write(.allowed)
        let stream = store.changes()
        var iterator = stream.makeAsyncIterator()
        try store.write(.allowed)  // no change
        try store.write(.denied)
        let next = await iterator.next()
        XCTAssertEqual(next, .denied)
    }

    func testTheDirectoryIsCreatedSoItCanBeWatched() async throws {
        let directory = try makeTemporaryDirectory(self) + "/a/b/tictactoe"
        let store = DecisionStore(directory: directory)
        let changes = StreamCollector(store.changes())
        defer { changes.cancel() }
        var isDirectory: ObjCBool = false
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue)
        try DecisionStore(directory: directory).write(.denied)
        let sawDenied = await changes.waitFor { $0 == .denied }
        XCTAssertTrue(sawDenied)
    }

    func testAFileEditedInPlaceIsSeen() async throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory)
        let changes = StreamCollector(store.changes())
        defer { changes.cancel() }
        // Someone edits the file by hand (no rename): IN_CLOSE_WRITE.
        try Data("{\"state\":\"allowed\"}".utf8).write(to: URL(fileURLWithPath: store.decisionPath))
        let sawAllowed = await changes.waitFor { $0 == .allowed }
        XCTAssertTrue(sawAllowed)
        // ... and breaks it: corrupt reads as not determined.
        try Data("{oops".utf8).write(to: URL(fileURLWithPath: store.decisionPath))
        let sawCorrupt = await changes.waitFor { $0 == .notDetermined }
        XCTAssertTrue(sawCorrupt)
    }

    func testWatchingSurvivesTheDirectoryBeingRemoved() async throws {
        let directory = try makeTemporaryDirectory(self) + "/tictactoe"
        let store = DecisionStore(directory: directory)
        try store.write(.allowed)
        let changes = StreamCollector(store.changes())
        defer { changes.cancel() }
        try FileManager.default.removeItem(atPath: directory)
        let sawRemoval = await changes.waitFor { $0 == .notDetermined }
        XCTAssertTrue(sawRemoval, "\(changes.values.all)")
        let recreated = await eventually { FileManager.default.fileExists(atPath: directory) }
        XCTAssertTrue(recreated)
        try DecisionStore(directory: directory).write(.denied)
        let sawDenied = await changes.waitFor { $0 == .denied }
        XCTAssertTrue(sawDenied, "\(changes.values.all)")
    }

    func testCancellingTheConsumerStopsWatching() async throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory)
        let before = openInotifyDescriptors()
        let changes = StreamCollector(store.changes())
        XCTAssertEqual(openInotifyDescriptors(), before + 1)
        try store.write(.allowed)
        let sawAllowed = await changes.waitFor { $0 == .allowed }
        XCTAssertTrue(sawAllowed)
        changes.cancel()
        let closed = await eventually { openInotifyDescriptors() == before }
        XCTAssertTrue(closed, "the inotify descriptor is closed once the stream is cancelled")
    }

    func testDroppingAnUnconsumedStreamStopsWatching() async throws {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self))
        let before = openInotifyDescriptors()
        do {
            let stream = store.changes()
            let iterator = stream.makeAsyncIterator()
            _ = iterator  // like GameConnection when the gate allows at once: the iterator is never advanced
            XCTAssertEqual(openInotifyDescriptors(), before + 1)
        }
        let closed = await eventually { openInotifyDescriptors() == before }
        XCTAssertTrue(closed)
    }
}
