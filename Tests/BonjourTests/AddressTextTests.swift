@testable import Bonjour
import XCTest

/// The text of the A and AAAA records a resolution collects.
final class AddressTextTests: XCTestCase {
    func testIPv4() {
        XCTAssertEqual(ResolveOperation.addressText(type: 1, data: [192, 0, 2, 10], interface: 0), "192.0.2.10")
    }

    func testIPv6() {
        let data: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]
        XCTAssertEqual(ResolveOperation.addressText(type: 28, data: data, interface: 0), "2001:db8::1")
    }

    func testLinkLocalIPv6NeedsItsInterface() {
        let data: [UInt8] = [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [1]
        XCTAssertNil(ResolveOperation.addressText(type: 28, data: data, interface: 0))
        XCTAssertEqual(ResolveOperation.addressText(type: 28, data: data, interface: 1), "fe80::1%lo")
    }

    func testWrongLengthIsNoAddress() {
        XCTAssertNil(ResolveOperation.addressText(type: 1, data: [192, 0, 2], interface: 0))
    }
}
