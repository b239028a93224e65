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
