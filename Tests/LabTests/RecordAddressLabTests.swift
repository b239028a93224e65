import Foundation
import XCTest
import TicTacToeTestSupport

/// A game's Bonjour record that names an address no host on the LAN can have (loopback, unspecified, multicast):
/// `join NAME` refuses it, says why, and connects nowhere; joining by address is unaffected.
final class RecordAddressLabTests: LabTestCase {
    override class var labHosts: [String] { ["host-a", "host-b"] }

    func testARecordNamingLoopbackIsRefused() throws {
        try assertRefused(address: "127.0.0.1", record: "loop-record", why: "loopback: this machine itself")
    }

    func testARecordNamingTheUnspecifiedAddressIsRefused() throws {
        try assertRefused(address: "0.0.0.0", record: "zero-record", why: "unspecified: no host at all")
    }

    func testARecordNamingAMulticastAddressIsRefused() throws {
        try assertRefused(address: "224.0.0.1", record: "group-record", why: "multicast: a group, not a host")
    }

    /// A game record that points at something else (an HTTP server on host-a): `join NAME` on host-b says, once and in
    /// words, that it is not a tictactoe game (exit 7), with no library's bare reason name.
    func testARecordPointingAtAnHTTPServerSaysItIsNotAGameOnce() throws {
        let address = Lab.address(of: "host-a")
        let server = track(try LabProcess(on: "host-a", ["python3", "-u", "-m", "http.server", "--bind", address, "8080"]))
        XCTAssertNotNil(server.waitForLine(timeout: 15) { $0.contains("Serving HTTP") }, server.standardError)
        _ = try publish(on: "host-a", name: "Web server", port: 8080)
        let joiner = try tictactoe(on: "host-b", ["join", "Web server", "--headless", "--connect-timeout", "4"])
        XCTAssertEqual(joiner.waitForExit(timeout: 30), 7, "\(joiner.output) \(joiner.standardError)")
        let said = joiner.standardError.split(separator: "\n").filter { $0.contains("not a tictactoe game") }
        XCTAssertEqual(said.count, 1, joiner.standardError)
        XCTAssertTrue(said.first?.contains("the other end answers, but it is not a tictactoe game") == true,
                      joiner.standardError)
        XCTAssertFalse(joiner.standardError.contains("TLS handshake failed"), joiner.standardError)
        print("join 'Web server' (an HTTP server): \(joiner.standardError)")
    }

    /// host-a publishes `NAME.local → address` and a `_tictactoe._tcp` game on that host name, at the port of a
    /// tictactoe host listening on host-b's own 127.0.0.1. host-b joins the game by name (under strace): exit 5 with
    /// the reason, no TCP or UDP connect at all, and the listener sees nobody. Then host-b joins the listener by
    /// address, which works.
    private func assertRefused(
        address: String, record: String, why: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let listener = try tictactoe(on: "host-b", ["host", "--headless", "--json", "--no-advertise",
                                                    "--bind", "127.0.0.1", "--port", "0", "--name", "Local listener"])
        let port = try XCTUnwrap(listener.waitForEvent("listening")?.event["port"] as? Int, listener.standardError,
                                 file: file, line: line)

        let hostName = "\(record).local"
        let addressRecord = track(try LabProcess(on: "host-a", ["avahi-publish", "-a", "-R", hostName, address]))
        XCTAssertNotNil(addressRecord.waitForErrorLine(timeout: 15) { $0.hasPrefix("Established under name") },
                        "avahi-publish -a \(hostName) \(address): \(addressRecord.standardError)",
                        file: file, line: line)
        let game = "Game at \(address)"
        let service = track(try LabProcess(
            on: "host-a",
            ["avahi-publish", "-s", "-H", hostName, game, "_tictactoe._tcp", "\(port)", "proto=2", "sec=open"]))
        XCTAssertNotNil(service.waitForErrorLine(timeout: 15) { $0.hasPrefix("Established under name") },
                        "avahi-publish -s \(game): \(service.standardError)", file: file, line: line)

        // Listed, not joinable, saying why (not joinable with no address at all).
        let (games, _, browsing) = try browse(on: "host-b")
        let listed = games.first { $0["name"] as? String == game }
        XCTAssertEqual(listed?["compatible"] as? Bool, false, "\(games) \(browsing.standardError)", file: file, line: line)
        XCTAssertTrue((listed?["reason"] as? String ?? "").contains("names no address on the LAN, only \(address) (\(why)"),
                      "\(String(describing: listed))", file: file, line: line)

        let trace = Scratch.path("tictactoe-lab-record-strace-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        scratchPaths.append(trace)
        let joiner = track(try LabProcess(
            on: "host-b",
            ["strace", "-f", "-e", "trace=connect,sendto,sendmsg,sendmmsg", "-o", trace,
             tictactoeBinary, "join", game, "--headless", "--json", "--name", "bob", "--connect-timeout", "8"]))
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 5, "\(joiner.output) \(joiner.standardError)",
                       file: file, line: line)
        let message = joiner.events(named: "error").last?["message"] as? String ?? ""
        for expected in ["refusing to join '\(game)'", "names only \(address) (\(why)", "nothing was connected to"] {
            XCTAssertTrue(message.contains(expected), "\(expected) in: \(message)", file: file, line: line)
        }
        if address.hasPrefix("127.") {
            XCTAssertTrue(message.hasSuffix("join it by address: tictactoe join \(address):\(port)"), message,
                          file: file, line: line)
        }
        XCTAssertTrue(joiner.events(named: "resolved").isEmpty, "\(joiner.output)", file: file, line: line)

        // No connect() or send to an IP address: only the unix sockets of D-Bus (Avahi) and the like.
        let traced = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        let calls = traced.split(separator: "\n").map(String.init)
        XCTAssertTrue(calls.contains { $0.contains("connect(") }, "strace saw no connect at all (is it working?)",
                      file: file, line: line)
        let network = calls.filter { $0.contains("AF_INET") }
        XCTAssertEqual(network, [], "the joiner reached for the network", file: file, line: line)
        for event in ["connected", "peer-failed", "busy-rejected"] {
            XCTAssertTrue(listener.events(named: event).isEmpty, "\(event): \(listener.output)", file: file, line: line)
        }

        // By address, the same listener is joined as usual.
        let byAddress = try tictactoe(on: "host-b", ["join", "127.0.0.1:\(port)", "--headless", "--json"])
        XCTAssertEqual(byAddress.waitForExit(timeout: 60), 0, byAddress.standardError, file: file, line: line)
        XCTAssertEqual(listener.waitForExit(timeout: 30), 0, listener.standardError, file: file, line: line)
        print("join '\(game)' refused: \(message) (\(calls.count) traced calls, none to an IP address)")
    }
}
