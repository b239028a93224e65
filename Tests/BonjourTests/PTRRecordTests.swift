@testable import Bonjour
import XCTest

/// The record data of a `_services._dns-sd._udp.local` PTR answer, as `DNSServiceQueryRecord` hands it over: a DNS
/// name in wire format (length-prefixed labels, uncompressed). Malformed data is refused, never read past its end.
final class PTRRecordTests: XCTestCase {
    /// `labels` as wire bytes: each label's length, then its bytes; the root label (0) at the end.
    private func wire(_ labels: [String], root: Bool = true) -> [UInt8] {
        labels.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) } + (root ? [0] : [])
    }

    func testAServiceTypeNameIsReadAsTypeAndDomain() throws {
        let type = try XCTUnwrap(PTRRecord.serviceType(wire(["_http", "_tcp", "local"])))
        XCTAssertEqual(type.name, "_http._tcp")
        XCTAssertEqual(type.domain, "local.")
        XCTAssertEqual(type.fullName, "_http._tcp.local.")
        XCTAssertEqual(PTRRecord.serviceType(wire(["_sftp-ssh", "_tcp", "local"]))?.fullName, "_sftp-ssh._tcp.local.")
        XCTAssertEqual(PTRRecord.serviceType(wire(["_tictactoe", "_tcp", "local"]))?.name, "_tictactoe._tcp")
        XCTAssertEqual(PTRRecord.serviceType(wire(["_ipp", "_udp", "example", "com"]))?.domain, "example.com.")
    }

    func testLabelsAreReadExactly() {
        XCTAssertEqual(PTRRecord.labels([0])?.count, 0, "the root alone")
        XCTAssertEqual(PTRRecord.labels(wire(["a", "bc"]))?.map { String(decoding: $0, as: UTF8.self) }, ["a", "bc"])
        let longest = String(repeating: "x", count: 63)
        XCTAssertEqual(PTRRecord.labels(wire([longest, "local"]))?.first?.count, 63)
    }

    func testMalformedDataIsRefusedSafely() {
        let malformed: [(String, [UInt8])] = [
            ("empty", []),
            ("no root label", wire(["_http", "_tcp", "local"], root: false)),
            ("a length past the end", [5, 0x5f, 0x68]),
            ("a length past the end by one", [4, 0x5f, 0x68, 0x74, 0x74 /* no room for the root */]),
            ("a length of 255", [255] + Array(repeating: 0x61, count: 10) + [0]),
            ("a label of 64 bytes", wire([String(repeating: "x", count: 64), "local"])),
            ("a compression pointer", [5] + Array("_http".utf8) + [0xc0, 0x0c]),
            ("the extended label type", [0x40, 0x00]),
            ("bytes after the root", wire(["_http", "_tcp", "local"]) + [4]),
            ("more than 255 bytes", (0..<5).flatMap { _ in [60] + Array(repeating: 0x61, count: 60) } + [0]),
        ]
        for (what, data) in malformed {
            XCTAssertNil(PTRRecord.labels(data), what)
            XCTAssertNil(PTRRecord.serviceType(data), what)
        }
    }

    func testNamesThatAreNoServiceTypeAreRefused() {
        XCTAssertNil(PTRRecord.serviceType(wire(["local"])), "one label")
        XCTAssertNil(PTRRecord.serviceType(wire(["_http", "local"])), "two labels: no domain")
        XCTAssertNil(PTRRecord.serviceType([5] + Array("_http".utf8) + [0] + [0]), "an empty label inside")
        XCTAssertNil(PTRRecord.serviceType([2, 0xff, 0xfe, 4] + Array("_tcp".utf8) + [5] + Array("local".utf8) + [0]),
                     "not UTF-8")
    }

    func testDotsBackslashesAndControlsInALabelAreEscaped() {
        XCTAssertEqual(PTRRecord.serviceType(wire(["_a.b", "_tcp", "local"]))?.name, #"_a\.b._tcp"#)
        XCTAssertEqual(PTRRecord.serviceType(wire([#"_a\b"#, "_tcp", "local"]))?.name, #"_a\\b._tcp"#)
        XCTAssertEqual(PTRRecord.serviceType(wire(["_a\u{1b}[2J", "_tcp", "local"]))?.name, #"_a\027[2J._tcp"#)
        XCTAssertEqual(PTRRecord.serviceType(wire(["_café", "_tcp", "local"]))?.name, "_café._tcp", "UTF-8 kept")
    }

    func testTypesSortByNameWithoutCaseFirst() {
        let types = ["_ssh._tcp", "_HTTP._tcp", "_http._tcp", "_afpovertcp._tcp"].map { ServiceType(name: $0) }
        XCTAssertEqual(types.sorted().map(\.name), ["_afpovertcp._tcp", "_HTTP._tcp", "_http._tcp", "_ssh._tcp"])
    }
}
