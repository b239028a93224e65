import XCTest

@testable import AppManifest
import TicTacToeTestSupport

final class LoopbackTests: XCTestCase {
    func testLoopbackHosts() {
        for host in [
            "127.0.0.1", "127.255.255.254", "127.1", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1",
            "localhost", "Localhost",
        ] {
            XCTAssertTrue(Loopback.isLoopback(host: host), host)
        }
    }

    func testEverythingElseIsTheLocalNetwork() {
        for host in [
            "198.18.0.1", "192.168.1.2", "10.0.0.1", "0.0.0.0", "::", "", "*", "fe80::1", "::2",
            "::ffff:192.168.1.1", "128.0.0.1", "myhost", "localhost.", "localhost.example.com", "mylocalhost", "2001:db8::1",
        ] {
            XCTAssertFalse(Loopback.isLoopback(host: host), host)
        }
    }
}
