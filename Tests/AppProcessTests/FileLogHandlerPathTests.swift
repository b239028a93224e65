import FoundationEssentials
import XCTest
@testable import AppProcess
import TicTacToeApp

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
}
