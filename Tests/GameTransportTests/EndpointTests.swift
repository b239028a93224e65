import GameProtocol
import GameTransport
import LocalNetworkPrivacy
import XCTest
import TicTacToeTestSupport

final class EndpointTests: XCTestCase {
    private func assertParses(
        _ text: String,
        host: String,
        port: Int,
        defaultPort: Int = Endpoint.defaultPort,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(
            try Endpoint(parsing: text, defaultPort: defaultPort), Endpoint(host: host, port: port),
            file: file, line: line
        )
    }

    private func assertRejects(_ text: String, _ why: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Endpoint(parsing: text), file: file, line: line) { error in
            XCTAssertEqual(error as? AddressError, AddressError(why), file: file, line: line)
        }
    }

    func testDefaultPort() {
        XCTAssertEqual(Endpoint.defaultPort, 7878)
    }

    func testHostAlone() {
        assertParses("127.0.0.1", host: "127.0.0.1", port: 7878)
        assertParses("game-host.local", host: "game-host.local", port: 7878)
        assertParses("localhost", host: "localhost", port: 9000, defaultPort: 9000)
    }

    func testHostAndPort() {
        assertParses("127.0.0.1:9000", host: "127.0.0.1", port: 9000)
        assertParses("game-host.local:1", host: "game-host.local", port: 1)
        assertParses("localhost:65535", host: "localhost", port: 65535)
    }

    func testBracketedIPv6WithPort() {
        assertParses("[::1]:9000", host: "::1", port: 9000)
        assertParses("[fe80::1%eth0]:7879", host: "fe80::1%eth0", port: 7879)
    }

    func testBracketedIPv6WithoutPort() {
        assertParses("[::1]", host: "::1", port: 7878)
    }

    func testBareIPv6() {
        assertParses("::1", host: "::1", port: 7878)
        assertParses("fe80::1", host: "fe80::1", port: 7878)
        assertParses("2001:db8::42", host: "2001:db8::42", port: 7878)
    }

    func testBadPorts() {
        assertRejects("host:0", "'0' is not a port number (1-65535)")
        assertRejects("host:65536", "'65536' is not a port number (1-65535)")
        assertRejects("host:http", "'http' is not a port number (1-65535)")
        assertRejects("host:-1", "'-1' is not a port number (1-65535)")
        assertRejects("host:", "'' is not a port number (1-65535)")
        assertRejects("[::1]:", "'' is not a port number (1-65535)")
        assertRejects("[::1]:99999", "'99999' is not a port number (1-65535)")
    }

    func testMalformedAddresses() {
        assertRejects("", "empty address")
        assertRejects(":9000", "no host in ':9000'")
        assertRejects("[::1", "'[::1' has no closing ']'")
        assertRejects("[::1]9000", "unexpected '9000' after ']' in '[::1]9000'")
    }

    func testDescriptionBracketsIPv6() {
        XCTAssertEqual(Endpoint(host: "127.0.0.1", port: 7878).description, "127.0.0.1:7878")
        XCTAssertEqual(Endpoint(host: "::1", port: 9000).description, "[::1]:9000")
        XCTAssertEqual(try Endpoint(parsing: "::1").description, "[::1]:7878")
    }
}
