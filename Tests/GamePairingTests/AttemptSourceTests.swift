import GamePairing
import XCTest

final class AttemptSourceTests: XCTestCase {
    func testTextAndBytesGiveTheSameSource() throws {
        let v4 = try XCTUnwrap(AttemptSource(ipAddress: "192.0.2.7"))
        XCTAssertEqual(v4, AttemptSource(ipv4: (192, 0, 2, 7)))
        XCTAssertTrue(v4.isIPv4)
        XCTAssertEqual(v4.description, "192.0.2.7")
        let v6 = try XCTUnwrap(AttemptSource(ipAddress: "2001:db8::7"))
        XCTAssertEqual(v6, AttemptSource(ipv6: [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [7]))
        XCTAssertFalse(v6.isIPv4)
        XCTAssertEqual(v6.description, "2001:db8::7")
    }

    func testAnIPv4MappedAddressIsTheIPv4Address() throws {
        let mapped = try XCTUnwrap(AttemptSource(ipAddress: "::ffff:192.0.2.7"))
        XCTAssertEqual(mapped, AttemptSource(ipAddress: "192.0.2.7"))
        XCTAssertEqual(mapped.description, "192.0.2.7")
        XCTAssertEqual(AttemptSource(ipv6: [UInt8](repeating: 0, count: 10) + [0xff, 0xff, 192, 0, 2, 7]), mapped)
        // IPv4-compatible (::192.0.2.7) and other embeddings are not the IPv4 address.
        XCTAssertNotEqual(AttemptSource(ipAddress: "::192.0.2.7"), mapped)
    }

    func testTheScopeIsIgnored() throws {
        let scoped = try XCTUnwrap(AttemptSource(ipAddress: "fe80::1%eth0"))
        XCTAssertEqual(scoped, AttemptSource(ipAddress: "fe80::1%2"))
        XCTAssertEqual(scoped, AttemptSource(ipAddress: "fe80::1"))
        XCTAssertEqual(scoped.description, "fe80::1")
    }

    func testAnythingButAnAddressLiteralIsRefused() {
        for text in ["", "localhost", "192.0.2", "192.0.2.7:80", "[::1]", "::g", "%eth0", "1.2.3.4.5"] {
            XCTAssertNil(AttemptSource(ipAddress: text), text)
        }
        XCTAssertNil(AttemptSource(ipv6: [UInt8](repeating: 0, count: 15)))
    }
}
