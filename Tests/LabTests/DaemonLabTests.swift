import Foundation
import XCTest
import TicTacToeTestSupport

/// avahi-daemon absent, dying and coming back: tictactoe says so, keeps hosting by address, and recovers by itself.
final class DaemonLabTests: LabTestCase {
    override func tearDown() {
        super.tearDown()
        for host in Lab.hosts { Lab.run(["start-avahi", host]) }  // whatever a test stopped
    }

    func testBrowseRecoversWhenItsDaemonIsKilledAndRestarted() throws {
        _ = try publish(on: "host-b", name: "Frank's game")
        let watch = try tictactoe(on: "host-a", ["browse", "--watch", "--json", "--timeout", "90"])
        let listed = try XCTUnwrap(watch.waitForGames(where: { names($0) == ["Frank's game"] }), "\(watch.output)")
        XCTAssertEqual(Lab.run(["kill-avahi", "host-a"]).0, 0)
        let down = try XCTUnwrap(watch.waitForEvent("bonjour-unavailable", from: listed.index + 1, timeout: 10),
                                 "\(watch.output)")
        XCTAssertTrue((down.event["message"] as? String ?? "").contains("is avahi-daemon running?"))
        // Stale results are flushed.
        XCTAssertNotNil(watch.waitForGames(from: down.index + 1, timeout: 5, where: { $0.isEmpty }), "\(watch.output)")
        XCTAssertEqual(Lab.run(["start-avahi", "host-a"]).0, 0)
        let up = try XCTUnwrap(watch.waitForEvent("bonjour-available", from: down.index + 1, timeout: 15),
                               "\(watch.output)")
        XCTAssertNotNil(watch.waitForGames(from: up.index + 1, timeout: 10, where: { names($0) == ["Frank's game"] }),
                        "not listed again: \(watch.output)")
        XCTAssertTrue(watch.isRunning, "the same tictactoe process recovered")
    }

    func testAdvertisingResumesWhenTheDaemonRestarts() throws {
        let (host, port, name) = try startHost(on: "host-a", name: "Grace's game")
        XCTAssertEqual(Lab.run(["restart-avahi", "host-a"]).0, 0)
        let unavailable = host.waitForEvent("advertising-unavailable", timeout: 10)
        XCTAssertNotNil(unavailable, "\(host.output)")
        XCTAssertNotNil(host.waitForEvent("advertised", from: (unavailable?.index ?? 0) + 1, timeout: 15),
                        "\(host.output)")
        let fields = try XCTUnwrap(avahiBrowseResolved(on: "host-b", name: name), "not visible again")
        XCTAssertEqual(fields[8], String(port))
    }

    func testWithoutADaemonBrowseExitsWithCode10AndHostStillServesByAddress() throws {
        XCTAssertEqual(Lab.run(["stop-avahi", "host-c"]).0, 0)
        let json = try tictactoe(on: "host-c", ["browse", "--json"])
        XCTAssertEqual(json.waitForExit(timeout: 20), 10, json.standardError)
        let error = try XCTUnwrap(json.events(named: "error").last, "\(json.output)")
        XCTAssertEqual(error["message"] as? String,
                       "Bonjour is unavailable: is avahi-daemon running? (sudo systemctl start avahi-daemon)")
        XCTAssertEqual(error["exit"] as? Int, 10)

        let text = try tictactoe(on: "host-c", ["browse"])
        XCTAssertEqual(text.waitForExit(timeout: 20), 10)
        XCTAssertTrue(text.standardError.contains("Bonjour is unavailable: is avahi-daemon running?"),
                      text.standardError)

        // No system bus at all: the same answer.
        let noBus = track(try LabProcess(on: "host-c", [
            "env", "DBUS_SYSTEM_BUS_ADDRESS=unix:path=/run/tictactoe-\(Lab.name)/none", tictactoeBinary, "browse", "--json",
        ]))
        XCTAssertEqual(noBus.waitForExit(timeout: 20), 10, noBus.standardError)

        // A host without a daemon says it is not advertised, and still hosts: join by address works.
        let host = try tictactoe(on: "host-c", ["host", "--headless", "--json", "--name", "Heidi", "--port", "0"])
        let port = try XCTUnwrap(host.waitForEvent("listening")?.event["port"] as? Int, host.standardError)
        XCTAssertNotNil(host.waitForEvent("advertising-unavailable"), "\(host.output)")
        let address = "\(Lab.address(of: "host-c")):\(port)"
        let joiner = try tictactoe(on: "host-b", ["join", address, "--headless", "--json"])
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)

        // join NAME needs Bonjour: exit 10 too.
        let byName = try tictactoe(on: "host-c", ["join", "Anyone", "--headless", "--json"])
        XCTAssertEqual(byName.waitForExit(timeout: 20), 10, byName.standardError)
    }

    func testNoAdvertiseNeverTalksToAvahi() throws {
        let bus = Lab.bus(of: "host-a")
        let monitor = track(try LabProcess(on: "host-a", ["dbus-monitor", "--address", bus,
                                                          "type='method_call',destination='org.freedesktop.Avahi'"]))
        XCTAssertNotNil(monitor.waitForLine(timeout: 10) { $0.contains("NameAcquired") || $0.contains("signal") },
                        "dbus-monitor did not start: \(monitor.standardError)")
        let quiet = try tictactoe(on: "host-a", ["host", "--headless", "--json", "--no-advertise", "--port", "0",
                                                  "--name", "Ivan"])
        let port = try XCTUnwrap(quiet.waitForEvent("listening")?.event["port"] as? Int)
        let joiner = try tictactoe(on: "host-b", ["join", "\(Lab.address(of: "host-a")):\(port)", "--headless"])
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, joiner.standardError)
        XCTAssertEqual(quiet.waitForExit(timeout: 30), 0)
        XCTAssertTrue(quiet.events(named: "advertised").isEmpty)
        usleep(300_000)
        XCTAssertFalse(monitor.output.contains { $0.contains("method call") }, "calls to Avahi: \(monitor.output)")
        // The monitor does see a host that advertises (so the silence above means something).
        _ = try startHost(on: "host-a", name: "Judy")
        XCTAssertNotNil(monitor.waitForLine(timeout: 10) { $0.contains("method call") }, "\(monitor.output)")
    }
}
