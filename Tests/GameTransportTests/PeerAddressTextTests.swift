import NIOCore
import XCTest

@testable import GameTransport

/// How a peer's address reads in events and on screens.
final class PeerAddressTextTests: XCTestCase {
    func testAnIPv4PeerOfADualStackListenerShowsAsIPv4() throws {
        XCTAssertEqual(describe(try SocketAddress(ipAddress: "::ffff:198.18.0.11", port: 49932)), "198.18.0.11:49932")
        XCTAssertEqual(describe(try SocketAddress(ipAddress: "198.18.0.11", port: 7878)), "198.18.0.11:7878")
        XCTAssertEqual(describe(try SocketAddress(ipAddress: "2001:db8::7", port: 7878)), "[2001:db8::7]:7878")
    }
}
