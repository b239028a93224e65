import Foundation
import XCTest
import TicTacToeTestSupport

/// A host tells its player where joiners reach it: a headless host on host-b, listening on every
/// interface (its default bind), prints host-b's own lab address in its `Join with:` line, and a joiner on host-a that
/// types exactly that line's address plays the match. No Bonjour is involved (`--no-advertise`).
final class HostAddressesLabTests: LabTestCase {
    override class var labHosts: [String] { ["host-a", "host-b"] }

    func testTheJoinLineNamesTheHostsLabAddressAndAJoinerJoinsIt() throws {
        let host = try tictactoe(on: "host-b", [
            "host", "--headless", "--no-advertise", "--name", "Carol", "--port", "0", "--games", "1", "--seed", "3",
        ])
        let hosting = try XCTUnwrap(host.waitForLine { $0.hasPrefix("Hosting as Carol on port ") },
                                    "no Hosting line: \(host.output) \(host.standardError)")
        let joinWith = try XCTUnwrap(hosting.text.range(of: "Join with: tictactoe join "), hosting.text)
        let address = String(hosting.text[joinWith.upperBound...].prefix { $0 != " " })
        let hostB = Lab.address(of: "host-b")
        XCTAssertTrue(address.hasPrefix("\(hostB):"), "the first address is host-b's lab address \(hostB): \(hosting.text)")
        // Host-b's other addresses follow: its IPv6 link-local one, last, with the note (no loopback anywhere).
        let others = Array(host.output[(hosting.index + 1)...].prefix { $0.hasPrefix("  or: ") })
        XCTAssertTrue(others.allSatisfy { !$0.contains("127.0.0.1") && !$0.contains("[::1]") }, "\(others)")
        if let last = others.last, last.contains("[fe80:") {
            XCTAssertTrue(last.hasSuffix("(link-local: this link only; join finds its own interface)"), last)
            XCTAssertFalse(last.contains("%"), "no interface of the host's in the line: \(last)")
        }

        print("host-b printed:\n" + ([hosting.text] + others).joined(separator: "\n"))

        let joiner = try tictactoe(on: "host-a", ["join", address, "--headless", "--json", "--name", "Dave",
                                                  "--seed", "4"])
        XCTAssertEqual(joiner.waitForExit(), 0, "\(joiner.output) \(joiner.standardError)")
        XCTAssertEqual(joiner.events(named: "connected").first?["peer"] as? String, "Carol", "\(joiner.output)")
        XCTAssertEqual(joiner.events(named: "summary").first?["games"] as? Int, 1, "\(joiner.output)")
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
    }

    /// `--json`: the `listening` event's `addresses` start with host-b's lab address and end with its link-local
    /// ones; `--bind` to that address lists it alone.
    func testTheListeningEventListsTheAddressesLinkLocalLast() throws {
        let hostB = Lab.address(of: "host-b")
        let host = try tictactoe(on: "host-b", ["host", "--headless", "--json", "--no-advertise", "--port", "0"])
        let listening = try XCTUnwrap(host.waitForEvent("listening"), host.standardError).event
        let port = try XCTUnwrap(listening["port"] as? Int)
        let addresses = try XCTUnwrap(listening["addresses"] as? [String], "\(listening)")
        XCTAssertEqual(addresses.first, "\(hostB):\(port)", "\(addresses)")
        let linkLocal = addresses.drop { !$0.hasPrefix("[fe80:") }
        XCTAssertTrue(linkLocal.allSatisfy { $0.hasPrefix("[fe80:") }, "link-local last: \(addresses)")
        XCTAssertFalse(addresses.contains { $0.hasPrefix("127.") || $0.hasPrefix("[::1]") }, "\(addresses)")
        host.terminate()

        let bound = try tictactoe(on: "host-b", ["host", "--headless", "--json", "--no-advertise", "--port", "0",
                                                 "--bind", hostB])
        let one = try XCTUnwrap(bound.waitForEvent("listening"), bound.standardError).event
        XCTAssertEqual(one["addresses"] as? [String], ["\(hostB):\(one["port"] as? Int ?? 0)"], "\(one)")
    }
}
