import FoundationEssentials
import XCTest
@testable import AppProcess
import TicTacToeApp
import TicTacToeTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `FileLogHandler.defaultPath` reads only `XDG_STATE_HOME` and `HOME` (issue 15: not a copy of the whole environment
/// at every start): it must name the same file as the path computed from the whole environment.
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
}
