import Foundation
import Logging
import XCTest

@testable import LocalNetworkPrivacy
import TicTacToeTestSupport
import AppManifest

#if canImport(Glibc)
import Glibc
#endif

/// The decision file comes from outside the program: its size is checked before it is read and at most the limit is
/// read; a file in an unknown format version reads as "not determined" and stays as it is until the user decides.
final class DecisionFileBoundsTests: XCTestCase {
    /// read(2), counting the bytes each call may take.
    private final class CountingReader: Sendable {
        let requested = Recorder<Int>()
        var total: Int { requested.all.reduce(0, +) }

        var call: ReadSystemCall {
            { [self] fd, buffer, count in
                requested.append(count)
                return Glibc.read(fd, buffer, count)
            }
        }
    }

    private func makeStore(
        _ reader: CountingReader, lines: Recorder<String> = Recorder<String>()
    ) throws -> DecisionStore {
        DecisionStore(
            directory: try makeTemporaryDirectory(self), logger: recordingLogger(lines), readSystemCall: reader.call)
    }

    func testASparseOneGigabyteFileIsRejectedWithoutReadingIt() throws {
        let reader = CountingReader()
        let lines = Recorder<String>()
        let store = try makeStore(reader, lines: lines)
        let fd = open(store.decisionPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(ftruncate(fd, 1 << 30), 0, "a sparse file: 1 GB long, no block written")
        close(fd)

        XCTAssertEqual(store.read(), .notDetermined)
        XCTAssertNil(store.decision())
        XCTAssertEqual(reader.total, 0, "fstat said it is too large: nothing was read (\(reader.requested.all))")
        XCTAssertEqual(lines.all.count, 1, "warned once: \(lines.all)")
        let warning = try XCTUnwrap(lines.all.first)
        XCTAssertTrue(warning.hasPrefix("warning"), warning)
        XCTAssertTrue(warning.contains("\(store.decisionPath) is too large (1073741824 bytes"), warning)
        XCTAssertTrue(warning.contains("at most 65536 bytes are read"), warning)
        XCTAssertTrue(warning.contains("not determined"), warning)
    }

    func testAFileAtTheLimitIsReadAndOneByteMoreIsNot() throws {
        let limit = DecisionStore.maximumFileSize
        let decision = Data("{\"state\":\"allowed\",\"version\":1}".utf8)
        let padded = decision + Data(repeating: UInt8(ascii: " "), count: limit - decision.count)

        let reader = CountingReader()
        let store = try makeStore(reader)
        try padded.write(to: URL(fileURLWithPath: store.decisionPath))
        XCTAssertEqual(store.read(), .allowed, "exactly \(limit) bytes: read")
        XCTAssertLessThanOrEqual(reader.total, (limit + 1) * 2, "two reads at most: the bytes, then the end")
        XCTAssertLessThanOrEqual(reader.requested.all.max() ?? 0, limit + 1)

        let larger = CountingReader()
        let lines = Recorder<String>()
        let rejecting = try makeStore(larger, lines: lines)
        try (padded + Data(" ".utf8)).write(to: URL(fileURLWithPath: rejecting.decisionPath))
        XCTAssertEqual(rejecting.read(), .notDetermined)
        XCTAssertEqual(larger.total, 0, "\(limit + 1) bytes: rejected by its size before reading")
        XCTAssertTrue(lines.all.first?.contains("too large (\(limit + 1) bytes") == true, "\(lines.all)")
    }

    func testAFileThatGrowsWhileReadIsCutOffAtTheLimit() throws {
        // The file is small when fstat looks, then every read fills the whole buffer (it keeps growing): the store
        // asks for no more than the limit plus one byte in all, and gives up.
        let limit = DecisionStore.maximumFileSize
        let requested = Recorder<Int>()
        let lines = Recorder<String>()
        let store = DecisionStore(
            directory: try makeTemporaryDirectory(self), logger: recordingLogger(lines),
            readSystemCall: { _, buffer, count in
                requested.append(count)
                memset(buffer, 0x20, count)
                return count
            })
        try Data("{\"state\":\"allowed\"}".utf8).write(to: URL(fileURLWithPath: store.decisionPath))
        XCTAssertEqual(store.read(), .notDetermined)
        XCTAssertEqual(requested.all.reduce(0, +), limit + 1, "\(requested.all)")
        XCTAssertTrue(lines.all.first?.contains("too large (it grew") == true, "\(lines.all)")
    }

    func testBoundedReadTakesShortReadsAndStopsAtTheEnd() {
        // A reader that gives 1,000 bytes at a time from a 2,500-byte "file".
        let source = (0..<2500).map { UInt8($0 % 251) }
        let position = Recorder<Int>()
        let read: ReadSystemCall = { _, buffer, count in
            position.append(count)
            let offset = min(position.all.dropLast().reduce(0) { $0 + min($1, 1000) }, source.count)
            let chunk = min(count, 1000, source.count - offset)
            source[offset..<offset + chunk].withUnsafeBytes {
                buffer.copyMemory(from: $0.baseAddress!, byteCount: chunk)
            }
            return chunk
        }
        guard case .success(let data) = DecisionStore.readBounded(-1, limit: 4096, using: read) else {
            return XCTFail("failed")
        }
        XCTAssertEqual(Array(data), source)

        // The same source with a limit below its size: limit + 1 bytes, then no further read.
        let small = Recorder<Int>()
        let counted: ReadSystemCall = { fd, buffer, count in
            small.append(count)
            memset(buffer, 0x41, min(count, 1000))
            return min(count, 1000)
        }
        guard case .success(let cut) = DecisionStore.readBounded(-1, limit: 2048, using: counted) else {
            return XCTFail("failed")
        }
        XCTAssertEqual(cut.count, 2049)
        XCTAssertEqual(small.all, [2049, 1049, 49], "never more than limit + 1 in all")
    }

    func testSpecialFilesAreNotRead() throws {
        let reader = CountingReader()
        let lines = Recorder<String>()
        let store = try makeStore(reader, lines: lines)
        // A link to an endless device, a FIFO nobody writes to (opening it must not block), a directory.
        XCTAssertEqual(symlink("/dev/zero", store.decisionPath), 0)
        XCTAssertEqual(store.read(), .notDetermined)
        unlink(store.decisionPath)
        XCTAssertEqual(mkfifo(store.decisionPath, 0o600), 0)
        XCTAssertEqual(store.read(), .notDetermined)
        unlink(store.decisionPath)
        XCTAssertEqual(mkdir(store.decisionPath, 0o700), 0)
        XCTAssertEqual(store.read(), .notDetermined)
        XCTAssertEqual(reader.total, 0, "none of them was read: \(reader.requested.all)")
        XCTAssertEqual(lines.all.count, 2, "\(lines.all)")
        XCTAssertTrue(lines.all[0].contains("not a regular file"), "\(lines.all)")
        XCTAssertTrue(lines.all[1].contains("it is a directory"), "\(lines.all)")
    }

    // MARK: Unknown format versions

    func testUnknownFormatVersionsReadAsNotDeterminedSayingWhatWasFound() throws {
        let samples: [(json: String, found: String)] = [
            ("{\"state\":\"allowed\",\"version\":7,\"extra\":true}", "7"),
            ("{\"state\":\"denied\",\"version\":2}", "2"),
            ("{\"state\":\"allowed\",\"version\":0}", "0"),
            ("{\"state\":\"allowed\",\"version\":\"1\"}", "\"1\""),
            ("{\"state\":\"allowed\",\"version\":true}", "true"),
            ("{\"state\":\"allowed\",\"version\":null}", "null"),
            ("{\"state\":\"allowed\",\"version\":1.5}", "1.5"),
        ]
        for (json, found) in samples {
            let lines = Recorder<String>()
            let store = DecisionStore(directory: try makeTemporaryDirectory(self), logger: recordingLogger(lines))
            try Data(json.utf8).write(to: URL(fileURLWithPath: store.decisionPath))
            XCTAssertEqual(store.read(), .notDetermined, json)
            XCTAssertNil(store.decision(), json)
            let warning = try XCTUnwrap(lines.all.first, json)
            XCTAssertEqual(lines.all.count, 1, "\(json): warned once: \(lines.all)")
            XCTAssertTrue(warning.hasPrefix("warning"), warning)
            XCTAssertTrue(warning.contains("\(store.decisionPath) has format version \(found),"), warning)
            XCTAssertTrue(warning.contains("it reads version 1"), warning)
            XCTAssertTrue(warning.contains("The file is kept"), warning)
            XCTAssertTrue(warning.contains("not determined"), warning)
        }
        // Version 1, and no version at all (a hand-written file), are today's format.
        for json in ["{\"state\":\"allowed\",\"version\":1}", "{\"state\":\"allowed\"}"] {
            let store = DecisionStore(directory: try makeTemporaryDirectory(self))
            try Data(json.utf8).write(to: URL(fileURLWithPath: store.decisionPath))
            XCTAssertEqual(store.read(), .allowed, json)
        }
    }

    func testAnUnknownVersionIsKeptByEverythingButTheUsersDecision() async throws {
        let directory = try makeTemporaryDirectory(self)
        let store = DecisionStore(directory: directory, logger: recordingLogger(Recorder<String>()))
        let original = Data("{\"decided_at\":\"2031-01-01T00:00:00Z\",\"state\":\"allowed\",\"version\":9}\n".utf8)
        try original.write(to: URL(fileURLWithPath: store.decisionPath))
        let originalInode = try inode(store.decisionPath)
        func assertUnchanged(_ after: String, file: StaticString = #filePath, line: UInt = #line) throws {
            XCTAssertEqual(
                try Data(contentsOf: URL(fileURLWithPath: store.decisionPath)), original, "changed by \(after)",
                file: file, line: line)
            XCTAssertEqual(try inode(store.decisionPath), originalInode, "replaced by \(after)", file: file, line: line)
        }

        // Reading, from this store and from another.
        for _ in 0..<3 { XCTAssertEqual(store.read(), .notDetermined) }
        XCTAssertEqual(DecisionStore(directory: directory).read(), .notDetermined)
        try assertUnchanged("reads")

        // Watching for changes (the watch reads the file when it starts and when the directory changes).
        let changes = StreamCollector(store.changes())
        try Data("unrelated".utf8).write(to: URL(fileURLWithPath: directory + "/unrelated.txt"))
        changes.cancel()
        try assertUnchanged("watching")

        // The gate: its state, and operations that would need the prompt (evaluated with no prompt handler: they
        // only wait) or are exempt.
        let gate = LocalNetworkGate(
            store: store, logger: recordingLogger(Recorder<String>()), loadManifest: { standardManifest },
            isLoopbackHost: { Loopback.isLoopback(host: $0) })
        XCTAssertEqual(gate.authorization, .notDetermined)
        let origin = OperationOrigin("test")
        _ = gate.browse("_tictactoe._tcp", for: origin)
        _ = gate.advertise("_tictactoe._tcp", for: origin)
        _ = gate.listen(on: .address("127.0.0.1"), for: origin)
        try assertUnchanged("the gate")

        // A prompt shown, then dismissed without an answer: still no decision.
        gate.setPromptHandler { _ in }
        _ = gate.browse("_tictactoe._tcp", for: origin)
        gate.promptDismissed()
        try assertUnchanged("a dismissed prompt")

        // The user decides: the prompt's answer replaces the file.
        try gate.answerPrompt(allow: false)
        XCTAssertEqual(store.read(), .denied)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store.decisionPath)))
        XCTAssertEqual((object as? [String: Any])?["version"] as? Int, 1)
    }

    func testResetRemovesAnUnknownVersion() throws {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self))
        try Data("{\"state\":\"allowed\",\"version\":3}".utf8).write(to: URL(fileURLWithPath: store.decisionPath))
        try store.reset()
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.decisionPath))
    }
}
