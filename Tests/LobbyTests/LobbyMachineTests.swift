import AppCore
import GameClient
import GameProtocol
import HeadlessUI
import JSONLines
import Lobby
import TicTacToeTestSupport
import XCTest

/// The lobby's logic without a network: datagrams, ticks and the person's commands in, actions out (time is an
/// input). The command line's policies and the Lobby screen's (interactive) one.
final class LobbyMachineTests: XCTestCase {
    /// The live lobby's check of a challenge's address, on a machine with no address of its own.
    private static let checkChallenge: @Sendable (String, LobbyRoster.Member?) -> String? = {
        LobbyChallenge.problem(joining: $0, challenger: $1, localAddresses: [])
    }

    let me = LobbyMessage.MemberID(1)
    let bob = LobbyMessage.MemberID(2)
    let bobAddress = "198.18.0.12"
    var sequence: UInt32 = 0

    func datagram(_ body: LobbyMessage.Body, from id: LobbyMessage.MemberID? = nil, name: String = "bob",
                  address: String? = nil, at seconds: Int = 1) throws -> LobbyMachine.Input {
        sequence += 1
        let bytes = try LobbyMessage(sender: id ?? bob, sequence: sequence, name: name, body: body).encoded()
        return .datagram(bytes, from: address ?? bobAddress, at: .seconds(seconds))
    }

    func joined(_ policy: LobbyMachine.Policy) throws -> LobbyMachine {
        var machine = LobbyMachine(me: me, policy: policy, checkChallenge: Self.checkChallenge)
        let actions = machine.handle(.ready(group: "the lobby", addresses: ["239.255.77.77 on veth0"]))
        XCTAssertEqual(actions, [
            .report(.joined(group: "the lobby", addresses: ["239.255.77.77 on veth0"])),
            .send(.announce(hosting: .none, port: 0, protocolVersion: 2)),
        ])
        _ = machine.handle(try datagram(.announce(hosting: .none, port: 0, protocolVersion: 2)))
        XCTAssertEqual(machine.roster.members[bob]?.name, "bob")
        return machine
    }

    func testAChallengeToThePersonWaitsForTheirAnswerThenJoinsTheChallengersGame() throws {
        var machine = try joined(.init(interactive: true))
        let challenge = machine.handle(try datagram(.challenge(target: me, port: 40000, address: nil), at: 2))
        XCTAssertEqual(challenge, [
            .report(.roster(.challenged(id: bob, name: "bob", address: bobAddress, port: 40000))),
            .report(.challengeWaiting(id: bob, from: "bob", address: bobAddress, port: 40000)),
        ])
        XCTAssertFalse(machine.finished, "nothing is answered before the person does")
        let accepted = machine.handle(.command(.answer(bob, accept: true), at: .seconds(3)))
        XCTAssertEqual(accepted, [
            .send(.answer(target: bob, accepted: true)),
            .report(.challengeAccepted(from: "bob", address: bobAddress, port: 40000)),
            .send(.leave), .leaveGroup, .report(.left("accepted bob's challenge")),
            .join(name: "bob", address: bobAddress, port: 40000),
        ])
        XCTAssertTrue(machine.finished)
        XCTAssertEqual(machine.handle(.tick(at: .seconds(4))), [], "a finished lobby does nothing more")
    }

    func testAChallengeNotAnsweredInTimeIsDeclinedAndItsAnswerIsThenIgnored() throws {
        var machine = try joined(.init(interactive: true))
        _ = machine.handle(try datagram(.challenge(target: me, port: 40000, address: nil), at: 2))
        for second in stride(from: 6, through: 30, by: 6) {  // bob stays (silent for 7 s, it would be gone)
            _ = machine.handle(try datagram(.announce(hosting: .none, port: 0, protocolVersion: 2), at: second))
        }
        XCTAssertFalse(machine.handle(.tick(at: .seconds(31))).contains(.send(.answer(target: bob, accepted: false))),
                       "29 s after the challenge it still waits")
        let expired = machine.handle(.tick(at: .seconds(32)))
        XCTAssertEqual(Array(expired.prefix(2)), [
            .send(.answer(target: bob, accepted: false)),
            .report(.challengeClosed(id: bob, from: "bob", why: "not answered within 30 s")),
        ])
        XCTAssertEqual(machine.handle(.command(.answer(bob, accept: true), at: .seconds(33))), [])
        XCTAssertFalse(machine.finished)
    }

    func testAChallengersLeavingWithdrawsItsChallenge() throws {
        var machine = try joined(.init(interactive: true))
        _ = machine.handle(try datagram(.challenge(target: me, port: 40000, address: nil), at: 2))
        let left = machine.handle(try datagram(.leave, at: 3))
        XCTAssertEqual(left.last, .report(.challengeClosed(id: bob, from: "bob", why: "they left the lobby")))
        XCTAssertTrue(machine.waiting.isEmpty)
    }

    func testDecliningSaysSoToTheChallengerAndStaysInTheLobby() throws {
        var machine = try joined(.init(interactive: true))
        _ = machine.handle(try datagram(.challenge(target: me, port: 40000, address: nil), at: 2))
        XCTAssertEqual(machine.handle(.command(.answer(bob, accept: false), at: .seconds(3))), [
            .send(.answer(target: bob, accepted: false)),
            .report(.challengeClosed(id: bob, from: "bob", why: "you declined")),
        ])
        XCTAssertFalse(machine.finished)
        XCTAssertTrue(machine.ready)
    }

    func testAChallengeLeadingAnywhereButTheChallengersOwnAddressIsDeclinedWithoutAsking() throws {
        var machine = try joined(.init(interactive: true))
        let actions = machine.handle(try datagram(.challenge(target: me, port: 40000, address: "198.18.0.99"), at: 2))
        XCTAssertEqual(actions.last, .report(.challengeDeclined(
            from: "bob", why: "its address 198.18.0.99 is not the one its messages come from")))
        XCTAssertTrue(actions.contains(.send(.answer(target: bob, accepted: false))))
        XCTAssertTrue(machine.waiting.isEmpty)
    }

    func testThePersonsChallengeHostsAGameInvitesOnceItListensAndADeclineLeavesThemInTheLobby() throws {
        var machine = try joined(.init(interactive: true))
        XCTAssertEqual(machine.handle(.command(.challenge(bob), at: .seconds(2))), [.hostGame(for: "bob")])
        XCTAssertEqual(machine.handle(.command(.hostListening(41000), at: .seconds(2))), [
            .send(.announce(hosting: .open, port: 41000, protocolVersion: 2)),
            .send(.challenge(target: bob, port: 41000, address: nil)),
            .report(.challengeSent(to: "bob", port: 41000)), .startAnswerTimer(generation: 1),
        ])
        XCTAssertEqual(machine.handle(.command(.challenge(bob), at: .seconds(3))), [],
                       "one challenge at a time: a second press does nothing")
        let declined = machine.handle(try datagram(.answer(target: me, accepted: false), at: 4))
        XCTAssertEqual(Array(declined.dropFirst()), [
            .cancelAnswerTimer, .report(.challengeDeclined(from: "bob", why: "they declined")), .stopHosting,
            .send(.announce(hosting: .none, port: 0, protocolVersion: 2)),
        ])
        XCTAssertFalse(machine.finished)
        XCTAssertNil(machine.challenged)
        XCTAssertEqual(machine.handle(.command(.challenge(bob), at: .seconds(5))), [.hostGame(for: "bob")],
                       "and they may challenge again")
    }

    func testAnAcceptedChallengeLeavesTheLobbyTheFrontEndPlaysTheGame() throws {
        var machine = try joined(.init(interactive: true))
        _ = machine.handle(.command(.challenge(bob), at: .seconds(2)))
        _ = machine.handle(.command(.hostListening(41000), at: .seconds(2)))
        let accepted = machine.handle(try datagram(.answer(target: me, accepted: true), at: 3))
        XCTAssertEqual(Array(accepted.dropFirst()), [
            .cancelAnswerTimer, .send(.leave), .leaveGroup, .report(.left("the game with bob starts")),
            .finish(.success),
        ])
    }

    func testTheCommandLineChallengesByNameAndEndsWithExit4WhenDeclined() throws {
        var machine = LobbyMachine(me: me, policy: .init(challenge: "BOB"), checkChallenge: Self.checkChallenge)
        _ = machine.handle(.ready(group: "g", addresses: []))
        let arrival = machine.handle(try datagram(.announce(hosting: .none, port: 0, protocolVersion: 2)))
        XCTAssertEqual(arrival.last, .hostGame(for: "bob"), "names match as player names do")
        _ = machine.handle(.hostListening(41000))
        let declined = machine.handle(try datagram(.answer(target: me, accepted: false), at: 2))
        XCTAssertEqual(declined.last, .stopHosting)
        XCTAssertFalse(machine.finished, "the game hosted for it stops first")
        XCTAssertEqual(machine.handle(.hostDone(.interrupted)), [
            .cancelAnswerTimer, .send(.leave), .leaveGroup, .report(.left("the challenge was not taken")),
            .finish(.rejected),
        ])
    }

    func testTheCommandLineDeclinesChallengesWithoutAccept() throws {
        var machine = try joined(.init())
        let actions = machine.handle(try datagram(.challenge(target: me, port: 40000, address: nil), at: 2))
        XCTAssertEqual(Array(actions.dropFirst()), [
            .send(.answer(target: bob, accepted: false)),
            .report(.challengeDeclined(from: "bob", why: "not accepting challenges (--accept)")),
        ])
    }

    func testAStopWhileHostingOnTheCommandLineWaitsForTheHostToSayGoodbye() throws {
        var machine = LobbyMachine(me: me, policy: .init(challenge: "bob"), checkChallenge: Self.checkChallenge)
        _ = machine.handle(.ready(group: "g", addresses: []))
        _ = machine.handle(try datagram(.announce(hosting: .none, port: 0, protocolVersion: 2)))
        XCTAssertEqual(machine.handle(.stop(.interrupted)), [.stopHosting])
        XCTAssertEqual(machine.handle(.hostDone(.interrupted)).last, .finish(.interrupted))
    }

    func testAFailedGroupEndsTheLobbyWithExit9() {
        var machine = LobbyMachine(me: me, policy: .init(interactive: true), checkChallenge: Self.checkChallenge)
        XCTAssertEqual(machine.handle(.failed("no interface")).last, .finish(.cannotListen))
        XCTAssertTrue(machine.finished)
    }

    func testARepeatedChallengeIsAskedOnceAndKeepsItsTime() throws {
        var machine = try joined(.init(interactive: true))
        _ = machine.handle(try datagram(.challenge(target: me, port: 40000, address: nil), at: 2))
        let again = machine.handle(try datagram(.challenge(target: me, port: 40001, address: nil), at: 3))
        XCTAssertEqual(again, [.report(.roster(.challenged(id: bob, name: "bob", address: bobAddress, port: 40001)))],
                       "not asked again")
        XCTAssertEqual(machine.waiting[bob]?.port, 40001, "it leads to the newest game")
        XCTAssertEqual(machine.waiting[bob]?.since, .seconds(2), "a flood of repeats does not keep it open")
    }

    func testAChallengerThatStopsHostingHasWithdrawnItsChallenge() throws {
        var machine = try joined(.init(interactive: true))
        _ = machine.handle(try datagram(.announce(hosting: .open, port: 40000, protocolVersion: 2), at: 2))
        _ = machine.handle(try datagram(.challenge(target: me, port: 40000, address: nil), at: 2))
        let withdrawn = machine.handle(try datagram(.announce(hosting: .none, port: 0, protocolVersion: 2), at: 3))
        XCTAssertEqual(withdrawn.last, .report(.challengeClosed(id: bob, from: "bob", why: "they withdrew it")))
        XCTAssertTrue(machine.waiting.isEmpty)
    }

    func testAChallengerThatGoesSilentTakesItsChallengeAlong() throws {
        var machine = try joined(.init(interactive: true))
        _ = machine.handle(try datagram(.challenge(target: me, port: 40000, address: nil), at: 2))
        let silent = machine.handle(.tick(at: .seconds(10)))
        XCTAssertTrue(silent.contains(.report(.challengeClosed(id: bob, from: "bob", why: "they left the lobby"))),
                      "\(silent)")
        XCTAssertTrue(machine.waiting.isEmpty)
    }

    func testLeavingDeclinesTheChallengesStillWaiting() throws {
        var machine = try joined(.init(interactive: true))
        _ = machine.handle(try datagram(.challenge(target: me, port: 40000, address: nil), at: 2))
        XCTAssertEqual(machine.handle(.stop(.success)), [
            .send(.answer(target: bob, accepted: false)),
            .report(.challengeClosed(id: bob, from: "bob", why: "you left the lobby")),
            .send(.leave), .leaveGroup, .report(.left("stopped")), .finish(.success),
        ])
    }

    func testAnAnswerTimerCancelledAsItFiredIsNotObeyed() throws {
        var machine = LobbyMachine(me: me, policy: .init(challenge: "bob"), checkChallenge: Self.checkChallenge)
        _ = machine.handle(.ready(group: "g", addresses: []))
        _ = machine.handle(try datagram(.announce(hosting: .none, port: 0, protocolVersion: 2)))
        XCTAssertEqual(machine.handle(.hostListening(41000)).last, .startAnswerTimer(generation: 1))
        // They connect before their accept is heard: no second timer, and the first one's late report is ignored.
        XCTAssertEqual(machine.handle(.hostConnected), [.cancelAnswerTimer])
        let accepted = machine.handle(try datagram(.answer(target: me, accepted: true), at: 2))
        XCTAssertFalse(accepted.contains { if case .startAnswerTimer = $0 { return true } else { return false } },
                       "\(accepted)")
        XCTAssertEqual(machine.handle(.answerTimedOut(generation: 1)), [], "the game goes on")
        XCTAssertEqual(machine.handle(.hostDone(.success)).last, .finish(.success))
    }
}

/// What `tictactoe lobby` prints of the lobby's events (docs/LOBBY.md's table): text escaped, JSON with sorted keys.
final class LobbyEventOutputTests: XCTestCase {
    let bob = LobbyMessage.MemberID(0xb0b)

    func testAChallengeToUsHeardAndWaitingForAnAnswer() throws {
        let heard = LobbyEvent.roster(.challenged(id: bob, name: "bob", address: "198.18.0.12", port: 40000))
        XCTAssertEqual(try JSONEvent.line(.lobby(heard)), #"{"address":"198.18.0.12","event":"lobby-challenged","id":"0000000000000b0b","name":"bob","port":40000}"#)
        XCTAssertEqual(heard.text(shownName: "alice"), "bob challenges you to a game at 198.18.0.12:40000")
        let waiting = LobbyEvent.challengeWaiting(id: bob, from: "bob", address: "fe80::2%lab0", port: 40000)
        XCTAssertEqual(try JSONEvent.line(.lobby(waiting)), #"{"address":"fe80::2%lab0","event":"lobby-challenge-waiting","id":"0000000000000b0b","name":"bob","port":40000}"#)
        XCTAssertEqual(waiting.text(shownName: "alice"),
                       "bob's challenge (a game at [fe80::2%lab0]:40000) waits for your answer")
    }

    func testAClosedChallengeAndAReasonNamingAPlayerAreEscaped() throws {
        let closed = LobbyEvent.challengeClosed(id: bob, from: "b\\ob", why: "they withdrew it")
        XCTAssertEqual(try JSONEvent.line(.lobby(closed)), #"{"event":"lobby-no-game","id":"0000000000000b0b","name":"b\\ob","reason":"they withdrew it"}"#)
        XCTAssertEqual(closed.text(shownName: "alice"), #"No game with b\\ob: they withdrew it"#)
        XCTAssertEqual(LobbyEvent.left(#"accepted b\ob's challenge"#).text(shownName: "alice"),
                       #"Left the lobby: accepted b\\ob's challenge"#)
    }

    /// The transcript shows our own name escaped once, as every other name (`tictactoe lobby --name 'b\ob'`).
    func testTheTranscriptShowsOurNameEscapedOnce() {
        let lines = Recorder<String>()
        let reporter = TranscriptReporter(localName: #"b\ob"#, write: lines.append)
        reporter.report(.lobby(.joined(group: "239.255.77.77:7879", addresses: ["198.18.0.11"])))
        XCTAssertEqual(lines.all, [#"Lobby: joined 239.255.77.77:7879 as b\\ob"#])
    }
}
