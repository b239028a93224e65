import Foundation
import GameProtocol
import XCTest
import TicTacToeTestSupport

/// A host faced with raw TCP peers that break the protocol, busy joiners, and peers that die.
final class MisbehavingPeerTests: ProcessTestCase {
    private func host(_ extra: [String]) throws -> (TicTacToeProcess, Int) {
        let (host, port) = try startHost(["--plaintext"] + extra)  // raw v1 peers speak plaintext
        processes.append(host)
        return (host, port)
    }

    /// After each bad peer, a real joiner still gets a full game: the host kept listening. A peer that got into a match
    /// (`hadMatch`) made the host busy, and it says "listening" again once it is free; one that failed its handshake
    /// never made it busy.
    private func assertHostServesNextJoiner(_ host: TicTacToeProcess, port: Int, hadMatch: Bool = true,
                                            file: StaticString = #filePath, line: UInt = #line) throws {
        if hadMatch {
            XCTAssertTrue(host.waitForEventCount("listening", 2), "host never became free again", file: file, line: line)
        }
        let joiner = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json", "--seed", "1"])
        processes.append(joiner)
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError, file: file, line: line)
        XCTAssertEqual(host.waitForExit(), 0, host.standardError, file: file, line: line)
        XCTAssertEqual(joiner.events(named: "summary").last?["games"] as? Int, 1, file: file, line: line)
    }

    private func handshake(_ peer: RawPeer) throws -> GameMessage? {
        try peer.send(.hello(version: 1, name: "raw"))
        guard case .accept? = try peer.receive() else { XCTFail("no accept"); return nil }
        return try peer.receive()
    }

    func testGarbageGetsAnErrorFrameAndTheHostServesTheNextJoiner() throws {
        let (host, port) = try host(["--games", "1"])
        let peer = try RawPeer(port: port)
        try peer.send(bytes: Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let frames = try peer.receiveUntilClosed()
        guard case .error(let code, let text)? = frames.last else { return XCTFail("expected an error frame: \(frames)") }
        XCTAssertEqual(code, .badFrameLength)
        XCTAssertTrue(text.contains("exceeds the maximum"), text)
        XCTAssertNotNil(host.waitForEvent("peer-failed"))
        try assertHostServesNextJoiner(host, port: port, hadMatch: false)
    }

    func testUnknownMessageTypeAndEmptyFrameAreRejected() throws {
        let (host, port) = try host(["--games", "1"])
        for (bytes, expected) in [([0x00, 0x01, 0x55] as [UInt8], ProtocolErrorCode.unknownMessage),
                                  ([0x00, 0x00], .badFrameLength)] {
            let peer = try RawPeer(port: port)
            try peer.send(bytes: bytes)
            let frames = try peer.receiveUntilClosed()
            guard case .error(let code, _)? = frames.last else { return XCTFail("no error frame for \(bytes)") }
            XCTAssertEqual(code, expected)
        }
        try assertHostServesNextJoiner(host, port: port, hadMatch: false)
    }

    func testOutOfTurnMoveGetsAnError() throws {
        // The host pauses before its moves, so our second move arrives while it is the host's turn.
        let (host, port) = try host(["--games", "1", "--move-delay", "2"])
        let peer = try RawPeer(port: port)
        guard case .start(1, .x, .x)? = try handshake(peer) else { return XCTFail("expected start of game 1 with us as X") }
        try peer.send(.move(cell: 0), .move(cell: 1))
        let frames = try peer.receiveUntilClosed()
        guard case .error(let code, let text)? = frames.last else { return XCTFail("expected an error frame: \(frames)") }
        XCTAssertEqual(code, .notYourTurn, text)
        let over = try XCTUnwrap(host.waitForEvent("match-over"))
        XCTAssertEqual(over["end"] as? String, "peer-violation")
        try assertHostServesNextJoiner(host, port: port)
    }

    func testMoveToOccupiedCellGetsAnError() throws {
        let (host, port) = try host(["--games", "1"])
        let peer = try RawPeer(port: port)
        guard case .start(1, .x, .x)? = try handshake(peer) else { return XCTFail("expected start of game 1") }
        try peer.send(.move(cell: 4))
        guard case .move(let reply)? = try peer.receive() else { return XCTFail("expected the host's move") }
        try peer.send(.move(cell: reply))  // the host's own cell
        let frames = try peer.receiveUntilClosed()
        guard case .error(let code, _)? = frames.last else { return XCTFail("expected an error frame: \(frames)") }
        XCTAssertEqual(code, .cellOccupied)
        try assertHostServesNextJoiner(host, port: port)
    }

    func testOutOfRangeMoveGetsAnError() throws {
        let (host, port) = try host(["--games", "1"])
        let peer = try RawPeer(port: port)
        guard case .start? = try handshake(peer) else { return XCTFail("expected start") }
        try peer.send(.move(cell: 9))
        let frames = try peer.receiveUntilClosed()
        guard case .error(let code, _)? = frames.last else { return XCTFail("expected an error frame: \(frames)") }
        XCTAssertEqual(code, .moveOutOfRange)
        try assertHostServesNextJoiner(host, port: port)
    }

    func testWrongProtocolVersionIsRejected() throws {
        let (host, port) = try host(["--games", "1"])
        let peer = try RawPeer(port: port)
        try peer.send(.hello(version: 9, name: "future"))
        guard case .reject(let reason, _)? = try peer.receive() else { return XCTFail("expected reject") }
        XCTAssertEqual(reason, .version)
        try assertHostServesNextJoiner(host, port: port, hadMatch: false)
    }

    func testSecondJoinerRetriesWhileBusyThenExits4() throws {
        let (host, port) = try host(["--games", "5", "--move-delay", "0.5"])
        let first = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json"])
        processes.append(first)
        XCTAssertNotNil(first.waitForEvent("game-start"))
        // A raw joiner hears "busy" right after its hello.
        let raw = try RawPeer(port: port)
        try raw.send(.hello(version: 1, name: "second"))
        guard case .reject(let reason, let text)? = try raw.receive() else { return XCTFail("expected reject") }
        XCTAssertEqual(reason, .busy)
        XCTAssertTrue(text.contains("already playing"), text)
        // A real one waits and asks again ("busy, retrying") until its connect timeout, then exits 4.
        let second = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json", "--connect-timeout", "1.5"])
        processes.append(second)
        XCTAssertEqual(second.waitForExit(), 4, second.standardError)
        let waits = second.events(named: "state").filter { $0["state"] as? String == "waiting" }
        XCTAssertGreaterThanOrEqual(waits.count, 2, "\(second.events(named: "state"))")
        for wait in waits {
            XCTAssertTrue((wait["reason"] as? String ?? "").contains("busy, retrying"), "\(wait)")
        }
        XCTAssertTrue((second.events(named: "error").last?["message"] as? String ?? "").contains("busy"))
        XCTAssertEqual(first.waitForExit(), 0, first.standardError)
        XCTAssertEqual(host.waitForExit(), 0)
        XCTAssertGreaterThanOrEqual(host.events(named: "busy-rejected").count, 1 + waits.count)
    }

    func testBusyJoinerRetriesAndPlaysOnceTheHostIsFree() throws {
        let (host, port) = try host(["--games", "3", "--move-delay", "0.3", "--matches", "2"])
        let first = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json"])
        processes.append(first)
        XCTAssertNotNil(first.waitForEvent("game-start"))
        let second = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--connect-timeout", "60"])
        processes.append(second)
        XCTAssertNotNil(second.waitForLine { $0.contains("busy, retrying") }, "the transcript never said it was waiting")
        XCTAssertEqual(first.waitForExit(), 0, first.standardError)
        XCTAssertEqual(second.waitForExit(), 0, second.standardError)
        XCTAssertTrue(second.output.contains { $0.hasPrefix("Summary: 3 games") }, second.output.joined(separator: "\n"))
        XCTAssertEqual(host.waitForExit(), 0, host.standardError)
    }

    func testKilledJoinerIsReportedByTheHost() throws {
        let (host, port) = try host(["--games", "5", "--move-delay", "0.5"])
        let joiner = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json"])
        processes.append(joiner)
        XCTAssertNotNil(host.waitForEvent("game-start"))
        joiner.signal(SIGKILL)
        let over = try XCTUnwrap(host.waitForEvent("match-over"), "the host did not notice")
        XCTAssertEqual(over["end"] as? String, "peer-left")
        XCTAssertEqual(host.events(named: "game-over").last?["reason"] as? String, "forfeit")
        // The host goes on listening for the next joiner.
        try assertHostServesNextJoinerWithGames(host, port: port)
    }

    private func assertHostServesNextJoinerWithGames(_ host: TicTacToeProcess, port: Int) throws {
        XCTAssertTrue(host.waitForEventCount("listening", 2), "host never became free again")
        let joiner = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json", "--games", "1"])
        processes.append(joiner)
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
    }

    func testKilledHostIsReportedByTheJoiner() throws {
        let (host, port) = try host(["--games", "5", "--move-delay", "0.5"])
        let joiner = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless"])
        processes.append(joiner)
        XCTAssertNotNil(joiner.waitForLine { $0.hasPrefix("Game 1") })
        host.signal(SIGKILL)
        XCTAssertNotNil(joiner.waitForLine { $0.contains("left") }, "the joiner did not notice")
        XCTAssertEqual(joiner.waitForExit(), 3)
        XCTAssertTrue(joiner.standardError.contains("the opponent left"), joiner.standardError)
    }

    func testVanishedPeerIsNoticedByHeartbeat() throws {
        // A stopped process keeps its socket open but answers nothing: only the heartbeat can tell.
        let (host, port) = try host(["--games", "5", "--move-delay", "0.5"])
        let joiner = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json"])
        processes.append(joiner)
        XCTAssertNotNil(host.waitForEvent("game-start"))
        joiner.signal(SIGSTOP)
        let over = try XCTUnwrap(host.waitForEvent("match-over"), "the host did not notice")
        XCTAssertEqual(over["end"] as? String, "peer-timeout")
        XCTAssertTrue((over["detail"] as? String ?? "").hasPrefix("connection lost: nothing heard from the peer for "), "\(over)")
        joiner.terminate()
    }

    func testCtrlCTellsThePeer() throws {
        let (host, port) = try host(["--games", "5", "--move-delay", "0.5"])
        let joiner = try TicTacToeProcess(["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json"])
        processes.append(joiner)
        XCTAssertNotNil(joiner.waitForEvent("game-start"), "the joiner never got into the match")
        joiner.signal(SIGINT)
        XCTAssertEqual(joiner.waitForExit(timeout: 10), 130)
        let over = try XCTUnwrap(host.waitForEvent("match-over"), "the host did not notice")
        XCTAssertEqual(over["end"] as? String, "peer-left")
        XCTAssertTrue((over["detail"] as? String ?? "").contains("quit"), "\(over)")
    }
}
