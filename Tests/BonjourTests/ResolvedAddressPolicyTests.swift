@testable import Bonjour
import GameProtocol
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Which addresses a game's Bonjour record may send `join NAME` to.
final class ResolvedAddressPolicyTests: XCTestCase {
    func testAddressScopes() {
        let table: [(String, AddressScope)] = [
            // One host: LAN, public, link-local, this machine's own LAN address.
            ("198.18.0.11", .unicast), ("192.168.1.20", .unicast), ("10.0.0.1", .unicast), ("8.8.8.8", .unicast),
            ("169.254.3.4", .unicast), ("1.0.0.0", .unicast), ("223.255.255.255", .unicast),
            ("240.0.0.1", .unicast), ("255.255.255.254", .unicast),
            ("2001:db8::1", .unicast), ("fe80::1", .unicast), ("fe80::1%lab0", .unicast), ("fd00::5", .unicast),
            ("::2", .unicast), ("::ffff:198.18.0.11", .unicast),
            // This machine itself.
            ("127.0.0.1", .loopback), ("127.0.0.0", .loopback), ("127.1.2.3", .loopback),
            ("127.255.255.255", .loopback), ("::1", .loopback), ("0:0:0:0:0:0:0:1", .loopback),
            ("::ffff:127.0.0.1", .loopback),
            // No host.
            ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified),
            ("::ffff:0.0.0.0", .unspecified),
            // Groups and everyone.
            ("224.0.0.1", .multicast), ("224.0.0.251", .multicast), ("239.255.255.250", .multicast),
            ("ff02::1", .multicast), ("ff02::fb", .multicast), ("ff05::1:3", .multicast),
            ("::ffff:224.0.0.1", .multicast),
            ("255.255.255.255", .broadcast),
        ]
        for (address, expected) in table {
            XCTAssertEqual(AddressScope(address: address), expected, address)
        }
        for notAnAddress in ["", "localhost", "host-a.local", "256.1.1.1", "1.2.3", "::g", "[::1]", "127.0.0.1:22"] {
            XCTAssertNil(AddressScope(address: notAnAddress), notAnAddress)
        }
        XCTAssertNil(AddressScope(bytes: [127, 0, 0]))
        XCTAssertEqual(AddressScope(bytes: [127, 0, 0, 1]), .loopback)
        XCTAssertEqual(AddressScope(bytes: [UInt8](repeating: 0, count: 15) + [1]), .loopback)
    }

    func testTheRecordsAddressesThatARefused() throws {
        let onLoopback: (UInt32) -> Bool = { $0 == 1 }
        func refusal(_ address: String, interface: UInt32 = 2) -> AddressScope? {
            var bytes = [UInt8](repeating: 0, count: 16)
            let isIPv4 = !address.contains(":")
            XCTAssertEqual(inet_pton(isIPv4 ? AF_INET : AF_INET6, address, &bytes), 1, address)
            return ResolvedAddressPolicy.refusal(
                address: address, bytes: Array(bytes.prefix(isIPv4 ? 4 : 16)), interfaceIndex: interface,
                isLoopbackInterface: onLoopback)?.scope
        }
        // Arrived on the LAN interface (index 2).
        XCTAssertNil(refusal("198.18.0.11"))
        XCTAssertNil(refusal("2001:db8::7"))
        XCTAssertEqual(refusal("127.0.0.1"), .loopback)
        XCTAssertEqual(refusal("::1"), .loopback)
        XCTAssertEqual(refusal("::ffff:127.0.0.1"), .loopback)
        XCTAssertEqual(refusal("0.0.0.0"), .unspecified)
        XCTAssertEqual(refusal("::"), .unspecified)
        XCTAssertEqual(refusal("224.0.0.1"), .multicast)
        XCTAssertEqual(refusal("ff02::1"), .multicast)
        XCTAssertEqual(refusal("255.255.255.255"), .broadcast)
        // Arrived on this machine's loopback interface: only this machine can have published it.
        XCTAssertNil(refusal("127.0.0.1", interface: 1))
        XCTAssertNil(refusal("::1", interface: 1))
        // ... which makes loopback acceptable, but never a non-host.
        XCTAssertEqual(refusal("0.0.0.0", interface: 1), .unspecified)
        XCTAssertEqual(refusal("224.0.0.1", interface: 1), .multicast)
        // No interface given: not shown to be local.
        XCTAssertEqual(refusal("127.0.0.1", interface: 0), .loopback)
    }

    func testThisMachinesLoopbackInterfaceIsFoundByIndex() {
        let lo = if_nametoindex("lo")
        XCTAssertNotEqual(lo, 0, "no lo interface here")
        XCTAssertTrue(LocalInterfaces.isLoopback(index: lo))
        XCTAssertFalse(LocalInterfaces.isLoopback(index: 0))
        XCTAssertFalse(LocalInterfaces.isLoopback(index: UInt32(Int32.max)))
    }

    private func game(endpoints: [String], refused: [RefusedAddress]) -> ResolvedGame {
        ResolvedGame(
            name: "Mallory's game", hostTarget: "evil.local.", port: 22, txt: GameService.txtRecord(security: .open),
            endpoints: endpoints.map { Endpoint(host: $0, port: 22) }, refusedAddresses: refused)
    }

    func testARecordNamingOnlyRefusedAddressesIsAnErrorSayingWhichWhyAndWhatToDo() {
        let loopback = game(endpoints: [], refused: [RefusedAddress(address: "127.0.0.1", scope: .loopback)])
        XCTAssertThrowsError(try loopback.endpointsToJoin()) { error in
            XCTAssertEqual(
                error as? ConnectionError,
                .badAddress(
                    "refusing to join 'Mallory's game': its Bonjour record names only 127.0.0.1 (loopback: this "
                        + "machine itself, not a host on the LAN); nothing was connected to. If you do mean this "
                        + "machine, join it by address: tictactoe join 127.0.0.1:22"))
        }
        let ipv6 = game(endpoints: [], refused: [RefusedAddress(address: "::1", scope: .loopback)])
        XCTAssertThrowsError(try ipv6.endpointsToJoin()) { error in
            XCTAssertTrue("\(error)".hasSuffix("tictactoe join [::1]:22"), "\(error)")
        }
        let nobody = game(
            endpoints: [],
            refused: [RefusedAddress(address: "0.0.0.0", scope: .unspecified),
                      RefusedAddress(address: "224.0.0.1", scope: .multicast)])
        XCTAssertThrowsError(try nobody.endpointsToJoin()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("bad address: refusing to join 'Mallory's game'"), text)
            XCTAssertTrue(
                text.contains("0.0.0.0 (unspecified: no host at all; it would connect to this machine), "), text)
            XCTAssertTrue(text.contains("224.0.0.1 (multicast: a group, not a host)"), text)
            XCTAssertTrue(text.hasSuffix("Check the host that advertises it"), text)
        }
    }

    func testRefusedAddressesNextToUsableOnesAreSkippedWithAWarning() throws {
        let mixed = game(endpoints: ["198.18.0.11"], refused: [RefusedAddress(address: "127.0.0.1", scope: .loopback)])
        var warnings: [String] = []
        XCTAssertEqual(try mixed.endpointsToJoin { warnings.append($0) }, [Endpoint(host: "198.18.0.11", port: 22)])
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("skipping 127.0.0.1 (loopback") == true, "\(warnings)")

        let clean = game(endpoints: ["198.18.0.11"], refused: [])
        XCTAssertEqual(try clean.endpointsToJoin { XCTFail("warned: \($0)") }, clean.endpoints)
    }
}
