import GameProtocol
import XCTest

/// `HostHandshake.answer` for every version, role and transport: version 2 over TLS, version 1 in plaintext.
final class HostHandshakeTests: XCTestCase {
    private let v1 = GameMessage.plaintextProtocolVersion
    private let v2 = GameMessage.encryptedProtocolVersion
    private let updateText = "this host speaks protocol 2 (encrypted); update tictactoe"
    private let plaintextText = "this host speaks protocol 1 (unencrypted): join with --plaintext"

    func testTheVersionsAndTheirTransports() {
        XCTAssertEqual(v1, 1)
        XCTAssertEqual(v2, 2)
        XCTAssertEqual(GameSecurity.plaintext.protocolVersion, v1)
        XCTAssertEqual(GameSecurity.open.protocolVersion, v2)
        XCTAssertEqual(GameSecurity.private.protocolVersion, v2)
    }

    // MARK: Over TLS: version 2

    func testAV2PlayerIsAcceptedWithVersion2() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 2, name: "Ann", role: .player), hostName: "Bob", version: v2),
            .accept(version: 2, name: "Bob")
        )
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 2, name: "Zoë 🎲"), hostName: "Léa", version: v2),
            .accept(version: 2, name: "Léa")
        )
    }

    func testAV1HelloInsideTLSIsToldToUpdate() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 1, name: "Ann"), hostName: "Bob", version: v2),
            .reject(reason: .version, text: updateText)
        )
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 0, name: "Ann"), hostName: "Bob", version: v2),
            .reject(reason: .version, text: updateText)
        )
    }

    func testANewerJoinerIsToldTheHostIsOlder() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 3, name: "Ann"), hostName: "Bob", version: v2),
            .reject(
                reason: .version,
                text: "this host speaks protocol 2, older than the joiner's 3: the host must update tictactoe")
        )
    }

    func testAV2SpectatorIsABadHello() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 2, name: "Eve", role: .spectator), hostName: "Bob", version: v2),
            .reject(reason: .badHello, text: "this host takes no spectators (its player can allow them: --spectators N)")
        )
        XCTAssertEqual(HostHandshake.spectatorRejectText, "this host takes no spectators (its player can allow them: --spectators N)")
    }

    func testAV2SpectatorIsAcceptedByAHostThatTakesSpectatorsButNeedsAName() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 2, name: "Eve", role: .spectator), hostName: "Bob", version: v2,
                                 takesSpectators: true),
            .accept(version: 2, name: "Bob"))
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 2, name: "", role: .spectator), hostName: "Bob", version: v2,
                                 takesSpectators: true),
            .reject(reason: .badHello, text: "empty player name"))
        // Watching is protocol 2's: a version 1 hello has no role, and a plaintext host never reads one as a spectator.
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 2, name: "Eve", role: .spectator), hostName: "Bob", version: 1,
                                 takesSpectators: true),
            .reject(reason: .version, text: "this host speaks protocol 1 (unencrypted): join with --plaintext"))
    }

    func testAnUnknownRoleIsABadHello() {
        XCTAssertEqual(
            HostHandshake.answer(
                to: .hello(version: 2, name: "Eve", role: PeerRole(rawValue: 7)), hostName: "Bob", version: v2),
            .reject(reason: .badHello, text: "this host takes players only; role 7 is unknown to it")
        )
    }

    func testAV2PlayerWithAnEmptyNameIsABadHello() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 2, name: "", role: .player), hostName: "Bob", version: v2),
            .reject(reason: .badHello, text: "empty player name")
        )
    }

    func testTheVersionIsCheckedBeforeTheRoleAndTheRoleBeforeTheName() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 9, name: "", role: .spectator), hostName: "Bob", version: v2),
            .reject(
                reason: .version,
                text: "this host speaks protocol 2, older than the joiner's 9: the host must update tictactoe")
        )
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 2, name: "", role: .spectator), hostName: "Bob", version: v2),
            .reject(reason: .badHello, text: "this host takes no spectators (its player can allow them: --spectators N)")
        )
    }

    // MARK: In plaintext: version 1

    func testAV1PlayerIsAcceptedWithVersion1() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 1, name: "Ann"), hostName: "Bob", version: v1),
            .accept(version: 1, name: "Bob")
        )
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 1, name: "Zoë 🎲"), hostName: "Léa", version: v1),
            .accept(version: 1, name: "Léa")
        )
    }

    func testAV2HelloInPlaintextIsToldToJoinWithPlaintext() {
        for role in [PeerRole.player, .spectator, PeerRole(rawValue: 200)] {
            XCTAssertEqual(
                HostHandshake.answer(to: .hello(version: 2, name: "Ann", role: role), hostName: "Bob", version: v1),
                .reject(reason: .version, text: plaintextText), "\(role)"
            )
        }
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 9, name: ""), hostName: "Bob", version: v1),
            .reject(reason: .version, text: plaintextText)
        )
    }

    func testAnOlderJoinerAtAV1Host() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 0, name: "Ann"), hostName: "Bob", version: v1),
            .reject(reason: .version, text: "this host speaks protocol 1, newer than the joiner's 0: update tictactoe")
        )
    }

    func testAV1EmptyNameIsABadHello() {
        XCTAssertEqual(
            HostHandshake.answer(to: .hello(version: 1, name: ""), hostName: "Bob", version: v1),
            .reject(reason: .badHello, text: "empty player name")
        )
    }

    // MARK: Either transport

    func testAnythingButHelloIsAnUnexpectedMessage() {
        let cases: [(GameMessage, String)] = [
            (.move(cell: 4), "expected hello, got move"),
            (.accept(version: 1, name: "Ann"), "expected hello, got accept"),
            (.accept(version: 2, name: "Ann"), "expected hello, got accept"),
            (.ping(1), "expected hello, got ping"),
            (.start(game: 1, joinerMark: .x, firstMover: .x), "expected hello, got start"),
            (.bye(.quit), "expected hello, got bye"),
        ]
        for version in [v1, v2] {
            for (message, text) in cases {
                XCTAssertEqual(
                    HostHandshake.answer(to: message, hostName: "Bob", version: version),
                    .error(code: .unexpectedMessage, text: text)
                )
            }
        }
    }

    func testTheRoleNames() {
        XCTAssertEqual(PeerRole.player.rawValue, 0)
        XCTAssertEqual(PeerRole.spectator.rawValue, 1)
        XCTAssertEqual(PeerRole.player.description, "player")
        XCTAssertEqual(PeerRole.spectator.description, "spectator")
        XCTAssertEqual(PeerRole(rawValue: 7).description, "role-7")
        XCTAssertEqual(GameMessage.hello(version: 2, name: "Ann"), .hello(version: 2, name: "Ann", role: .player))
    }
}
