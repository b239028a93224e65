import GameProtocol
import GameRules
import GameTransport
import Synchronization

/// Times move round trips inside real matches, over plaintext and over TLS (an open game: after the handshake a
/// private game's link is the same), in the same process.
///
/// A move round trip is taken on each side: from just before a move frame is written until the peer's answering move
/// has been read (through the whole pipeline: framing, TLS, the liveness handler, `PeerLink`), the peer's
/// `MatchSession` having checked the move and its player answered at once. A move that ends the game gets no answer
/// and is not counted. Both players take the first empty cell, so no thinking time is measured; the heartbeat runs
/// as in the app. The matches alternate (plaintext, TLS, plaintext, ...) in `rounds` so that load from elsewhere on
/// the machine falls on both alike.
struct RoundTripBench {
    let gate: BenchGate
    /// Games per match.
    let gamesPerMatch: Int
    /// Matches of each kind.
    let rounds: Int

    struct Result {
        var plaintext = Samples()
        var tls = Samples()
    }

    func run() async throws -> Result {
        var result = Result()
        // One match untimed first on each, to warm up (lazy initialisation, the first TLS session).
        _ = try await match(encrypted: false, games: 1)
        _ = try await match(encrypted: true, games: 1)
        for _ in 0..<rounds {
            result.plaintext.append(contentsOf: try await match(encrypted: false, games: gamesPerMatch))
            result.tls.append(contentsOf: try await match(encrypted: true, games: gamesPerMatch))
        }
        return result
    }

    /// One match of `games` games on a fresh host; the round trips both sides measured.
    private func match(encrypted: Bool, games: Int) async throws -> Samples {
        let kind: JoinKind = encrypted ? .open : .plaintext
        let (hostSecurity, joinerSecurity) = HandshakeBench.security(for: kind)
        let hostSide = HostSide()
        let host = try await LoopbackHost(gate: gate, security: hostSecurity) { link in
            let outcome: Swift.Result<[Duration], BenchFailure>
            do {
                outcome = .success(try await playTimedMatch(.host, games: games, encrypted: encrypted, over: &link))
            } catch {
                outcome = .failure(error as? BenchFailure ?? BenchFailure("the host's side: \(error)"))
            }
            hostSide.outcome.withLock { $0 = outcome }
            return .stop
        }
        let connection = gate.connection(to: host.port, security: joinerSecurity)
        let joinerSide = try await connection.run { link in
            try await playTimedMatch(.joiner, games: games, encrypted: encrypted, over: &link)
        }
        await host.stop()
        guard let hostOutcome = hostSide.outcome.withLock({ $0 }) else {
            throw BenchFailure("the host played no match")
        }
        let hostRoundTrips = try hostOutcome.get()
        return Samples(joinerSide + hostRoundTrips)
    }
}

/// The host's side of one match, as its `onMatch` leaves it (a class: a `Mutex` cannot be captured by the escaping
/// closure itself).
private final class HostSide: Sendable {
    let outcome = Mutex<Swift.Result<[Duration], BenchFailure>?>(nil)
}

/// Plays one side of a match of `games` games over `link` (every local move the first empty cell, a rematch until
/// `games` have been played) and returns the move round trips measured on this side. Throws unless the match
/// completes normally with `games` games inside the expected transport.
func playTimedMatch(
    _ role: MatchSession.Role, games: Int, encrypted: Bool, over link: inout PeerLink
) async throws -> [Duration] {
    guard (link.stats.secureSession != nil) == encrypted else {
        throw BenchFailure("the \(role) link is \(encrypted ? "not " : "")encrypted")
    }
    let clock = ContinuousClock()
    var roundTrips: [Duration] = []
    var session = MatchSession(role: role)
    // When our last move was written, while its answer is awaited.
    var movedAt: ContinuousClock.Instant?
    var pending = session.begin()
    while true {
        var closing = false
        var index = 0
        while index < pending.count {
            let action = pending[index]
            index += 1
            switch action {
            case .send(let message):
                if case .move = message { movedAt = clock.now }
                do {
                    try await link.send(message)
                } catch {
                    // The peer may close first once the match is over (both declined the rematch at once; TLS
                    // closes the whole connection at the peer's close_notify): our `bye` then has nowhere to go.
                    guard session.end == nil else { continue }
                    pending += session.connectionClosed()
                }
            case .emit(.gameOver):
                movedAt = nil  // a winning or drawing move gets no answer
            case .emit:
                break
            case .requestLocalMove:
                guard let cell = session.currentGame?.board.emptyCells.first else {
                    throw BenchFailure("the \(role) was asked to move on a full board")
                }
                pending += try session.playLocalMove(cell)
            case .requestRematchDecision:
                pending += session.decideRematch(session.score.gamesPlayed < games)
            case .close:
                closing = true
            case .startTurnTimer, .stopTurnTimer:
                break  // no turn time limit in the bench
            }
        }
        if closing {
            await link.closeGracefully()
        }
        if closing || session.end != nil { break }
        guard let message = try await link.next() else {
            pending = session.connectionClosed()
            continue
        }
        if case .move = message, let sent = movedAt {
            roundTrips.append(sent.duration(to: clock.now))
            movedAt = nil
        }
        pending = session.receive(message)
    }
    guard case .completed? = session.end, session.score.gamesPlayed == games else {
        throw BenchFailure(
            "the \(role)'s match ended \(session.end.map { "\($0)" } ?? "?") after \(session.score.gamesPlayed) games")
    }
    return roundTrips
}
