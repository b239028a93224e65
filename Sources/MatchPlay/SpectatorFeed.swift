import GameClient
import GameProtocol
import GameRules
import GameTransport
import Synchronization

/// Passes every report on to `reporter` and keeps the host's spectators (`SpectatorHub`) up to date: the players'
/// names, each game's marks, every move, each result and the score, published as the whole position after each
/// change. It is told what the match reports, so it sees exactly what the host's own transcript says.
package final class SpectatorFeed: MatchReporter {
    private let reporter: MatchReporter
    private let hub: SpectatorHub
    private let match: Mutex<WatchedMatch>

    package init(_ reporter: MatchReporter, hub: SpectatorHub) {
        self.reporter = reporter
        self.hub = hub
        self.match = Mutex(hub.latest)
    }

    package func report(_ report: MatchReport) {
        reporter.report(report)
        let changed = match.withLock { match -> WatchedMatch? in
            guard Self.apply(report, to: &match) else { return nil }
            return match
        }
        if let changed { hub.publish(changed) }
    }

    /// What `report` changes in `match`; false if nothing a spectator sees.
    static func apply(_ report: MatchReport, to match: inout WatchedMatch) -> Bool {
        switch report {
        case .connected(let peerName, _, _, _):
            // Shown with the first game, which follows at once.
            match = WatchedMatch(hostName: match.hostName, joinerName: peerName)
            return false
        case .session(.gameStarted(let number, let localMark, let firstMover)):
            match.game = UInt16(clamping: number)
            match.hostMark = localMark
            match.firstMover = firstMover
            match.board = Board()
            match.phase = .playing
            match.winner = nil
            match.ending = .none
        case .session(.moved(let mark, let cell, _)):
            guard (0..<Board.cellCount).contains(cell) else { return false }
            match.board[cell] = mark
        case .session(.gameOver(_, let result, let board, let score)):
            match.board = board
            match.phase = .over
            match.winner = result.winner
            match.ending = WatchedMatch.Ending(result.reason)
            match.hostWins = UInt16(clamping: score.localWins)
            match.joinerWins = UInt16(clamping: score.peerWins)
            match.draws = UInt16(clamping: score.draws)
        case .session(.matchOver):
            // The next joiner starts a new match: until then the last position stays, as waiting.
            match.phase = .waiting
        default:
            return false
        }
        return true
    }
}
