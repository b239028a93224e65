import Foundation
import XCTest
import TicTacToeTestSupport

/// Measures discovery latency in the lab and prints it (figures for the notes; nothing is asserted about speed).
final class LatencyLabTests: LabTestCase {
    static let trials = 5

    func testPrintDiscoveryLatency() throws {
        var ours: [(fromStart: Double, fromRegistered: Double)] = []
        var avahi: [(fromStart: Double, fromRegistered: Double)] = []
        for trial in 1...Self.trials {
            // tictactoe host on host-a -> tictactoe browse --watch on host-b.
            let watch = try tictactoe(on: "host-b", ["browse", "--watch", "--json", "--timeout", "60"])
            let ready = try XCTUnwrap(watch.waitForEvent("bonjour-available"))
            let name = "latency \(trial)"
            let host = try tictactoe(on: "host-a", ["host", "--headless", "--json", "--name", name, "--port", "0"])
            let listening = try XCTUnwrap(host.waitForEvent("listening"))  // advertise(port:) is called right then
            let registered = try XCTUnwrap(host.waitForEvent("advertised"))
            let seen = try XCTUnwrap(watch.waitForGames(from: ready.index + 1) { names($0).contains(name) })
            ours.append((seen.time.milliseconds(since: listening.time), seen.time.milliseconds(since: registered.time)))
            host.terminate()
            watch.terminate()

            // avahi-publish on host-a -> avahi-browse on host-b, in the same run.
            let browser = track(try LabProcess(on: "host-b", ["avahi-browse", "-p", "_tictactoe._tcp"]))
            usleep(500_000)  // avahi-browse prints nothing until it finds something
            let avahiName = "avahi latency \(trial)"
            let publisher = track(try LabProcess(on: "host-a", ["avahi-publish", "-s", avahiName, "_tictactoe._tcp",
                                                                "7000", "proto=2", "sec=open"]))
            let established = try XCTUnwrap(publisher.waitForErrorLine { $0.hasPrefix("Established") })
            let found = try XCTUnwrap(browser.waitForLine {
                $0.hasPrefix("+;") && avahiUnescape($0).contains(avahiName)
            })
            avahi.append((found.time.milliseconds(since: publisher.started),
                          found.time.milliseconds(since: established.time)))
            publisher.terminate()
            browser.terminate()
        }
        func median(_ values: [Double]) -> Int {
            let sorted = values.sorted()
            return Int(sorted[sorted.count / 2].rounded())
        }
        let oursStart = median(ours.map { $0.fromStart }), oursRegistered = median(ours.map { $0.fromRegistered })
        let avahiStart = median(avahi.map { $0.fromStart }), avahiRegistered = median(avahi.map { $0.fromRegistered })
        let report = """
            LATENCY discovery in the LAN lab, median of \(Self.trials) (host-a advertises, host-b browses):
            LATENCY   tictactoe host -> tictactoe browse --watch: \(oursStart) ms from advertise() \
            (\(oursRegistered) ms after 'advertised'); all: \(ours.map { Int($0.fromStart) })
            LATENCY   avahi-publish -> avahi-browse: \(avahiStart) ms from process start \
            (\(avahiRegistered) ms after 'Established'); all: \(avahi.map { Int($0.fromStart) })
            """
        print(report)

        // Idle CPU of a browse with games listed: it sleeps in poll() between dns_sd events.
        _ = try startHost(on: "host-a", name: "idle check")
        let watch = try tictactoe(on: "host-b", ["browse", "--watch", "--json", "--timeout", "60"])
        XCTAssertNotNil(watch.waitForGames { names($0).contains("idle check") })
        let before = cpuTicks(of: watch.process.processIdentifier)
        sleep(5)
        let after = cpuTicks(of: watch.process.processIdentifier)
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        print("LATENCY idle browse --watch: \(Int((after - before) / ticksPerSecond * 1000)) ms of CPU in 5 s")
    }

    /// utime + stime of a process, in clock ticks (/proc/PID/stat fields 14 and 15).
    private func cpuTicks(of pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After "pid (comm)": state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return user + system
    }
}
