import GameProtocol
import Lobby
import XCTest

/// The lobby's wire format (docs/LOBBY.md): the bytes of each kind, round trips, and every way a datagram from the
/// network is refused.
final class LobbyMessageTests: XCTestCase {
    private let alice = LobbyMessage.MemberID(0x0102_0304_0506_0708)
    private let bob = LobbyMessage.MemberID(0x1112_1314_1516_1718)

    func testTheBytesOfAnAnnouncementAsDocumented() throws {
        let message = LobbyMessage(
            sender: alice, sequence: 0x0A0B_0C0D, name: "alice", body: .announce(hosting: .open, port: 7878, protocolVersion: 2))
        XCTAssertEqual(
            try message.encoded(),
            [0x54, 0x54, 0x54, 0x4C, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 0x0A, 0x0B, 0x0C, 0x0D, 5] + Array("alice".utf8)
                + [1, 0x1E, 0xC6, 2])
    }

    func testEveryKindRoundTrips() throws {
        let bodies: [LobbyMessage.Body] = [
            .announce(hosting: .none, port: 0, protocolVersion: 2),
            .announce(hosting: .private, port: 40000, protocolVersion: 2),
            .greeting("hello from the lab 👋"),
            .challenge(target: bob, port: 7878, address: nil),
            .challenge(target: bob, port: 7878, address: "fe80::1%eth0"),
            .answer(target: bob, accepted: true),
            .answer(target: bob, accepted: false),
            .leave,
        ]
        for body in bodies {
            let message = LobbyMessage(sender: alice, sequence: 7, name: "Zoë", body: body)
            let bytes = try message.encoded()
            XCTAssertLessThanOrEqual(bytes.count, LobbyMessage.maximumSize)
            XCTAssertEqual(try LobbyMessage(decoding: bytes), message, "\(body)")
        }
    }

    func testNamesAndGreetingsThatCouldActOnATerminalAreRefusedBothWays() throws {
        XCTAssertThrowsError(try LobbyMessage(sender: alice, name: "evil\u{1b}[2J", body: .leave).encoded())
        XCTAssertThrowsError(try LobbyMessage(sender: alice, name: "a", body: .greeting("hi \u{202e}there")).encoded())
        XCTAssertThrowsError(try LobbyMessage(sender: alice, name: "a", body: .greeting(String(repeating: "x", count: 141))).encoded())
        var bytes = try LobbyMessage(sender: alice, name: "abcd", body: .leave).encoded()
        bytes[19] = 0x07  // BEL inside the name
        XCTAssertEqual(Self.error(bytes), .badText("name", "this one has a control or bidi character"))
        var greeting = try LobbyMessage(sender: alice, name: "a", body: .greeting("hello")).encoded()
        greeting[greeting.count - 1] = 0x9B  // a lone continuation byte: not UTF-8
        XCTAssertEqual(Self.error(greeting), .badText("greeting", "not UTF-8"))
    }

    func testANameMustBeNFCAndAtMost63Bytes() throws {
        var decomposed = try LobbyMessage(sender: alice, name: "Zoe", body: .leave).encoded()
        // "Zoe" + U+0308 written by hand (decomposed): a sender that does not normalize.
        decomposed.replaceSubrange(18..<22, with: [5] + Array("Zoe".utf8) + [0xCC, 0x88])
        XCTAssertEqual(Self.error(decomposed), .badText("name", "not in NFC"))
        var zero = try LobbyMessage(sender: alice, name: "a", body: .leave).encoded()
        zero.replaceSubrange(18..<20, with: [0])
        XCTAssertEqual(Self.error(zero), .badText("name", "0 bytes"))
    }

    func testMalformedDatagramsSayWhatIsWrong() throws {
        let good = try LobbyMessage(sender: alice, name: "alice", body: .announce(hosting: .open, port: 7878, protocolVersion: 2)).encoded()
        XCTAssertEqual(Self.error(Array("HTTP/1.1".utf8)), .notALobbyMessage)
        XCTAssertEqual(Self.error(Array(good.prefix(5))), .truncated("kind"))
        XCTAssertEqual(Self.error(Array(good.dropLast())), .truncated("announce"))
        XCTAssertEqual(Self.error(good + [0]), .trailingBytes(1))
        XCTAssertEqual(Self.error(Array(repeating: 0, count: 513)), .tooLong(513))
        var version = good
        version[4] = 2
        XCTAssertEqual(Self.error(version), .otherVersion(2))
        var kind = good
        kind[5] = 9
        XCTAssertEqual(Self.error(kind), .unknownKind(9))
        var hosting = good
        hosting[24] = 7
        XCTAssertEqual(Self.error(hosting), .badField("hosting 7"))
        var nameLength = good
        nameLength[18] = 200
        XCTAssertEqual(Self.error(nameLength), .truncated("name"))
        let portless = try LobbyMessage(sender: alice, name: "a", body: .challenge(target: bob, port: 1, address: nil)).encoded()
        var zero = portless
        zero[portless.count - 3] = 0
        zero[portless.count - 2] = 0
        XCTAssertEqual(Self.error(zero), .badField("port 0"))
    }

    static func error(_ bytes: [UInt8]) -> LobbyDecodingError? {
        do {
            _ = try LobbyMessage(decoding: bytes)
            return nil
        } catch {
            return error
        }
    }
}

/// Who is around, from what is heard: arrivals, changes, silence and leaving, messages to us, and floods.
final class LobbyRosterTests: XCTestCase {
    private let me = LobbyMessage.MemberID(1)
    private let bob = LobbyMessage.MemberID(2)
    private let carol = LobbyMessage.MemberID(3)

    private var sequence: UInt32 = 0

    /// A message with a new sequence number each time.
    private func bytes(_ sender: LobbyMessage.MemberID, _ name: String, _ body: LobbyMessage.Body) -> [UInt8] {
        sequence += 1
        return try! LobbyMessage(sender: sender, sequence: sequence, name: name, body: body).encoded()
    }

    private func announce(_ sender: LobbyMessage.MemberID, _ name: String, port: UInt16 = 0) -> [UInt8] {
        bytes(sender, name, .announce(hosting: port == 0 ? .none : .open, port: port, protocolVersion: 2))
    }

    func testMembersArriveChangeGoSilentAndLeave() {
        var roster = LobbyRoster(me: me)
        let arrived = roster.receive(announce(bob, "bob"), from: "10.0.0.2", at: .seconds(0))
        guard case .arrived(let member)? = arrived.first else { return XCTFail("\(arrived)") }
        XCTAssertEqual(member.name, "bob")
        XCTAssertEqual(member.address, "10.0.0.2")
        XCTAssertEqual(roster.receive(announce(bob, "bob"), from: "10.0.0.2", at: .seconds(2)), [], "no change, no event")
        let hosting = roster.receive(announce(bob, "bob", port: 7878), from: "10.0.0.2", at: .seconds(4))
        guard case .updated(let updated)? = hosting.first else { return XCTFail("\(hosting)") }
        XCTAssertEqual(updated.hosting, .open)
        XCTAssertEqual(updated.port, 7878)
        _ = roster.receive(announce(carol, "carol"), from: "10.0.0.3", at: .seconds(5))
        XCTAssertEqual(roster.sorted.map(\.name), ["bob", "carol"])
        XCTAssertEqual(roster.expire(at: .seconds(11)), [], "bob was heard 7 s ago")
        let silent = roster.expire(at: .seconds(11.5))
        XCTAssertEqual(silent.count, 1)
        guard case .left(let gone, said: false)? = silent.first else { return XCTFail("\(silent)") }
        XCTAssertEqual(gone.name, "bob")
        let left = roster.receive(bytes(carol, "carol", .leave), from: "10.0.0.3", at: .seconds(12))
        guard case .left(let carolGone, said: true)? = left.first else { return XCTFail("\(left)") }
        XCTAssertEqual(carolGone.name, "carol")
        XCTAssertTrue(roster.members.isEmpty)
    }

    func testTheSameMessageHeardOnIPv4AndIPv6IsOneEventAndTheAddressStaysTheFirstHeard() throws {
        var roster = LobbyRoster(me: me)
        func message(_ sequence: UInt32, _ body: LobbyMessage.Body) throws -> [UInt8] {
            try LobbyMessage(sender: bob, sequence: sequence, name: "bob", body: body).encoded()
        }
        let announce = try message(5, .announce(hosting: .none, port: 0, protocolVersion: 2))
        XCTAssertEqual(roster.receive(announce, from: "10.0.0.2", at: .zero).count, 1)
        XCTAssertEqual(roster.receive(announce, from: "fe80::2", at: .zero), [], "the IPv6 copy")
        let next = try message(6, .announce(hosting: .none, port: 0, protocolVersion: 2))
        XCTAssertEqual(roster.receive(next, from: "fe80::2", at: .seconds(2)), [], "heard first by IPv6: no change")
        XCTAssertEqual(roster.members[bob]?.address, "10.0.0.2")
        let greeting = try message(7, .greeting("hi"))
        XCTAssertEqual(roster.receive(greeting, from: "fe80::2", at: .seconds(3)).count, 1)
        XCTAssertEqual(roster.receive(greeting, from: "10.0.0.2", at: .seconds(3)), [])
        // Another IPv4 address using bob's id is not bob (ids are unauthenticated): no takeover, no leave for him.
        let spoofed = try message(8, .announce(hosting: .open, port: 9, protocolVersion: 2))
        XCTAssertEqual(roster.receive(spoofed, from: "10.0.0.66", at: .seconds(4)), [])
        XCTAssertEqual(roster.receive(try message(9, .leave), from: "10.0.0.66", at: .seconds(4)), [])
        XCTAssertEqual(roster.members[bob]?.address, "10.0.0.2")
        XCTAssertEqual(roster.members[bob]?.hosting, LobbyMessage.Hosting.none)
        XCTAssertEqual(roster.members[bob]?.addresses, ["10.0.0.2", "fe80::2"])
        XCTAssertEqual(roster.receive(try message(10, .leave), from: "fe80::2", at: .seconds(5)).count, 1, "bob's own leave")
    }

    func testOneAddressCannotFillTheRosterAndAFloodFromManyAddressesIsNotObeyed() {
        var roster = LobbyRoster(me: me, burst: 8, refill: .milliseconds(250))
        for id in 10..<30 {
            _ = roster.receive(announce(LobbyMessage.MemberID(UInt64(id)), "m\(id)"), from: "10.0.0.8", at: .zero)
        }
        XCTAssertEqual(roster.members.count, LobbyRoster.membersPerAddress)
        var heard = 0
        for index in 0..<2000 {
            let address = "10.1.\(index / 250).\(index % 250)"
            heard += roster.receive(bytes(bob, "bob", .greeting("spam")), from: address, at: .seconds(1))
                .filter { if case .greeted = $0 { return true } else { return false } }.count
        }
        XCTAssertLessThanOrEqual(heard, 8 * 8 + 32 + 1, "the whole group's budget")
    }

    func testAChallengeHeardFirstByIPv6LeadsToTheChallengersIPv4Address() throws {
        var roster = LobbyRoster(me: me)
        let announce = try LobbyMessage(sender: bob, sequence: 1, name: "bob",
                                        body: .announce(hosting: .open, port: 40001, protocolVersion: 2)).encoded()
        _ = roster.receive(announce, from: "10.0.0.2", at: .zero)
        _ = roster.receive(announce, from: "fe80::2%lab0", at: .zero)
        let challenge = try LobbyMessage(sender: bob, sequence: 2, name: "bob",
                                         body: .challenge(target: me, port: 40001, address: nil)).encoded()
        XCTAssertEqual(roster.receive(challenge, from: "fe80::2%lab0", at: .seconds(1)),
                       [.challenged(id: bob, name: "bob", address: "10.0.0.2", port: 40001)])
    }

    func testOurOwnMessagesAndChallengesToOthersAreNotEvents() {
        var roster = LobbyRoster(me: me)
        XCTAssertEqual(roster.receive(announce(me, "me"), from: "10.0.0.1", at: .zero), [])
        XCTAssertEqual(roster.receive(bytes(bob, "bob", .challenge(target: carol, port: 7878, address: nil)),
                                      from: "10.0.0.2", at: .zero), [])
        XCTAssertEqual(roster.receive(bytes(bob, "bob", .answer(target: carol, accepted: true)), from: "10.0.0.2", at: .zero), [])
    }

    func testAChallengeToUsUsesTheGivenAddressElseTheSource() {
        var roster = LobbyRoster(me: me)
        XCTAssertEqual(
            roster.receive(bytes(bob, "bob", .challenge(target: me, port: 40001, address: nil)), from: "10.0.0.2", at: .zero),
            [.challenged(id: bob, name: "bob", address: "10.0.0.2", port: 40001)])
        XCTAssertEqual(
            roster.receive(bytes(bob, "bob", .challenge(target: me, port: 40001, address: "127.0.0.1")), from: "10.0.0.2",
                           at: .zero),
            [.challenged(id: bob, name: "bob", address: "127.0.0.1", port: 40001)],
            "reported as given: the joiner's own checks refuse loopback")
        XCTAssertEqual(
            roster.receive(bytes(bob, "bob", .greeting("good game")), from: "10.0.0.2", at: .zero),
            [.greeted(id: bob, name: "bob", address: "10.0.0.2", text: "good game")])
        XCTAssertEqual(
            roster.receive(bytes(bob, "bob", .answer(target: me, accepted: false)), from: "10.0.0.2", at: .zero),
            [.answered(id: bob, name: "bob", accepted: false)])
    }

    func testAFloodFromOneSourceIsRateLimitedAndSaidOnceWhileOthersAreHeard() {
        var roster = LobbyRoster(me: me, burst: 8, refill: .milliseconds(250))
        var greetings = 0
        var limited = 0
        for index in 0..<1000 {
            for event in roster.receive(bytes(bob, "bob", .greeting("spam \(index)")), from: "10.0.0.66", at: .zero) {
                switch event {
                case .greeted: greetings += 1
                case .rateLimited(let address):
                    XCTAssertEqual(address, "10.0.0.66")
                    limited += 1
                default: XCTFail("\(event)")
                }
            }
        }
        XCTAssertEqual(greetings, 8, "the burst, then nothing")
        XCTAssertEqual(limited, 1, "said once")
        XCTAssertEqual(roster.receive(announce(carol, "carol"), from: "10.0.0.3", at: .zero).count, 1, "others are heard")
        // A second later four more tokens.
        var later = 0
        for _ in 0..<10 {
            later += roster.receive(bytes(bob, "bob", .greeting("again")), from: "10.0.0.66", at: .seconds(1))
                .filter { if case .greeted = $0 { return true } else { return false } }.count
        }
        XCTAssertEqual(later, 4)
    }

    func testGarbageIsReportedOncePerSourceAndTheRosterIsBounded() {
        var roster = LobbyRoster(me: me, burst: 1000, capacity: 3)
        XCTAssertEqual(roster.receive([1, 2, 3], from: "10.0.0.9", at: .zero).count, 1)
        XCTAssertEqual(roster.receive([1, 2, 3], from: "10.0.0.9", at: .zero), [], "said once")
        for id in 10..<20 {
            _ = roster.receive(announce(LobbyMessage.MemberID(UInt64(id)), "m\(id)"), from: "10.0.0.8", at: .zero)
        }
        XCTAssertEqual(roster.members.count, 3)
    }
}
