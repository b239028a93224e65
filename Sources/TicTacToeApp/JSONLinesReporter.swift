import Foundation
import GameProtocol
import GameRules
import GameTransport

/// One JSON object per line on standard output (keys sorted; cells numbered 1-9 in reading order).
public final class JSONLinesReporter: MatchReporter, @unchecked Sendable {
    private let lock = NSLock()
    private let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void = { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }) {
        self.write = write
    }

    public func report(_ report: MatchReport) {
        guard let object = Self.object(for: report) else { return }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
              let line = String(data: data, encoding: .utf8)
        else { return }
        lock.lock()
        defer { lock.unlock() }
        write(line)
    }

    static func score(_ score: MatchSession.Score) -> [String: Any] {
        ["wins": score.localWins, "losses": score.peerWins, "draws": score.draws, "games": score.gamesPlayed]
    }

    static func object(for report: MatchReport) -> [String: Any]? {
        switch report {
        case .seed(let seed):
            return ["event": "seed", "seed": seed]
        case .listening(let host, let port, let name):
            return ["event": "listening", "host": host, "port": port, "name": name]
        case .connectionState(let state):
            var object: [String: Any] = ["event": "state", "state": state.name]
            switch state {
            case .waiting(let reason): object["reason"] = reason.description
            case .failed(let error): object["error"] = error.description
            case .ready(let name): object["peer"] = name
            default: break
            }
            return object
        case .connected(let peerName, let address, let role):
            return ["event": "connected", "peer": DisplayText.sanitize(peerName), "address": address, "role": role.rawValue]
        case .session(let event):
            switch event {
            case .gameStarted(let number, let localMark, let firstMover):
                return ["event": "game-start", "game": number, "you": localMark.description, "first": firstMover.description]
            case .moved(let mark, let cell, let side):
                return ["event": "move", "mark": mark.description, "cell": cell + 1, "by": side.rawValue]
            case .gameOver(let number, let result, let board, let score):
                var object: [String: Any] = [
                    "event": "game-over", "game": number, "board": board.compactText, "score": Self.score(score),
                    "winner": result.winner.map { $0.description } ?? NSNull(),
                ]
                switch result.reason {
                case .line(let cells):
                    object["reason"] = "line"
                    object["line"] = cells.map { $0 + 1 }
                case .draw: object["reason"] = "draw"
                case .resignation(let mark):
                    object["reason"] = "resignation"
                    object["resigned"] = mark.description
                case .forfeit(let mark):
                    object["reason"] = "forfeit"
                    object["forfeited"] = mark.description
                }
                return object
            case .rematchOffered:
                return ["event": "rematch-offered"]
            case .matchOver(let end, let score):
                return ["event": "match-over", "end": end.name, "detail": end.text, "score": Self.score(score)]
            }
        case .rejectedBusy(let remote):
            return ["event": "busy-rejected", "remote": remote]
        case .peerFailed(let remote, let error):
            return ["event": "peer-failed", "remote": remote, "error": error]
        case .summary(let summary):
            var object: [String: Any] = [
                "event": "summary", "seed": summary.seed, "exit": Int(summary.exit.rawValue), "end": summary.end,
            ].merging(Self.score(summary.score)) { a, _ in a }
            if let rtt = summary.roundTripMilliseconds { object["rtt_ms"] = (rtt * 1000).rounded() / 1000 }
            return object
        case .error(let message, let exit):
            return ["event": "error", "message": message, "exit": Int(exit.rawValue)]
        case .localMoveRejected(let why):
            return ["event": "move-rejected", "error": why]
        case .discovery(let report):
            return report.jsonObject
        }
    }
}
