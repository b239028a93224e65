import Foundation
import TicTacToeTestSupport
import XCTest

/// A running `tictactoe` (TestSupport's one process harness, `ChildProcess(arguments)`).
typealias TicTacToeProcess = ChildProcess

/// The end-to-end test cases stop every process they started when each test ends (TestSupport's ProcessTestCase).
typealias ProcessTestCase = TicTacToeTestSupport.ProcessTestCase

/// Starts a headless host on loopback with an OS-chosen port and returns it with the port it listens on. Hosts here
/// run in the machine's own network namespace: `--no-advertise` keeps them away from Bonjour (mDNS runs only in the
/// LAN lab, Tests/lab/lan).
func startHost(_ extra: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (TicTacToeProcess, Int) {
    let host = try TicTacToeProcess(["host", "--headless", "--no-advertise", "--bind", "127.0.0.1", "--port", "0",
                                     "--json"] + extra)
    guard let listening = host.waitForEvent("listening"), let port = listening["port"] as? Int else {
        host.terminate()
        XCTFail("host did not start listening; stderr: \(host.standardError)", file: file, line: line)
        throw XCTSkip("no host")
    }
    return (host, port)
}

/// A saved game's record of one game X wins on the top row (cells 1, 2, 3), O having played 4 and 5.
let topRowWinRecord = [
    #"{"event":"game-start","first":"X","game":1,"you":"X"}"#,
    #"{"by":"local","cell":1,"event":"move","mark":"X"}"#,
    #"{"by":"peer","cell":4,"event":"move","mark":"O"}"#,
    #"{"by":"local","cell":2,"event":"move","mark":"X"}"#,
    #"{"by":"peer","cell":5,"event":"move","mark":"O"}"#,
    #"{"by":"local","cell":3,"event":"move","mark":"X"}"#,
    #"{"board":"XXXOO....","event":"game-over","game":1,"line":[1,2,3],"reason":"line","score":{"draws":0,"games":1,"losses":0,"wins":1},"winner":"X"}"#,
].joined(separator: "\n") + "\n"
