import Foundation
import XCTest
import TicTacToeTestSupport

/// An IPv6-only LAN (`lan up --ipv6-only`): no IPv4 anywhere, each host has only its link-local fe80:: address, and
/// avahi runs on IPv6 only. The hosts' interfaces are named differently, as two real machines' are (host-a's
/// `enp3s0`, host-b's `wlp2s0`): an address scoped with one host's interface means nothing on the other. Bonjour
/// resolves a game to `[fe80::…%wlp2s0]:PORT` on host-b (the scope is the joiner's own interface), and only a host
/// listening on `::` can be reached. Local network access is allowed for both hosts as
/// in the discovery tests (`LabProcess` runs every tictactoe with `Lab.grantedConfigDirectory`, where
/// `tictactoe privacy grant` ran).
final class IPv6OnlyLabTests: LabTestCase {
    override class var labMode: Lab.Mode { .ipv6Only }
    override class var labHosts: [String] { ["host-a", "host-b"] }
    override class var labInterfaces: [String: String] { ["host-a": "enp3s0", "host-b": "wlp2s0"] }

    /// The lab mode itself: no IPv4 address on the hosts, Avahi answers with host-a's fe80:: address, and
    /// `tictactoe browse` on host-b lists a game that a real peer (avahi-publish) advertises on host-a.
    func testAGamePublishedOnAnIPv6OnlyLANIsBrowsed() throws {
        XCTAssertEqual(Lab.run(["mode"]).1.trimmingCharacters(in: .whitespacesAndNewlines), "ipv6-only")
        let address = Lab.address(of: "host-a")
        XCTAssertTrue(address.hasPrefix("fe80::"), "host-a's address: \(address)")
        let (status, ipv4) = Lab.run(["exec", "host-a", "--", "ip", "-4", "-o", "addr", "show", "dev",
                                        Lab.interface(of: "host-a")])
        XCTAssertEqual(status, 0, ipv4)
        XCTAssertEqual(ipv4, "", "an IPv6-only host has no IPv4 address")

        _ = try publish(on: "host-a", name: "v6 peer", port: 7000)
        let fields = try XCTUnwrap(avahiBrowseResolved(on: "host-b", name: "v6 peer"), "avahi-browse never resolved it")
        // =;IFACE;PROTO;NAME;TYPE;DOMAIN;HOSTNAME;ADDRESS;PORT;TXT
        XCTAssertEqual(fields[1], Lab.interface(of: "host-b"))
        XCTAssertEqual(fields[2], "IPv6")
        XCTAssertEqual(fields[6], "host-a.local")
        XCTAssertEqual(fields[7], address)
        XCTAssertEqual(fields[8], "7000")

        let (games, browseStatus, process) = try browse(on: "host-b")
        XCTAssertEqual(browseStatus, 0, process.standardError)
        XCTAssertEqual(names(games), ["v6 peer"], "\(process.output)")
        XCTAssertEqual(games.first?["compatible"] as? Bool, true, "\(games)")
    }

    /// A full game by name with nothing but link-local IPv6: the host listens on its default bind (no --bind), the
    /// joiner resolves the name to host-a's fe80:: address scoped to its own interface, connects, and both finish the game.
    /// Needs a host that listens on `::` (dual-stack) by default: one listening on 0.0.0.0 only refuses the join.
    func testJoinByNameCompletesAGameOverLinkLocalIPv6() throws {
        let host = try tictactoe(on: "host-a", ["host", "--headless", "--name", "v6 game", "--json", "--games", "1"])
        let listening = try XCTUnwrap(host.waitForEvent("listening"), "host did not listen: \(host.standardError)")
        let port = try XCTUnwrap(listening.event["port"] as? Int, "\(listening.event)")
        let advertised = try XCTUnwrap(host.waitForEvent("advertised"),
                                       "host was not advertised: \(host.output) \(host.standardError)")
        XCTAssertEqual(advertised.event["name"] as? String, "v6 game")

        let joiner = try tictactoe(on: "host-b", ["join", "v6 game", "--headless", "--json"])
        let joinerStatus = joiner.waitForExit(timeout: 60)

        // Bonjour found it at host-a's link-local address, scoped to the joiner's interface.
        let resolved = try XCTUnwrap(joiner.events(named: "resolved").first,
                                     "not resolved: \(joiner.output) \(joiner.standardError)")
        let addresses = resolved["addresses"] as? [String] ?? []
        let hostAddress = Lab.address(of: "host-a")
        let scoped = "\(hostAddress)%\(Lab.interface(of: "host-b"))"
        XCTAssertTrue(addresses.contains { $0 == "[\(scoped)]:\(port)" || $0 == "\(scoped):\(port)" },
                      "expected [\(scoped)]:\(port) among \(addresses)")
        XCTAssertTrue(addresses.allSatisfy { $0.contains("fe80::") }, "only link-local IPv6 here: \(addresses)")

        // Both ends finished the game.
        let joinerError = joiner.events(named: "error").last?["message"] as? String
        XCTAssertEqual(joinerStatus, 0, "the join failed: \(joinerError ?? "no error event"); listening: "
                       + "\(listening.event); joiner: \(joiner.output) \(joiner.standardError)")
        XCTAssertEqual(host.waitForExit(timeout: joinerStatus == 0 ? 30 : 2), 0,
                       "host: \(host.output) \(host.standardError)")
        let joinerSummary = joiner.events(named: "summary").last
        let hostSummary = host.events(named: "summary").last
        XCTAssertEqual(joinerSummary?["games"] as? Int, 1, "joiner's summary: \(joinerSummary ?? [:])")
        XCTAssertEqual(hostSummary?["games"] as? Int, 1, "host's summary: \(hostSummary ?? [:])")
        XCTAssertEqual(joinerSummary?["exit"] as? Int, 0, "joiner's summary: \(joinerSummary ?? [:])")
        XCTAssertEqual(hostSummary?["exit"] as? Int, 0, "host's summary: \(hostSummary ?? [:])")
    }

    /// The join line a host prints, pasted on another host, plays: host-a (interface `enp3s0`) prints
    /// `tictactoe join [fe80::…]:PORT` (with or without an interface of its own), and host-b (`wlp2s0`) runs exactly
    /// that; a bare link-local address, with its port or without (the default port), joins too.
    func testTheHostsPrintedJoinLineAndABareLinkLocalAddressJoinOnAnotherHost() throws {
        let host = try tictactoe(on: "host-a", ["host", "--headless", "--no-advertise", "--name", "Pasted",
                                                "--port", "7878", "--matches", "3", "--seed", "1"])
        let hosting = try XCTUnwrap(host.waitForLine { $0.contains("Join with: tictactoe join ") },
                                    "no join line: \(host.output) \(host.standardError)")
        let joinWith = try XCTUnwrap(hosting.text.range(of: "Join with: tictactoe join "))
        let pasted = String(hosting.text[joinWith.upperBound...].prefix { $0 != " " })
        let address = Lab.address(of: "host-a")
        XCTAssertTrue(pasted.hasPrefix("[\(address)"), "host-a's link-local address: \(hosting.text)")
        print("host-a (\(Lab.interface(of: "host-a"))) printed: \(hosting.text)")
        for target in [pasted, "[\(address)]:7878", address] {
            let joiner = try tictactoe(on: "host-b", ["join", target, "--headless", "--json", "--name", "Bea",
                                                      "--seed", "2", "--connect-timeout", "10"])
            let status = joiner.waitForExit(timeout: 40)
            print("host-b (\(Lab.interface(of: "host-b"))): tictactoe join \(target) → exit \(status.map(String.init) ?? "?"), "
                + "connected to \(joiner.events(named: "connected").first?["peer"] as? String ?? "nobody")")
            XCTAssertEqual(status, 0, "join \(target): \(joiner.output) \(joiner.standardError)")
            XCTAssertEqual(joiner.events(named: "connected").first?["peer"] as? String, "Pasted", "\(joiner.output)")
            XCTAssertEqual(joiner.events(named: "summary").last?["games"] as? Int, 1, "\(joiner.output)")
        }
        XCTAssertEqual(host.waitForExit(timeout: 20), 0, host.standardError)
    }
}
