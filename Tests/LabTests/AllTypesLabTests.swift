import Foundation
import XCTest
import TicTacToeTestSupport

/// `tictactoe browse --all-types` against `avahi-browse -a` on the same lab host: services of several types
/// published with avahi-publish on other hosts (real peers nobody here wrote) and on the host itself, and the
/// service types both list.
final class AllTypesLabTests: LabTestCase {
    /// `avahi-publish -s NAME TYPE PORT` on a lab host, until Avahi says it is established.
    private func publishService(on host: String, name: String, type: String, port: Int) throws {
        let process = track(try LabProcess(on: host, ["avahi-publish", "-s", name, type, "\(port)"]))
        guard process.waitForErrorLine(timeout: 15, { $0.hasPrefix("Established under name") }) != nil else {
            XCTFail("avahi-publish '\(name)' \(type) on \(host) was not established: \(process.standardError)")
            throw Lab.LabError.failed("publish")
        }
    }

    /// The service types in `avahi-browse -atpk` on `host` (parsable, terminating, no type database lookup: the
    /// types as announced): the fifth field of each `+` line; and the lines themselves.
    private func avahiBrowseTypes(on host: String) -> (Set<String>, [String]) {
        let (_, output) = Lab.run(["exec", host, "--", "timeout", "15", "avahi-browse", "-atpk"])
        let lines = output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("+;") }
        let types = lines.compactMap { line -> String? in
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            return fields.count >= 6 ? String(fields[4]) : nil
        }
        return (Set(types), lines)
    }

    func testAllTypesListsWhatAvahiBrowseAllShowsOnTheSameHost() throws {
        try publishService(on: "host-a", name: "Lab web", type: "_http._tcp", port: 8080)
        try publishService(on: "host-a", name: "Lab printer", type: "_ipp._tcp", port: 631)
        try publishService(on: "host-c", name: "Lab shell", type: "_sftp-ssh._tcp", port: 22)
        _ = try publish(on: "host-c", name: "Lab game")
        try publishService(on: "host-b", name: "Own printer", type: "_printer._tcp", port: 515)  // the host's own

        let process = try tictactoe(on: "host-b", ["browse", "--all-types", "--json", "--timeout", "3"])
        XCTAssertEqual(process.waitForExit(timeout: 30), 0, process.standardError)
        let counted = process.events(named: "service-types")
        let listed = process.events(named: "service-type")
        let ours = listed.compactMap { $0["type"] as? String }
        XCTAssertEqual(counted.first?["count"] as? Int, ours.count, "\(process.output)")
        XCTAssertEqual(ours, ours.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }, "sorted")
        XCTAssertTrue(listed.allSatisfy { $0["domain"] as? String == "local." }, "\(listed)")
        XCTAssertEqual(process.standardError, "")

        let (avahiTypes, avahiLines) = avahiBrowseTypes(on: "host-b")
        print("LAB-EVIDENCE tictactoe browse --all-types --json on host-b:\n" + process.output.joined(separator: "\n"))
        print("LAB-EVIDENCE avahi-browse -atpk on host-b:\n" + avahiLines.joined(separator: "\n"))
        XCTAssertTrue(Set(["_http._tcp", "_ipp._tcp", "_printer._tcp", "_sftp-ssh._tcp", "_tictactoe._tcp"]).isSubset(of: Set(ours)),
                      "\(ours)")
        XCTAssertEqual(Set(ours), avahiTypes, "tictactoe: \(ours); avahi-browse -a: \(avahiLines)")
        XCTAssertEqual(ours.count, Set(ours).count, "each type once, whichever hosts announce it")

        // The text form: a header, then the same types one a line.
        let text = try tictactoe(on: "host-b", ["browse", "--all-types", "--timeout", "3"])
        XCTAssertEqual(text.waitForExit(timeout: 30), 0, text.standardError)
        print("LAB-EVIDENCE tictactoe browse --all-types on host-b:\n" + text.output.joined(separator: "\n"))
        XCTAssertEqual(text.output.first, "\(avahiTypes.count) service types on the local network:", "\(text.output)")
        XCTAssertEqual(Set(text.output.dropFirst()), avahiTypes, "\(text.output)")
    }

    /// A type goes when its last service does: Avahi's goodbye takes its enumeration record away.
    func testATypeWithdrawnIsNoLongerListed() throws {
        try publishService(on: "host-a", name: "Lab web", type: "_http._tcp", port: 8080)
        let gone = track(try LabProcess(on: "host-c", ["avahi-publish", "-s", "Short-lived", "_daap._tcp", "3689"]))
        XCTAssertNotNil(gone.waitForErrorLine(timeout: 15, { $0.hasPrefix("Established under name") }))
        let before = try tictactoe(on: "host-b", ["browse", "--all-types", "--json", "--timeout", "3"])
        XCTAssertEqual(before.waitForExit(timeout: 30), 0, before.standardError)
        let typesBefore = before.events(named: "service-type").compactMap { $0["type"] as? String }
        XCTAssertTrue(typesBefore.contains("_daap._tcp") && typesBefore.contains("_http._tcp"), "\(typesBefore)")
        gone.signal(SIGTERM)  // avahi-publish withdraws: its daemon sends goodbye packets
        XCTAssertNotNil(gone.waitForExit(timeout: 15))
        let after = try tictactoe(on: "host-b", ["browse", "--all-types", "--json", "--timeout", "3"])
        XCTAssertEqual(after.waitForExit(timeout: 30), 0, after.standardError)
        let typesAfter = after.events(named: "service-type").compactMap { $0["type"] as? String }
        XCTAssertFalse(typesAfter.contains("_daap._tcp"), "\(typesAfter)")
        XCTAssertTrue(typesAfter.contains("_http._tcp"), "\(typesAfter)")
    }
}
