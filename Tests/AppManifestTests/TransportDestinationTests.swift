import Foundation
import XCTest

@testable import AppManifest

/// How App Transport Security sees where a game connection goes.
final class TransportDestinationTests: XCTestCase {
    func testEveryKindOfHost() {
        let cases: [(String, TransportDestination.Kind, String)] = [
            ("127.0.0.1", .loopback, "loopback"),
            ("127.1", .loopback, "loopback"),
            ("::1", .loopback, "loopback"),
            ("[::1]", .loopback, "loopback"),
            ("::ffff:127.0.0.2", .loopback, "loopback"),
            ("localhost", .loopback, "loopback"),
            ("LOCALHOST", .loopback, "loopback"),
            ("192.168.1.20", .ipAddress, "an IP address on the local network"),
            ("10.1", .ipAddress, "an IP address on the local network"),  // getaddrinfo's numeric 10.0.0.1
            ("172.20.0.5", .ipAddress, "an IP address on the local network"),
            ("169.254.3.4", .ipAddress, "an IP address on the local network"),
            ("fe80::1%eth0", .ipAddress, "an IP address on the local network"),
            ("[fd00::7]", .ipAddress, "an IP address on the local network"),
            ("::ffff:192.168.0.9", .ipAddress, "an IP address on the local network"),
            ("8.8.8.8", .ipAddress, "an IP address"),
            ("2001:db8::1", .ipAddress, "an IP address"),
            ("gamebox", .unqualifiedName, "an unqualified host name"),
            ("localhost.", .unqualifiedName, "an unqualified host name"),  // may go to the LAN's DNS: not loopback
            ("GameBox.", .unqualifiedName, "an unqualified host name"),
            ("gamebox.local", .localName, "a .local name"),
            ("GameBox.LOCAL.", .localName, "a .local name"),
            ("games.example.com", .domainName, "a DNS name"),
            ("1e100.net", .domainName, "a DNS name"),
            ("local.example.com", .domainName, "a DNS name"),
        ]
        for (host, kind, description) in cases {
            let destination = TransportDestination(host: host)
            XCTAssertEqual(destination.kind, kind, host)
            XCTAssertEqual(destination.kindDescription, description, host)
        }
    }

    func testNamesAreLowercasedWithoutTheTrailingDotAndAddressesParsed() {
        XCTAssertEqual(TransportDestination(host: "Games.Example.COM.").name, "games.example.com")
        XCTAssertEqual(TransportDestination(host: "Games.Example.COM.").host, "Games.Example.COM.")
        XCTAssertNil(TransportDestination(host: "192.168.1.20").name)
        XCTAssertEqual(TransportDestination(host: "192.168.1.20").address?.description, "192.168.1.20")
        XCTAssertEqual(TransportDestination(host: "[fe80::1%eth0]").host, "fe80::1%eth0")
        XCTAssertEqual(TransportDestination(host: "fe80::1%eth0").address?.description, "fe80::1")
        XCTAssertEqual(TransportDestination(host: "::ffff:10.0.0.1").address?.description, "10.0.0.1")
        XCTAssertNil(TransportDestination(host: "games.example.com").address)
    }

    func testAddressRanges() throws {
        let address = try XCTUnwrap(IPAddress(literal: "192.168.7.42"))
        XCTAssertTrue(address.isIn(try XCTUnwrap(IPAddress(literal: "192.168.7.0")), prefixLength: 24))
        XCTAssertTrue(address.isIn(try XCTUnwrap(IPAddress(literal: "192.168.0.0")), prefixLength: 16))
        XCTAssertTrue(address.isIn(try XCTUnwrap(IPAddress(literal: "192.168.7.42")), prefixLength: 32))
        XCTAssertTrue(address.isIn(try XCTUnwrap(IPAddress(literal: "0.0.0.0")), prefixLength: 0))
        XCTAssertFalse(address.isIn(try XCTUnwrap(IPAddress(literal: "192.168.6.0")), prefixLength: 24))
        XCTAssertFalse(address.isIn(try XCTUnwrap(IPAddress(literal: "192.168.7.43")), prefixLength: 32))
        XCTAssertFalse(address.isIn(try XCTUnwrap(IPAddress(literal: "::")), prefixLength: 0), "another family")
        let v6 = try XCTUnwrap(IPAddress(literal: "2001:db8:12:ff::9"))
        XCTAssertTrue(v6.isIn(try XCTUnwrap(IPAddress(literal: "2001:db8:12::")), prefixLength: 48))
        XCTAssertFalse(v6.isIn(try XCTUnwrap(IPAddress(literal: "2001:db8:13::")), prefixLength: 48))
        XCTAssertTrue(v6.isIn(try XCTUnwrap(IPAddress(literal: "2001:db8::")), prefixLength: 33))
        XCTAssertNil(IPAddress(literal: "games.example.com"))
        XCTAssertNil(IPAddress(literal: "300.1.1.1"))
        XCTAssertNil(IPAddress(literal: "fe80::zz"))
    }

    /// App Transport Security, like the whole manifest module, is pure: no file of it imports NIO.
    func testTheManifestFilesImportNoNIO() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/AppManifest")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        XCTAssertTrue(files.contains("AppTransportSecurity.swift"), "\(folder.path): \(files)")
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }
            XCTAssertFalse(imports.contains { $0.contains("NIO") }, "\(file): \(imports)")
        }
    }
}
