import Foundation
import XCTest
import TicTacToeTestSupport

/// A joiner's link goes down in the middle of a match (`ip link set lab0 down` in its namespace): no FIN, no RST,
/// just silence. The host notices through its heartbeat, ends the match and listens again, and the next joiner plays.
final class LinkFaultLabTests: LabTestCase {
    override func tearDown() {
        super.tearDown()
        Lab.run(["exec", "host-b", "--", "ip", "link", "set", "lab0", "up"])
    }

    func testAJoinerWhoseLinkGoesDownMidMatchIsDetectedAndTheHostListensAgain() throws {
        let host = try tictactoe(on: "host-a", ["host", "--headless", "--json", "--no-advertise", "--port", "0",
                                                "--games", "3", "--name", "Alice"])
        let listening = try XCTUnwrap(host.waitForEvent("listening"), host.standardError)
        let port = try XCTUnwrap(listening.event["port"] as? Int)
        let address = "\(Lab.address(of: "host-a")):\(port)"
        // The joiner takes its time (2 s before each of its moves): the match is surely under way when the link goes.
        let joiner = try tictactoe(on: "host-b", ["join", address, "--headless", "--json", "--name", "Bob",
                                                  "--move-delay", "2"])
        let connected = try XCTUnwrap(host.waitForEvent("connected", from: listening.index + 1), host.standardError)
        XCTAssertNotNil(host.waitForEvent("move", from: connected.index + 1), "\(host.output)")

        let (status, output) = Lab.run(["exec", "host-b", "--", "ip", "link", "set", "lab0", "down"])
        let linkDown = ContinuousClock.now
        XCTAssertEqual(status, 0, output)

        // Hang detector only (generous); the figure is printed, not asserted.
        let over = try XCTUnwrap(host.waitForEvent("match-over", from: connected.index + 1, timeout: 60),
                                 "the host never noticed: \(host.output)")
        XCTAssertEqual(over.event["end"] as? String, "peer-timeout", "\(over.event)")
        let again = try XCTUnwrap(host.waitForEvent("listening", from: over.index + 1, timeout: 30),
                                  "the host did not listen again: \(host.output)")
        let detection = over.time.milliseconds(since: linkDown) / 1000
        print(String(format: "link down mid-match: the host detected it after %.2f s and listened again after %.2f s",
                     detection, again.time.milliseconds(since: linkDown) / 1000))
        XCTAssertTrue(host.isRunning)

        // The next joiner (from host-c) gets its match.
        let next = try tictactoe(on: "host-c", ["join", address, "--headless", "--json", "--name", "Carol"])
        XCTAssertEqual(next.waitForExit(timeout: 60), 0, next.standardError)
        XCTAssertEqual(next.events(named: "summary").last?["games"] as? Int, 3, "\(next.output)")
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)

        // The joiner cut off notices too, on its own (its link is still down): it is not left hanging.
        XCTAssertNotNil(joiner.waitForExit(timeout: 60), "the cut-off joiner hangs: \(joiner.output)")
        print("the cut-off joiner ended with \(joiner.termination.map { "\($0)" } ?? "?"): "
              + "\(joiner.events(named: "match-over").last?["end"] as? String ?? "no match-over")")
    }
}
