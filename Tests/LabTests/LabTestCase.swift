import Foundation
import XCTest
import TicTacToeTestSupport

/// A test class in the LAN lab: the lab is brought up for the first class (again only for a class that needs another
/// mode or interface names), and torn down when the test run ends; each test's processes are killed after it, and
/// after a test that failed its hosts' daemons start again, with empty caches. Without root the tests are skipped
/// with the reason (a failure when CI=true).
class LabTestCase: ProcessTestCase {
    /// The test's tmux server and the TUIs in it, stopped after the test.
    var tmux: LabTmux?
    var tuis: [LabTUI] = []
    /// Files and directories the test made (decision directories, traces), removed after it.
    var scratchPaths: [String] = []

    /// The lab this class runs in; a subclass overrides these for another mode or fewer hosts.
    class var labMode: Lab.Mode { .ipv4 }
    class var labHosts: [String] { Lab.hosts }
    /// Interface names for some hosts (the others' is `Lab.interface`): real machines' names differ.
    class var labInterfaces: [String: String] { [:] }

    override class func setUp() {
        super.setUp()
        Lab.up(labMode, hosts: labHosts.map { host in labInterfaces[host].map { "\(host)=\($0)" } ?? host })
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Lab.require()
    }

    override func tearDown() {
        for tui in tuis.reversed() { tui.stop() }
        tuis = []
        tmux?.stop()
        tmux = nil
        for process in processes.reversed() { process.terminate() }
        processes = []
        for path in scratchPaths { try? FileManager.default.removeItem(atPath: path) }
        scratchPaths = []
        if (testRun?.totalFailureCount ?? 0) > 0 {
            Lab.restartDaemons(on: Self.labHosts)
        }
        super.tearDown()
    }

    /// `tictactoe ARGS` on a lab host, killed after the test.
    func tictactoe(on host: String, _ arguments: [String], environment: [String: String] = [:]) throws -> LabProcess {
        track(try LabProcess.tictactoe(on: host, arguments, environment: environment))
    }

    /// A headless `tictactoe host` on a lab host, advertising `name`; waits until it is advertised.
    func startHost(
        on host: String, name: String, port: Int = 0, extra: [String] = [], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> (LabProcess, port: Int, registered: String) {
        let arguments = ["host", "--headless", "--json", "--name", name, "--port", "\(port)"] + extra
        let process = try tictactoe(on: host, arguments)
        guard let listening = process.waitForEvent("listening"), let port = listening.event["port"] as? Int else {
            XCTFail("host on \(host) did not listen: \(process.standardError)", file: file, line: line)
            throw Lab.LabError.failed("no host")
        }
        guard let advertised = process.waitForEvent("advertised"), let registered = advertised.event["name"] as? String
        else {
            XCTFail("host on \(host) was not advertised: \(process.output) \(process.standardError)",
                    file: file, line: line)
            throw Lab.LabError.failed("not advertised")
        }
        return (process, port, registered)
    }

    /// `avahi-publish -s NAME _tictactoe._tcp PORT TXT…` on a lab host (a real peer nobody here wrote); waits until
    /// Avahi says it is established. The default TXT is an open game's, as `tictactoe host` advertises it.
    func publish(on host: String, name: String, port: Int = 7000, txt: [String] = ["proto=2", "sec=open"],
                 file: StaticString = #filePath, line: UInt = #line) throws -> LabProcess {
        let process = track(try LabProcess(on: host, ["avahi-publish", "-s", name, "_tictactoe._tcp", "\(port)"] + txt))
        guard process.waitForErrorLine(timeout: 15, { $0.hasPrefix("Established under name") }) != nil else {
            XCTFail("avahi-publish '\(name)' on \(host) was not established: \(process.standardError)",
                    file: file, line: line)
            throw Lab.LabError.failed("publish")
        }
        return process
    }

    /// One-shot `tictactoe browse --json` on a host: the games it printed, and its exit status.
    func browse(on host: String, timeout: Double = 3) throws
        -> (games: [[String: Any]], status: Int32?, process: LabProcess)
    {
        let process = try tictactoe(on: host, ["browse", "--json", "--timeout", "\(timeout)"])
        let status = process.waitForExit(timeout: timeout + 20)
        return (process.events(named: "game"), status, process)
    }

    /// `avahi-browse -rpt _tictactoe._tcp` on a host until a resolved line (`=`) for `name` shows; its fields.
    func avahiBrowseResolved(on host: String, name: String, timeout: TimeInterval = 15) -> [String]? {
        var found: [String]?
        _ = eventually(timeout: timeout, every: 0.3) {
            let (_, output) = Lab.run(["exec", host, "--", "timeout", "10", "avahi-browse", "-rpt", "_tictactoe._tcp"])
            found = output.split(separator: "\n").lazy.filter { $0.hasPrefix("=;") }
                .map { $0.split(separator: ";", omittingEmptySubsequences: false).map(String.init) }
                .first { $0.count >= 10 && avahiUnescape($0[3]) == name }
            return found != nil
        }
        return found
    }
}
