import AppProcess
import FoundationEssentials
import GameClient
import GameProtocol
import GameRules
import Localization
import Synchronization
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

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
            tr("you %@, %@ %@, draws %@", "\(score.localWins)", peerName, "\(score.peerWins)", "\(score.draws)")
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
            write(tr("Seed %@ (replay with --seed %@)", "\(seed)", "\(seed)"))
        case .listening(let host, let port, _, let security, let addresses):
            if s.announced {
                // Where joiners come: the first join address (the bind host only when no address is known, and
                // never as ":::PORT").
                let place = addresses.first.map { "\($0)" } ?? Endpoint(host: host, port: port).description
                write(tr("Waiting for the next joiner at %@", place))
                return
            }
            s.announced = true
            for line in Self.hostingLines(name: localName, port: port, security: security, addresses: addresses) {
                write(line)
            }
        case .codeReplaced(let reason):
            write(tr("The game's code was replaced after %@; the new code is on stderr", DisplayText.escaped(reason)))
        case .connectionState(let state):
            switch state {
            case .waiting(let reason): write(tr("Waiting: %@", DisplayText.escaped(reason.description)))
            case .preparing: write(tr("Connecting to %@…", s.connectingTo ?? target ?? tr("the host")))
            case .failed(let error):
                s.lastFailure = error.description
                writeError(tr("Connection failed: %@", DisplayText.escaped(error.description)))
            default: break
            }
        case .connected(let peer, let address, _, let cipher):
            s.peerName = DisplayText.escaped(peer)
            let address = DisplayText.escaped(address)
            write(cipher.map { tr("Connected to %@ (%@), encrypted (TLS 1.2, %@)", s.peerName, address, $0) }
                ?? tr("Connected to %@ (%@)", s.peerName, address))
        case .session(let event):
            renderSession(event, &s)
        case .rejectedBusy(let remote):
            writeError(tr("Turned away %@: busy with a game", DisplayText.escaped(remote)))
        case .peerFailed(let remote, let error):
            writeError(tr("Connection from %@ ended: %@", DisplayText.escaped(remote), DisplayText.escaped(error)))
        case .summary(let summary):
            let games = summary.score.gamesPlayed
            var line = games == 1
                ? tr("Summary: 1 game; %@; seed %@", s.scoreLine(summary.score), "\(summary.seed)")
                : tr("Summary: %@ games; %@; seed %@", "\(games)", s.scoreLine(summary.score), "\(summary.seed)")
            if let rtt = summary.roundTrip {
                line += tr("; round trip %@ ms", Self.twoDecimals(rtt.milliseconds))
            }
            write(line)
        case .error(let message, _):
            guard message != s.lastFailure else { return }  // "Connection failed: …" just said it
            writeError("tictactoe: \(DisplayText.escaped(message))")
        case .localMoveRejected(let why):
            writeError(tr("Move refused: %@", DisplayText.escaped(why)))
        case .discovery(let report):
            if case .resolved(_, let addresses) = report, let first = addresses.first {
                s.connectingTo = DisplayText.escaped(first)
            }
            guard let (line, isProblem) = report.textLine else { return }
            if isProblem { writeError(line) } else { write(line) }
        case .lobby(let event):
            write(event.text(shownName: localName))
        case .engineStarted(let name, let pid, let log):
            write(tr("Engine '%@' started (pid %@; stderr: %@)", DisplayText.escaped(name), "\(pid)",
                     DisplayText.escaped(log)))
        case .engineFailed(let game, let engine, _, let reason, let log):
            // The game's end follows ("you resigned; … wins").
            write(tr("Game %@: engine '%@' %@; it loses the game (stderr: %@)", "\(game)", DisplayText.escaped(engine),
                     DisplayText.escaped(reason), DisplayText.escaped(log)))
        case .spectator(let name, let address, let joined, let watching):
            let who = DisplayText.escaped(name)
            let address = DisplayText.escaped(address)
            write(joined ? tr("Spectator %@ (%@) is watching (%@ now)", who, address, "\(watching)")
                         : tr("Spectator %@ (%@) left (%@ now)", who, address, "\(watching)"))
        case .watched(let match):
            for line in Self.watchLines(match, unicode: unicode) { write(line) }
        case .watchEnded(let end):
            let line = tr("Watch over: %@", DisplayText.escaped(end.text))
            if end.exitStatus == .success { write(line) } else { writeError(line) }
        }
    }

    /// A match session's event: the games, each move with the board, their ends, the match's end.
    private func renderSession(_ event: MatchSession.Event, _ s: inout State) {
        switch event {
        case .gameStarted(let number, let mark, let first):
            s.localMark = mark
            s.board = Board()
            write("")
            write(first == mark
                ? tr("Game %@: you play %@, %@ plays %@; you (%@) move first", "\(number)", "\(mark)", s.peerName,
                     "\(mark.opponent)", "\(first)")
                : tr("Game %@: you play %@, %@ plays %@; %@ (%@) moves first", "\(number)", "\(mark)", s.peerName,
                     "\(mark.opponent)", s.peerName, "\(first)"))
        case .moved(let mark, let cell, let side):
            s.board[cell] = mark
            write(side == .local ? tr("  you (%@) play %@", "\(mark)", "\(cell + 1)")
                                 : tr("  %@ (%@) plays %@", s.peerName, "\(mark)", "\(cell + 1)"))
            write(indented(s.board.rendered(unicode: unicode)))
        case .gameOver(let number, let result, _, let score):
            let outcome: String
            // One sentence per winner (you or the peer): a translator words each whole.
            switch (result.winner, result.reason) {
            case (nil, _): outcome = tr("draw")
            case (let winner?, .line(let cells)):
                let line = cells.map { String($0 + 1) }.joined(separator: "-")
                outcome = winner == s.localMark ? tr("you (%@) win with %@", "\(winner)", line)
                    : tr("%@ (%@) wins with %@", s.peerName, "\(winner)", line)
            case (let winner?, .resignation):
                outcome = winner == s.localMark ? tr("%@ resigned; you (%@) win", s.peerName, "\(winner)")
                    : tr("you resigned; %@ (%@) wins", s.peerName, "\(winner)")
            case (let winner?, .forfeit):
                outcome = winner == s.localMark ? tr("%@ left; you (%@) win", s.peerName, "\(winner)")
                    : tr("you left; %@ (%@) wins", s.peerName, "\(winner)")
            case (let winner?, .timeout):
                outcome = winner == s.localMark ? tr("%@ ran out of time; you (%@) win", s.peerName, "\(winner)")
                    : tr("you ran out of time; %@ (%@) wins", s.peerName, "\(winner)")
            case (let winner?, .draw): outcome = tr("%@ won", s.name(of: winner))
            }
            write(tr("Game %@: %@. Score: %@", "\(number)", outcome, s.scoreLine(score)))
        case .rematchOffered:
            write(tr("%@ offers a rematch", s.peerName))
        case .matchOver(let end, let score):
            // "Match over." alone when it ended normally, whichever side played no more ("Match over: completed"
            // says nothing more).
            let line = end == .completed(by: .local) || end == .completed(by: .peer)
                ? tr("Match over. Score: %@", s.scoreLine(score))
                : tr("Match over: %@. Score: %@", DisplayText.escaped(end.text), s.scoreLine(score))
            if end.exitStatus == .success { write(line) } else { writeError(line) }
        }
    }
}

extension TranscriptReporter {
    /// What a spectator reads for each position the host sends: who plays what, whose move it is or how the game
    /// ended, the score, and the board.
    static func watchLines(_ match: WatchedMatch, unicode: Bool) -> [String] {
        let host = DisplayText.escaped(match.hostName)
        let joiner = DisplayText.escaped(match.joinerName)
        guard match.phase != .waiting, let hostMark = match.hostMark else {
            return [tr("Watching %@: waiting for a player", host)]
        }
        func named(_ mark: Mark) -> String { "\(mark == hostMark ? host : joiner) (\(mark))" }
        var lines = [""]
        let players = tr("Game %@: %@ vs %@", "\(match.game)", named(.x), named(.o))
        if let toMove = match.toMove {
            lines.append(players + "; " + tr("%@ to move", named(toMove)))
        } else if let winner = match.winner {
            let how: String
            switch match.ending {
            case .resignation: how = tr("%@ wins: the other resigned", named(winner))
            case .forfeit: how = tr("%@ wins: the other left", named(winner))
            case .timeout: how = tr("%@ wins: the other ran out of time", named(winner))
            default: how = tr("%@ wins", named(winner))
            }
            lines.append(players + "; " + how)
        } else {
            lines.append(players + "; " + tr("draw"))
        }
        lines.append(match.board.rendered(unicode: unicode).split(separator: "\n").map { "    " + $0 }
            .joined(separator: "\n"))
        if match.phase == .over {
            lines.append(tr("Score: %@ %@, %@ %@, draws %@", host, "\(match.hostWins)", joiner, "\(match.joinerWins)",
                            "\(match.draws)"))
        }
        return lines
    }

    /// What a host prints once it listens: where, and the exact `tictactoe join` line for each address a joiner can
    /// use (the first on the first line, the others on the lines after it, link-local last with its note).
    static func hostingLines(name: String, port: Int, security: GameSecurity, addresses: [JoinAddress]) -> [String] {
        let flags: String
        let why: String
        switch security {
        case .open: (flags, why) = ("", "")
        case .private: (flags, why) = (" --code-file FILE", tr(" (a private game: the code is on stderr)"))
        case .plaintext: (flags, why) = (" --plaintext", tr(" (unencrypted)"))
        }
        func join(_ address: JoinAddress) -> String {
            let line = "tictactoe join \(address)\(flags)"
            return address.kind == .linkLocal ? line + " (\(JoinAddress.linkLocalNote))" : line
        }
        guard let first = addresses.first else {
            return [tr("Hosting as %@ on port %@. Join with: %@%@ (this machine has no network address now: see ip addr)",
                       name, "\(port)", "tictactoe join ADDRESS:\(port)\(flags)", why)]
        }
        let hosting = addresses.onlyThisMachine
            ? tr("Hosting as %@ on %@: only this machine can join.", name, first.description)
            : tr("Hosting as %@ on port %@.", name, "\(port)")
        return [tr("%@ Join with: %@%@", hosting, join(first), why)] + addresses.dropFirst().map { tr("  or: %@", join($0)) }
    }

    /// `value` with two decimals, rounded half away from zero ("0.25", "12.00"): `String(format:)` is Foundation's.
    static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((abs(value) * 100).rounded())
        let sign = value < 0 && hundredths != 0 ? "-" : ""
        let fraction = hundredths % 100
        return "\(sign)\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

}
