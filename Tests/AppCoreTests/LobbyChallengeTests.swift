import AppCore
import GameProtocol
import Lobby
import XCTest

/// A challenge's address, from unauthenticated multicast, is joined only when it is the challenger's own source
/// address, a host on the LAN, and not this machine.
final class LobbyChallengeTests: XCTestCase {
    private let carol = LobbyRoster.Member(
        id: .init(3), name: "carol", hosting: .open, port: 40001, protocolVersion: 2, address: "198.18.0.13",
        addresses: ["198.18.0.13", "fe80::ff:fe00:d%lab0"], lastSeen: .zero)
    private let here = ["198.18.0.12", "fe80::ff:fe00:c%lab0"]

    private func problem(_ address: String, _ challenger: LobbyRoster.Member?) -> String? {
        LobbyChallenge.problem(joining: address, challenger: challenger, localAddresses: here)
    }

    func testTheChallengersOwnAddressesAreJoined() {
        XCTAssertNil(problem("198.18.0.13", carol))
        XCTAssertNil(problem("fe80::ff:fe00:d%lab0", carol))
    }

    func testEveryOtherAddressIsRefusedWithTheReason() {
        XCTAssertEqual(problem("198.18.0.13", nil), "it has not announced itself")
        XCTAssertEqual(problem("198.18.0.99", carol), "its address 198.18.0.99 is not the one its messages come from")
        XCTAssertEqual(problem("93.184.216.34", carol), "its address 93.184.216.34 is not the one its messages come from")
        var lying = carol
        lying.addresses = ["127.0.0.1", "224.0.0.251", "198.18.0.12", "fe80::ff:fe00:c%lab0"]
        XCTAssertEqual(problem("127.0.0.1", lying),
                       "its address 127.0.0.1 is not a host on the LAN (loopback, unspecified, multicast or broadcast)")
        XCTAssertEqual(problem("224.0.0.251", lying),
                       "its address 224.0.0.251 is not a host on the LAN (loopback, unspecified, multicast or broadcast)")
        XCTAssertEqual(problem("198.18.0.12", lying), "its address 198.18.0.12 is this machine's own")
        XCTAssertEqual(problem("fe80::ff:fe00:c%lab0", lying), "its address fe80::ff:fe00:c%lab0 is this machine's own")
    }
}
