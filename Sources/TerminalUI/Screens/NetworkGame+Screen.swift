import GameClient
import GameProtocol
import GameRules
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

/// The network game's screen: a host or join waiting, the match, and how it ended.
extension NetworkGame: ScreenContent {
    var menuItem: MenuItem { role == .joiner ? .joinByAddress : security == .private ? .privateHost : .host }

    /// `below`: the screen under this one (the lobby, for the game hosted for a challenge).
    mutating func handle(_ key: Key, _ shared: inout Shared, below: AppModel.Screen?) -> Step {
        if isOver {
            // A failure screen (or a host's after a match): `r` tries again, Enter goes back like q and Esc.
            if key == .character("r"), retry != nil { return again(shared.settings) }
            if key == .enter { return leave() }
        }
        if key == .character("q") || key == .escape {
            if inMatch { return Step(.ask(Confirmation(.leave, gameInProgress: phase == .playing))) }  // it forfeits
            return leave()
        }
        if key == .character("R"), canResign { return Step(.ask(Confirmation(.resign))) }
        if key == .character("t"), !inMatch, !isOver, below?.isLobby != true {
            // Settings while waiting (e.g. for local network permission): the host or join keeps waiting.
            return Step([.loadPrivacyInfo], .push(.settings(SettingsScreen(row: .localNetwork))))
        }
        return Step(play(key, layout: BoardLayout(size: shared.size, top: 5)).map { [.command($0)] } ?? [])
    }

    /// Goes back: tells a connected peer (bye) and stops listening or connecting.
    func leave() -> Step {
        var effects: [AppEffect] = []
        if inMatch { effects.append(.command(.leave(.quit))) }
        if !isOver { effects.append(.cancelNetwork) }
        return Step(effects, .back)
    }

    /// Hosts or joins again what this game hosted or joined: after a failure, or (a host) to serve the next joiner
    /// after a match. Asks the gate again, as the first time did.
    private func again(_ settings: UISettings) -> Step {
        var next = again()
        if let lobbyGame = next.lobbyGame {
            let effects = next.startLobbyGame(lobbyGame, as: settings.name)
            return Step(effects, .replace(.network(next)))
        }
        let intent: NetworkIntent
        switch next.role {
        case .host:
            intent = .host(name: next.localName, port: next.requestedPort ?? settings.port,
                           isPrivate: next.security == .private)
        case .joiner:
            intent = .join(name: next.localName, address: next.target)
        }
        return Step([.checkNetwork(intent)], .replace(.network(next)))
    }

    /// Starts the lobby's game: no prompt of its own (the lobby was allowed; the game still goes through the gate and
    /// waits, saying why, if access was turned off since); a join counts down.
    mutating func startLobbyGame(_ game: LobbyGame, as name: String) -> [AppEffect] {
        let start = AppEffect.lobbyGame(name: name, game)
        guard case .join = game else { return [start] }
        startCountdown()
        return [start, .schedule(.connectCountdown, after: .seconds(1))]
    }

    /// Comes back from Settings: a join turned away for its code asks for it; a countdown counts on.
    func resumed() -> Step {
        if role == .joiner, codeRefused {
            let entry = CodeEntry(reason: code == nil ? .privateGame : .wrongCode, name: localName, target: target)
            return Step(.replace(.code(entry)))
        }
        // The countdown's timer found no network screen while Settings showed: it counts on from here.
        if phase == .connecting, connectSecondsLeft != nil { return Step([.schedule(.connectCountdown, after: .seconds(1))]) }
        return Step()
    }

    /// A network event. `lobbyBehind`: this is the game hosted for the person's challenge, and the lobby invites once
    /// it listens. A finished game is saved; a join turned away for its code (exit 13) asks for the code, to join the
    /// same game again.
    mutating func received(_ event: NetworkEvent, lobbyBehind: Bool) -> Step {
        apply(event)
        var effects: [AppEffect] = []
        if lobbyBehind, case .report(let report) = event {
            switch report {
            case .listening(_, let port, _, _, _): effects.append(.lobbyCommand(.hostListening(port)))
            case .connected: effects.append(.lobbyCommand(.hostConnected))
            default: break
            }
        }
        if case .report(.session(.gameOver(let number, let result, _, let score))) = event {
            effects += [.saveGame(record(number: number, result: result, score: score))]
        }
        if role == .joiner, codeRefused {
            let entry = CodeEntry(reason: code == nil ? .privateGame : .wrongCode, name: localName, target: target)
            return Step(effects, .replace(.code(entry)))
        }
        return Step(effects)
    }

    /// Game `number` as `tictactoe replay` reads it, from this player's side.
    func record(number: Int, result: GameResult, score: MatchSession.Score) -> GameRecord {
        let local = localMark ?? .x
        let peer = peerName ?? tr("the opponent")
        let first = game?.firstMover ?? .x
        let cells = game?.moves ?? []
        return GameRecord(
            number: number, line: 0, xName: local == .x ? localName : peer, oName: local == .o ? localName : peer,
            localMark: local, firstMover: first, cells: cells,
            marks: GameRecord.alternating(from: first, count: cells.count), result: result, score: score)
    }

    // MARK: Drawing

    func render(into canvas: inout Canvas, _ view: ScreenView) {
        let columns = view.size.columns
        let peer = DisplayWidth.truncate(peerName ?? "…", to: 20)
        let me = DisplayWidth.truncate(DisplayText.escaped(localName), to: 20)
        if let mark = localMark {
            canvas.putCentered(tr("You (%@): %@   %@: %@", me, mark.description, peer, mark.opponent.description),
                               row: 2)
            canvas.putCentered(tr("Game %@   Score: you %@ · %@ %@ · draws %@", String(number),
                                  String(score.localWins), peer, String(score.peerWins), String(score.draws)),
                               row: 3, style: .bold)
        } else if role == .host {
            let hosting = security == .private ? tr("Hosting a private game as %@", me) : tr("Hosting as %@", me)
            canvas.putCentered(hosting, row: 2)
        } else {
            canvas.putCentered(tr("Joining %@ as %@", target, me), row: 2)
        }
        let row4 = [advertisement, watchingLine].compactMap { $0 }.joined(separator: " · ")
        if !row4.isEmpty {
            canvas.putCentered(DisplayWidth.truncate(row4, to: columns - 2), row: 4, style: .dim)
        }
        if let board = game?.board ?? lastBoard {
            canvas.drawBoard(board, layout: BoardLayout(size: view.size, top: 5), cursor: isLocalTurn ? cursor : nil,
                             winning: winningCells(lastResult ?? game?.result), unicode: view.unicode)
        } else {
            renderWaiting(into: &canvas, view)
        }
        let line: String
        var style: Style = .bold
        switch phase {
        case .playing:
            line = isLocalTurn ? tr("Your turn (%@)", localMark?.description ?? "?") : tr("%@'s turn", peer)
        case .betweenGames:
            line = resultText(peer: peer) + (peerOffered ? tr(" %@ wants a rematch.", peer) : "")
            style = .accent
        case .ended(let why, let failed):
            line = lastResult != nil || game != nil ? why : ""
            style = failed ? .error : .accent
        default:
            line = ""
        }
        canvas.putCentered(DisplayWidth.truncate(line, to: columns - 2), row: 5 + BoardLayout.height + 1, style: style)
    }

    /// Before the match, where the board goes: what it waits for or why it ended, the countdown of a join; a
    /// waiting host's code, join lines and the failed attempts to join it.
    private func renderWaiting(into canvas: inout Canvas, _ view: ScreenView) {
        let size = view.size
        let text: String
        switch phase {
        case .listening(let port):
            text = challenged.map {
                tr("You challenged %@: waiting for them to accept and join on port %@…",
                   DisplayWidth.truncate(DisplayText.escaped($0), to: 32), String(port))
            } ?? tr("Waiting for someone to join on port %@…", String(port))
        case .ended(let why, _): text = why
        default: text = connection
        }
        let waiting = wrap(text, width: min(76, size.columns - 2))
        for (index, line) in waiting.enumerated() {
            canvas.putCentered(line, row: 10 + index, style: .bold)
        }
        if let countdownLine {
            canvas.putCentered(countdownLine, row: 10 + waiting.count, style: .dim)
        }
        guard role == .host, !isOver, !inMatch else { return }
        renderPrivateCode(into: &canvas, columns: size.columns, unicode: view.unicode)
        // The join lines, as many as fit with the failed attempts (which stay in view) under them.
        var attemptsRow = 11 + waiting.count
        if case .listening = phase {
            let last = size.rows - 3 - failedAttempts.count - (failedAttempts.isEmpty ? 0 : 1)
            let drawn = renderJoinLines(into: &canvas, columns: size.columns, rows: 10 + waiting.count..<last + 1)
            attemptsRow = 10 + waiting.count + drawn + 1
        }
        for (index, line) in failedAttempts.enumerated() {
            canvas.putCentered(DisplayWidth.truncate(line, to: size.columns - 2), row: attemptsRow + index,
                               style: .error)
        }
    }

    /// A waiting host's join lines in `rows`; how many rows it drew. The first one, the exact line to type, stands
    /// out; when not all fit, the last row says how many more there are.
    private func renderJoinLines(into canvas: inout Canvas, columns: Int, rows: Range<Int>) -> Int {
        let room = rows.count
        guard room > 0 else { return 0 }
        var shown = joinLines
        if shown.count > room {
            let more = String(joinLines.count - room + 1)
            shown = Array(joinLines.prefix(room - 1)) + [tr("and %@ more (tictactoe host lists them all)", more)]
        }
        for (index, line) in shown.enumerated() {
            canvas.putCentered(DisplayWidth.truncate(line, to: columns - 2), row: rows.lowerBound + index,
                               style: index == 0 ? .accent : .normal)
        }
        return shown.count
    }

    /// A private host's code, on a highlighted line at the top: "Code: 482 913 — give it to the player who joins", or
    /// the code that replaced it, with why.
    private func renderPrivateCode(into canvas: inout Canvas, columns: Int, unicode: Bool) {
        guard let privateCode else { return }
        let shown = CodeEntry.grouped(privateCode)
        let width = min(76, columns - 2)
        let lines: [String]
        if let reason = codeReplacedBecause {
            lines = wrap(tr("New code: %@ (%@)", shown, DisplayText.escaped(reason)), width: width)
                + wrap(tr("Give it to the player who joins: the old code no longer works"), width: width)
        } else {
            lines = wrap(tr("Code: %@ %@ give it to the player who joins", shown, unicode ? "—" : "-"), width: width)
        }
        for (index, line) in lines.prefix(4).enumerated() {
            canvas.putCentered(line, row: 5 + index, style: index == 0 ? .title : .bold)
        }
    }

    /// How the last game ended, from this player's side.
    private func resultText(peer: String) -> String {
        guard let result = lastResult else { return "" }
        switch (result.winner, result.reason) {
        case (nil, _): return tr("Draw.")
        case (localMark?, .resignation): return tr("%@ resigned: you win!", peer)
        case (localMark?, .forfeit): return tr("%@ left: you win.", peer)
        case (localMark?, .timeout): return tr("%@ ran out of time: you win.", peer)
        case (localMark?, _): return tr("You win!")
        case (_, .resignation): return tr("You resigned.")
        case (_, .timeout): return tr("You ran out of time.")
        default: return tr("%@ wins.", peer)
        }
    }

    func hints(_ view: ScreenView) -> String {
        switch phase {
        case .playing: return tr("arrows/1-9/Enter place · R resign · q leave · ? help")
        case .betweenGames: return tr("r rematch · n no more · q leave · ? help")
        case .ended:
            switch retry {
            case .waitForAnotherPlayer?: return tr("Wait for another player? r waits · Enter or q back to the menu")
            case .retry?: return tr("r retry · Enter or q back to the menu")
            case nil: return tr("q back to the menu")
            }
        default: return tr("t settings (the wait goes on) · q cancel")
        }
    }

    func statusText(_ view: ScreenView) -> String { statusLine }
}
