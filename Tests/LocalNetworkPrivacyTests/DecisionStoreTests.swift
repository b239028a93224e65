import Foundation
import XCTest

@testable import LocalNetworkPrivacy
import TicTacToeTestSupport

final class DecisionStoreTests: XCTestCase {
    func testDefaultDirectory() {
        XCTAssertEqual(
            DecisionStore.defaultDirectory(environment: ["HOME": "/home/ann"]), "/home/ann/.config/tictactoe")
        XCTAssertEqual(
            DecisionStore.defaultDirectory(environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg"]),
            "/cfg/tictactoe"
        )
        XCTAssertEqual(
            DecisionStore.defaultDirectory(environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "relative"]),
            "/home/ann/.config/tictactoe", "a relative XDG_CONFIG_HOME is ignored, as the XDG spec says"
        )
        XCTAssertEqual(
            DecisionStore.defaultDirectory(
                environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg", "TICTACTOE_CONFIG_DIR": "/tmp/t"]
            ),
            "/tmp/t"
        )
        let store = DecisionStore(environment: ["TICTACTOE_CONFIG_DIR": "/tmp/t"])
        XCTAssertEqual(store.decisionPath, "/tmp/t/local-network.json")
        XCTAssertEqual(store.lockPath, "/tmp/t/local-network.lock")
        XCTAssertEqual(DecisionStore(directory: "/x", environment: ["TICTACTOE_CONFIG_DIR": "/tmp/t"]).directory, "/x")
    }

    func testNoFileIsNotDetermined() throws {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self) + "/not/yet")
        XCTAssertEqual(store.read(), .notDetermined)
        XCTAssertNil(store.decision())
    }

    func testRoundTrip() throws {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self) + "/config/tictactoe")
        try store.write(.allowed, source: "prompt")
        XCTAssertEqual(store.read(), .allowed)
        XCTAssertEqual(store.decision()?.source, "prompt")
        let decidedAt = try XCTUnwrap(store.decision()?.decidedAt)
        XCTAssertLessThan(abs(decidedAt.timeIntervalSinceNow), 3600)
        try store.write(.denied)
        XCTAssertEqual(store.read(), .denied)
        XCTAssertEqual(
            DecisionStore(directory: store.directory).read(), .denied, "another instance reads the same file")

        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store.decisionPath)))
        let dictionary = try XCTUnwrap(object as? [String: Any])
        XCTAssertEqual(dictionary["state"] as? String, "denied")
        XCTAssertEqual(dictionary["version"] as? Int, 1)
        XCTAssertNotNil(dictionary["decided_at"] as? String)
    }

    /// The file as it is written: one line, keys sorted, `/` as it is (the one encoder, `JSONLine`).
    func testTheFileIsOneLineWithItsKeysSorted() throws {
        let decision = LocalNetworkDecision(
            state: .denied, decidedAt: Date(timeIntervalSince1970: 1_714_979_289), source: "a/b")
        XCTAssertEqual(
            String(decoding: try DecisionStore.encode(decision), as: UTF8.self),
            #"{"decided_at":"2024-05-06T07:08:09Z","source":"a/b","state":"denied","version":1}"# + "\n")
    }

    func testResetForgetsTheDecision() throws {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self))
        try store.write(.denied)
        try store.reset()
        XCTAssertEqual(store.read(), .notDetermined)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.decisionPath))
        try store.reset()  // resetting nothing is fine
        try store.write(.allowed)
        try store.write(.notDetermined)  // the same as reset
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.decisionPath))
    }

    func testTheDirectoryIsPrivate() throws {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self) + "/new")
        try store.write(.allowed)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.directory)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        let file = try FileManager.default.attributesOfItem(atPath: store.decisionPath)
        XCTAssertEqual((file[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testCorruptOrUnknownFilesReadAsNotDeterminedWithAWarning() throws {
        let samples: [(String, Data)] = [
            ("garbage", Data("{{{ not json".utf8)),
            ("empty", Data()),
            ("binary", Data([0, 0xff, 0xfe, 0x7b, 0x00])),
            ("array", Data("[\"allowed\"]".utf8)),
            ("no state", Data("{\"version\":1}".utf8)),
            ("unknown state", Data("{\"state\":\"maybe\",\"version\":1}".utf8)),
            ("wrong type", Data("{\"state\":1}".utf8)),
            ("truncated", Data("{\"state\":\"allo".utf8)),
        ]
        for (name, data) in samples {
            let lines = Recorder<String>()
            let store = DecisionStore(directory: try makeTemporaryDirectory(self), logger: recordingLogger(lines))
            try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: store.decisionPath))
            XCTAssertEqual(store.read(), .notDetermined, name)
            XCTAssertNil(store.decision(), name)
            XCTAssertTrue(
                lines.all.contains {
                    $0.hasPrefix("warning") && $0.contains(store.decisionPath) && $0.contains("not determined")
                },
                "\(name): \(lines.all)"
            )
            XCTAssertEqual(lines.all.count, 1, "\(name): warned once, not at every read")
            try store.write(.allowed)
            XCTAssertEqual(store.read(), .allowed, "\(name): a write replaces the corrupt file")
        }
    }

    func testAWriteReplacesTheFileAtomicallyAndLeavesNoTemporaryFiles() throws {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self))
        try store.write(.allowed)
        let firstInode = try inode(store.decisionPath)
        try store.write(.denied)
        XCTAssertNotEqual(try inode(store.decisionPath), firstInode, "a new file was renamed over the old one")
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted()
        XCTAssertEqual(names, ["local-network.json", "local-network.lock"])
    }

    func testTemporaryFilesLeftByACrashedWriterAreRemoved() throws {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self))
        let stale = store.directory + "/.local-network.json.999999.42.tmp"
        try Data("{\"state\":\"al".utf8).write(to: URL(fileURLWithPath: stale))
        XCTAssertEqual(store.read(), .notDetermined, "a half-written temporary file is never read")
        try store.write(.allowed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertEqual(store.read(), .allowed)
    }

    func testAFailedWriteSaysWhereAndLeavesNothingBehind() throws {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self))
        try FileManager.default.createDirectory(
            atPath: store.decisionPath + "/blocker", withIntermediateDirectories: true)
        XCTAssertThrowsError(try store.write(.allowed)) { error in
            XCTAssertTrue("\(error)".contains(store.decisionPath), "\(error)")
            XCTAssertTrue("\(error)".contains("TICTACTOE_CONFIG_DIR"), "says what to do: \(error)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory)
        XCTAssertFalse(names.contains { $0.hasSuffix(".tmp") }, "\(names)")
        XCTAssertEqual(store.read(), .notDetermined)
    }

    func testAFileWhereTheDirectoryShouldBeIsAnError() throws {
        let parent = try makeTemporaryDirectory(self)
        _ = FileManager.default.createFile(atPath: parent + "/tictactoe", contents: Data())
        let store = DecisionStore(directory: parent + "/tictactoe")
        XCTAssertEqual(store.read(), .notDetermined)
        XCTAssertThrowsError(try store.write(.allowed)) { error in
            XCTAssertTrue("\(error)".contains("not a directory"), "\(error)")
        }
    }

    func testTwentyThreadsWritingAtOnceLeaveAValidFile() throws {
        let directory = try makeTemporaryDirectory(self)
        let failures = Recorder<String>()
        let reads = Recorder<LocalNetworkAuthorization>()
        let group = DispatchGroup()
        for index in 0..<20 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let store = DecisionStore(directory: directory)  // each thread opens the store separately
                for round in 0..<10 {
                    do {
                        try store.write((index + round) % 2 == 0 ? .allowed : .denied, source: "thread \(index)")
                    } catch {
                        failures.append("\(error)")
                    }
                    reads.append(store.read())
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(failures.all, [])
        XCTAssertFalse(reads.all.contains(.notDetermined), "once written, every read sees a whole decision")
        try assertValidDecisionFile(in: directory)
    }
}

func inode(_ path: String) throws -> UInt64 {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try XCTUnwrap((attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
}
