import AppCore
import AppProcess
import Foundation
import GameClient
import GameProtocol
import GameTransport
import MatchPlay
import NIOCore
import PairingCode
import TicTacToeTestSupport
import XCTest

@testable import LocalNetworkPrivacy

/// Spectators as `host --spectators N` and `tictactoe watch` have them, in process on loopback: the host is
/// `hostMatches`, a watcher `joinMatch` with the spectator role (what `watch` asks for), each reporting as `--json`
/// does. Watchers see every position, one that comes in mid-match sees the match so far, one that stops reading is
/// dropped without slowing the players, and a host without room or without spectators turns a watcher away.
final class SpectatorMatchTests: XCTestCase {

    /// An encrypted host named "Host" on 127.0.0.1 for one match of `games` games, taking `spectators` watchers.
    private func startHost(games: Int = 1, spectators: Int, gate: LocalNetworkGate) async throws -> LoopbackHost {
        let request = HostRequest(
            target: .address("127.0.0.1"), port: 0, matches: 1, advertise: false, origin: origin,
            spectators: spectators)
        let options = MatchOptions(name: "Host", player: .perfect, seed: 1, games: games, clock: ContinuousClock())
        return try await LoopbackHost.start(request, options: options, gate: gate)
    }

    func testTwoWatchersOneStalledThePlayersAreNotSlowedAndTheStalledOneIsDropped() async throws {
        let games = 400
        let gate = try makeGate(.notDetermined)  // loopback: never asked
        let host = try await startHost(games: games, spectators: 2, gate: gate)
        let steady = JSONSide()
        let steadyTask = Task { try await watch(host.port, name: "steady", gate: gate, json: steady) }

        // The stalled watcher reads the position it is shown on arrival, then stops reading until told to go on (its
        // own liveness made lenient, so that only the host ends its connection).
        let (resume, resumeNow) = AsyncStream<Void>.makeStream()
        let firstSeen = Recorder<WatchedMatch>()
        let stalled = GameConnection(
            to: Endpoint(host: "127.0.0.1", port: host.port), localName: "stalled",
            configuration: .init(timeouts: ConnectionTimeouts(silence: .seconds(120)), clock: ContinuousClock(),
                                 security: .tlsPSK(.pairing(code: .open)), role: .spectator),
            gate: gate, origin: origin)
        let stalledTask = Task {
            try await stalled.run { link -> (messages: [GameMessage], end: String) in
                if case .watch(let match)? = try await link.next() { firstSeen.append(match) }
                for await _ in resume { break }
                var rest: [GameMessage] = []
                do {
                    while let message = try await link.next() { rest.append(message) }
                    return (rest, "closed")
                } catch {
                    return (rest, "\(error)")
                }
            }
        }
        defer { stalled.cancel() }
        for name in ["steady", "stalled"] {
            await assertEventually("\(name) joined: \(host.json.lines.all)") {
                host.spectatorEvent(name, joined: true) != nil
            }
        }
        // Each was shown the host waiting for a player; the stalled one now reads no more.
        await assertEventually("the stalled watcher's first position") { !firstSeen.all.isEmpty }
        XCTAssertEqual(firstSeen.all.first?.phase, .waiting)

        let joiner = JSONSide()
        let joinerStatus = try await join(host.port, gate: gate, json: joiner)
        XCTAssertEqual(joinerStatus, .success, "\(joiner.lines.all.suffix(5))")
        XCTAssertEqual(joiner.events(named: "game-over").count, games)

        // The stalled watcher was dropped as too slow, not waited for; the steady one saw every game to the last.
        await assertEventually("the stalled watcher left: \(host.json.lines.all.suffix(5))") {
            host.spectatorEvent("stalled", joined: false) != nil
        }
        XCTAssertEqual(host.listeners.all.first?.spectators?.droppedCount, 1, "dropped as too slow")
        let hostStatus = await host.task.value
        XCTAssertEqual(hostStatus, .success, "\(host.json.lines.all.suffix(5))")
        let steadyStatus = try await steadyTask.value
        XCTAssertEqual(steadyStatus, .success, "the host said it is done: \(steady.lines.all.suffix(5))")
        let positions = steady.events(named: "watch")
        let over = positions.filter { $0["phase"] as? String == "over" }
        XCTAssertEqual(over.count, games, "one position per finished game")
        let last = try XCTUnwrap(over.last)
        XCTAssertEqual(last["game"] as? Int, games)
        XCTAssertEqual(last["host"] as? String, "Host")
        XCTAssertEqual(last["joiner"] as? String, "Joiner")
        let score = try XCTUnwrap(last["score"] as? [String: Int])
        XCTAssertEqual(score["host"].map { $0 + (score["joiner"] ?? -1) + (score["draws"] ?? -1) }, games)
        // Every move of game 1, one position each: from the empty board to the end, a mark at a time.
        let firstGame = positions.filter { $0["game"] as? Int == 1 }.compactMap { $0["board"] as? String }
        let marks = firstGame.map { $0.filter { $0 != "." }.count }
        XCTAssertEqual(marks.first, 0)
        XCTAssertEqual(Array(marks.dropLast()), Array(0..<(marks.count - 1)), "\(firstGame)")
        XCTAssertEqual(steady.events(named: "watch-end").last?["end"] as? String, "completed")

        // Reading again, it finds the positions it was sent before the drop, then its connection closed without a
        // goodbye.
        resumeNow.yield()
        let (rest, end) = try await stalledTask.value
        XCTAssertFalse(rest.isEmpty, "what was sent before the drop is read first (ended: \(end))")
        XCTAssertTrue(rest.allSatisfy { if case .watch = $0 { return true } else { return false } },
                      "positions only, no goodbye: \(rest.suffix(3)), then \(end)")
    }

    func testAWatcherWhoComesMidMatchSeesTheMatchSoFar() async throws {
        let gate = try makeGate(.notDetermined)
        let host = try await startHost(games: 3, spectators: 1, gate: gate)
        // The joiner's pause before each move is on a clock that moves only when the test says: the match stands
        // still mid-game while the watcher comes in.
        let clock = ManualClock()
        let joiner = JSONSide()
        let joinerTask = Task {
            try await join(host.port, gate: gate, json: joiner, clock: clock, moveDelay: .milliseconds(300))
        }
        _ = await clock.waitForSleepers(1)
        await clock.advance(by: .milliseconds(300))  // the joiner's first move; the host answers it
        await assertEventually("two moves: \(joiner.lines.all)") { joiner.events(named: "move").count == 2 }
        _ = await clock.waitForSleepers(1)

        let late = JSONSide()
        let lateTask = Task { try await watch(host.port, name: "late", gate: gate, json: late) }
        await assertEventually("the late watcher's first position") { !late.events(named: "watch").isEmpty }
        let first = try XCTUnwrap(late.events(named: "watch").first)
        XCTAssertEqual(first["joiner"] as? String, "Joiner")
        XCTAssertEqual(first["phase"] as? String, "playing")
        XCTAssertNotEqual(first["board"] as? String, ".........", "the position so far, not an empty board")

        // The rest of the match at full speed: every pause of the joiner's is let go as soon as it begins.
        let driver = clock.keepAdvancing()
        defer { driver.cancel() }
        let joinerStatus = try await joinerTask.value
        XCTAssertEqual(joinerStatus, .success, "\(joiner.lines.all.suffix(5))")
        let lateStatus = try await lateTask.value
        XCTAssertEqual(lateStatus, .success, "\(late.lines.all.suffix(5))")
        XCTAssertEqual(late.events(named: "watch").last?["game"] as? Int, 3)
    }

    func testAHostWithoutSpectatorsOrWithoutRoomTurnsAWatcherAway() async throws {
        let gate = try makeGate(.notDetermined)
        let none = try await startHost(spectators: 0, gate: gate)
        let refused = JSONSide()
        let refusedStatus = try await watch(none.port, name: "eve", gate: gate, json: refused)
        XCTAssertEqual(refusedStatus, .rejected, "\(refused.lines.all)")
        let refusal = refused.events(named: "error").last?["message"] as? String ?? ""
        XCTAssertTrue(refusal.contains("takes no spectators"), refusal)

        let full = try await startHost(spectators: 1, gate: gate)
        let first = JSONSide()
        let firstTask = Task { try await watch(full.port, name: "first", gate: gate, json: first) }
        await assertEventually("the first watcher's position") { !first.events(named: "watch").isEmpty }
        // The second is asked again while its time lasts, on a clock the test moves on at once.
        let clock = ManualClock()
        let driver = clock.keepAdvancing()
        defer { driver.cancel() }
        let second = JSONSide()
        let secondStatus = try await watch(
            full.port, name: "second", connectTimeout: .seconds(1), gate: gate, json: second, clock: clock)
        XCTAssertEqual(secondStatus, .rejected, "\(second.lines.all)")
        let noRoom = second.events(named: "error").last?["message"] as? String ?? ""
        XCTAssertTrue(noRoom.contains("no room for more spectators"), noRoom)

        for host in [none, full] {
            host.stop.raise(.quit)
            _ = await host.task.value
        }
        _ = try await firstTask.value
    }
}

private let origin = OperationOrigin("spectator tests")

/// A watcher as `tictactoe watch 127.0.0.1:PORT --json --name NAME` runs it: its exit status and its lines.
private func watch(
    _ port: Int, name: String, connectTimeout: Duration = .seconds(10), gate: LocalNetworkGate, json: JSONSide,
    clock: any Clock<Duration> = ContinuousClock()
) async throws -> ExitStatus {
    let request = JoinRequest(
        target: try JoinTarget(parsing: "127.0.0.1:\(port)"), connectTimeout: connectTimeout, origin: origin,
        role: .spectator)
    let options = MatchOptions(name: name, player: .perfect, seed: 0, games: nil, moveDelay: .zero, clock: clock)
    return await joinMatch(request, options: options, gate: gate, reporter: json.reporter)
}

/// A player joining 127.0.0.1:`port` as `join --headless --json --name Joiner` does.
private func join(_ port: Int, gate: LocalNetworkGate, json: JSONSide, clock: any Clock<Duration> = ContinuousClock(),
                  moveDelay: Duration = .zero) async throws -> ExitStatus {
    let request = JoinRequest(target: try JoinTarget(parsing: "127.0.0.1:\(port)"), origin: origin)
    let options = MatchOptions(
        name: "Joiner", player: .perfect, seed: 2, games: nil, moveDelay: moveDelay, clock: clock)
    return await joinMatch(request, options: options, gate: gate, reporter: json.reporter)
}

extension LoopbackHost {
    /// The host's `spectator` event for `name` joining or leaving.
    fileprivate func spectatorEvent(_ name: String, joined: Bool) -> [String: Any]? {
        json.events(named: "spectator").first { $0["name"] as? String == name && $0["joined"] as? Bool == joined }
    }
}
