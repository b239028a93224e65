import GameProtocol
import GameTransport
import TicTacToeTestSupport
import XCTest

/// Plays a match over a real `PeerLink` with a `MatchSession`: the local moves come from `moves` in order, and the
/// side never wants a rematch. Carries out the session's actions like the app's match runner does, closes
/// gracefully when the session says so, and returns the session at the end.
func playScriptedMatch(_ role: MatchSession.Role, moves: [Int], over link: inout PeerLink) async -> MatchSession {
    var session = MatchSession(role: role)
    var moves = moves[...]
    var pending = session.begin()
    while true {
        var closing = false
        var index = 0
        while index < pending.count {
            let action = pending[index]
            index += 1
            switch action {
            case .send(let message):
                do {
                    try await link.send(message)
                } catch {
                    pending += session.connectionClosed()
                }
            case .emit:
                break
            case .requestLocalMove:
                if let cell = moves.popFirst(), let actions = try? session.playLocalMove(cell) {
                    pending += actions
                } else {
                    pending += session.leave(.quit)
                }
            case .requestRematchDecision:
                pending += session.decideRematch(false)
            case .close:
                closing = true
            case .startTurnTimer, .stopTurnTimer:
                break  // no time limit here: the session asks for no timer
            }
        }
        if closing {
            await link.closeGracefully()
            return session
        }
        if session.end != nil { return session }
        do {
            if let message = try await link.next() {
                pending = session.receive(message)
            } else {
                pending = session.connectionClosed()
            }
        } catch {
            pending = session.connectionClosed(.peerTimedOut("\(error)"))
        }
    }
}

/// Joins through `connection` and plays the joiner's side of the scripted match the secure tests share (cells 0, 1,
/// 2 against the host's 3, 4: the joiner wins), checking the host's name; returns the joiner's session and the TLS
/// session its link reported.
func playJoinerSide(
    of connection: GameConnection, hostName: String = "Host", _ what: String
) async throws -> (MatchSession, SecureSession?) {
    try await within(20, what) {
        try await connection.run { link -> (MatchSession, SecureSession?) in
            XCTAssertEqual(link.peerName, hostName)
            let security = link.stats.secureSession
            return (await playScriptedMatch(.joiner, moves: [0, 1, 2], over: &link), security)
        }
    }
}
