import AppCore
@testable import AppProcess
import FoundationEssentials
import TicTacToeTestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The log file: `FileLogHandler.defaultPath` reads only `XDG_STATE_HOME` and `HOME` (not a copy of the whole
/// environment at every start) and names the same file as the path computed from the whole environment; a log past
/// its limit is moved aside; a log that cannot be opened is a warning.
final class FileLogHandlerPathTests: XCTestCase {
    func testTheDefaultPathIsThePathOfTheWholeEnvironment() {
        let saved = getenv("XDG_STATE_HOME").map { String(cString: $0) }
        defer {
            if let saved { setenv("XDG_STATE_HOME", saved, 1) } else { unsetenv("XDG_STATE_HOME") }
        }
        for value in [nil, "/tmp/ttt-state", "relative/state"] as [String?] {
            if let value { setenv("XDG_STATE_HOME", value, 1) } else { unsetenv("XDG_STATE_HOME") }
            XCTAssertEqual(FileLogHandler.defaultPath,
                           FileLogHandler.path(environment: ProcessInfo.processInfo.environment),
                           "XDG_STATE_HOME=\(value ?? "unset")")
        }
        setenv("XDG_STATE_HOME", "/tmp/ttt-state", 1)
        XCTAssertEqual(FileLogHandler.defaultPath, "/tmp/ttt-state/tictactoe/tictactoe.log")
    }

    /// A log past the limit is moved to `.1` (replacing the one before); one within it, or no log, is left as it is.
    func testALogPastItsLimitIsMovedAsideAtStart() throws {
        let directory = try makeTemporaryDirectory(self)
        let path = directory + "/tictactoe.log"
        FileLogHandler.rotateIfLarge(path, limit: 10)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".1"))
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("0123456789".utf8)))
        FileLogHandler.rotateIfLarge(path, limit: 10)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "10 bytes are within a limit of 10")
        XCTAssertTrue(FileManager.default.createFile(atPath: path + ".1", contents: Data("older".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("0123456789A".utf8)))
        FileLogHandler.rotateIfLarge(path, limit: 10)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(try String(contentsOfFile: path + ".1", encoding: .utf8), "0123456789A")
    }

    /// A log that cannot be opened (its path is a directory) is an output that failed at once, naming the file: the
    /// warning the command prints. One that can be opened is created with its directory, readable by its owner only.
    func testALogThatCannotBeOpenedIsAFailedOutputAndOneThatCanIsCreated() throws {
        let directory = try makeTemporaryDirectory(self)
        let failure = try XCTUnwrap(FileLogHandler.openLog(directory).failure, "a directory opened as the log")
        let warning = FileLogHandler.warning(failure)
        XCTAssertTrue(warning.contains("the log file \(directory)"), warning)
        XCTAssertTrue(warning.hasSuffix("logging is off, the game goes on"), warning)

        let path = directory + "/state/tictactoe/tictactoe.log"
        let log = FileLogHandler.openLog(path)
        XCTAssertNil(log.failure)
        _ = log.writeLine("hello")
        log.waitUntilWritten()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "hello\n")
        var status = stat()
        XCTAssertEqual(stat(path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
    }
}
