import Foundation
import XCTest
import TicTacToeTestSupport

/// What only a process shows of a peer that goes: Ctrl-C (SIGINT) ends a joiner with exit 130 after telling its host
/// that it quit. How a host and a joiner react to peers that break the protocol, vanish or fall silent is tested in
/// process (AppCoreTests' MisbehavingPeerHostTests, GameTransportTests' MisbehavingJoinerTests).
final class MisbehavingPeerTests: ProcessTestCase {
    func testCtrlCTellsThePeer() throws {
        let (host, port) = try startHost(["--plaintext", "--games", "5", "--move-delay", "0.5"])
        processes.append(host)
        let joiner = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json"])
        processes.append(joiner)
        XCTAssertNotNil(joiner.waitForEvent("game-start"), "the joiner never got into the match")
        joiner.signal(SIGINT)
        XCTAssertEqual(joiner.waitForExit(timeout: 10), 130)
        let over = try XCTUnwrap(host.waitForEvent("match-over"), "the host did not notice")
        XCTAssertEqual(over["end"] as? String, "peer-left")
        XCTAssertTrue((over["detail"] as? String ?? "").contains("quit"), "\(over)")
    }
}
