import Foundation
import Synchronization
import GameClient
import GameProtocol
import GameRules

/// A readable transcript with the board after every move, on standard output; problems also go to standard error.
/// Every text that came from outside (the peer's name, its reasons and errors, Bonjour names, error messages that
/// quote them) is shown through `DisplayText.escaped`, so none of it can act on the terminal.
public final class TranscriptReporter: MatchReporter, Sendable {
    /// What the transcript knows so far (who the opponent is, the board), behind a lock: reports come from several
    /// tasks.
    private struct State {
        var peerName = "opponent"
        var localMark: Mark = .x
        var board = Board()
        var announced = false
        /// The last connection failure written ("Connection failed: …"): the run's closing error that only repeats it
        /// is not written again.
        var lastFailure: String?
        /// Where a join connects: the address typed, or the first one its name resolved to.
        var connectingTo: String?

        func name(of side: MatchSession.Side) -> String { side == .local ? "you" : peerName }
        func name(of mark: Mark) -> String { mark == localMark ? "you" : peerName }

        func scoreLine(_ score: MatchSession.Score) -> String {
            "you \(score.localWins), \(peerName) \(score.peerWins), draws \(score.draws)"
        }
    }

    private let state = Mutex(State())
    private let localName: String
    /// A join's target as typed (an address or a game's name), for "Connecting to …".
    private let target: String?
    private let write: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void
    private let unicode: Bool

    public init(
        localName: String,
        target: String? = nil,
        unicode: Bool = false,
        write: @escaping @Sendable (String) -> Void = { CheckedOutput.standardOutput.writeLine($0) },
        writeError: @escaping @Sendable (String) -> Void = { CheckedOutput.standardError.writeLine($0) }
    ) {
        self.localName = DisplayText.escaped(localName)
        self.target = target.map(DisplayText.escaped)
        self.unicode = unicode
        self.write = write
        self.writeError = writeError
    }

    private func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }

    public func report(_ report: MatchReport) {
        // One report's lines are written together, in the order reports come.
        state.withLock { state in render(report, &state) }
    }

    private func render(_ report: MatchReport, _ s: inout State) {
        switch report {
        case .seed(let seed):
            write("Seed \(seed) (replay with --seed \(seed))")
        case .listening(let host, let port, _, let security, let addresses):
            if s.announced {
                // Where joiners come: the first join address (the bind host only when no address is known, and
                // never as ":::PORT").
                let place = addresses.first.map { "\($0)" } ?? Endpoint(host: host, port: port).description
                write("Waiting for the next joiner at \(place)")
                return
            }
            s.announced = true
            for line in Self.hostingLines(name: localName, port: port, security: security, addresses: addresses) {
                write(line)
            }
        case .codeReplaced(let reason):
            write("The game's code was replaced after \(DisplayText.escaped(reason)); the new code is on stderr")
        case .connectionState(let state):
            switch state {
            case .waiting(let reason): write("Waiting: \(DisplayText.escaped(reason.description))")
            case .preparing: write("Connecting to \(s.connectingTo ?? target ?? "the host")…")
            case .failed(let error):
                s.lastFailure = error.description
                writeError("Connection failed: \(DisplayText.escaped(error.description))")
            default: break
            }
        case .connected(let peer, let address, _, let cipher):
            s.peerName = DisplayText.escaped(peer)
            let encrypted = cipher.map { ", encrypted (TLS 1.2, \($0))" } ?? ""
            write("Connected to \(s.peerName) (\(DisplayText.escaped(address)))\(encrypted)")
        case .session(let event):
            switch event {
            case .gameStarted(let number, let mark, let first):
                s.localMark = mark
                s.board = Board()
                write("")
                write("Game \(number): you play \(mark), \(s.peerName) plays \(mark.opponent); \(s.name(of: first)) (\(first)) move\(first == mark ? "" : "s") first")
            case .moved(let mark, let cell, let side):
                s.board[cell] = mark
                write("  \(s.name(of: side)) (\(mark)) plays \(cell + 1)")
                write(indented(s.board.rendered(unicode: unicode)))
            case .gameOver(let number, let result, _, let score):
                let outcome: String
                switch (result.winner, result.reason) {
                case (nil, _): outcome = "draw"
                case (let winner?, .line(let cells)):
                    outcome = "\(s.name(of: winner)) (\(winner)) \(winner == s.localMark ? "win" : "wins") with \(cells.map { String($0 + 1) }.joined(separator: "-"))"
                case (let winner?, .resignation): outcome = "\(s.name(of: winner.opponent)) resigned; \(s.name(of: winner)) (\(winner)) \(winner == s.localMark ? "win" : "wins")"
                case (let winner?, .forfeit): outcome = "\(s.name(of: winner.opponent)) left; \(s.name(of: winner)) (\(winner)) \(winner == s.localMark ? "win" : "wins")"
                case (let winner?, .timeout):
                    outcome = "\(s.name(of: winner.opponent)) ran out of time; \(s.name(of: winner)) (\(winner)) "
                        + (winner == s.localMark ? "win" : "wins")
                case (let winner?, .draw): outcome = "\(s.name(of: winner)) won"
                }
                write("Game \(number): \(outcome). Score: \(s.scoreLine(score))")
            case .rematchOffered:
                write("\(s.peerName) offers a rematch")
            case .matchOver(let end, let score):
                // "Match over." alone when we ended it normally ("Match over: completed" says nothing more).
                let why = end == .completed(by: .local) ? "" : ": \(DisplayText.escaped(end.text))"
                let line = "Match over\(why). Score: \(s.scoreLine(score))"
                if end.exitStatus == .success { write(line) } else { writeError(line) }
            }
        case .rejectedBusy(let remote):
            writeError("Turned away \(DisplayText.escaped(remote)): busy with a game")
        case .peerFailed(let remote, let error):
            writeError("Connection from \(DisplayText.escaped(remote)) ended: \(DisplayText.escaped(error))")
        case .summary(let summary):
            let games = summary.score.gamesPlayed
            var line = "Summary: \(games) \(games == 1 ? "game" : "games"); \(s.scoreLine(summary.score)); seed \(summary.seed)"
            if let rtt = summary.roundTripMilliseconds { line += String(format: "; round trip %.2f ms", rtt) }
            write(line)
        case .error(let message, _):
            guard message != s.lastFailure else { return }  // "Connection failed: …" just said it
            writeError("tictactoe: \(DisplayText.escaped(message))")
        case .localMoveRejected(let why):
            writeError("Move refused: \(DisplayText.escaped(why))")
        case .discovery(let report):
            if case .resolved(_, let addresses) = report, let first = addresses.first {
                s.connectingTo = DisplayText.escaped(first)
            }
            guard let (line, isProblem) = report.textLine else { return }
            if isProblem { writeError(line) } else { write(line) }
        }
    }
}

extension TranscriptReporter {
    /// What a host prints once it listens: where, and the exact `tictactoe join` line for each address a joiner can
    /// use (the first on the first line, the others on the lines after it, link-local last with its note).
    static func hostingLines(name: String, port: Int, security: GameSecurity, addresses: [JoinAddress]) -> [String] {
        let flags: String
        let why: String
        switch security {
        case .open: (flags, why) = ("", "")
        case .private: (flags, why) = (" --code-file FILE", " (a private game: the code is on stderr)")
        case .plaintext: (flags, why) = (" --plaintext", " (unencrypted)")
        }
        func join(_ address: JoinAddress) -> String {
            let line = "tictactoe join \(address.joinTarget())\(flags)"
            return address.kind == .linkLocal ? line + " (\(JoinAddress.linkLocalNote))" : line
        }
        guard let first = addresses.first else {
            return ["Hosting as \(name) on port \(port). Join with: tictactoe join ADDRESS:\(port)\(flags)\(why)"
                + " (this machine has no network address now: see ip addr)"]
        }
        let hosting = addresses.onlyThisMachine
            ? "Hosting as \(name) on \(first.description): only this machine can join."
            : "Hosting as \(name) on port \(port)."
        return ["\(hosting) Join with: \(join(first))\(why)"] + addresses.dropFirst().map { "  or: \(join($0))" }
    }
}
