import GameProtocol
import GameRules
import GameClient
import Localization
import TextSupport

enum MenuLayout {
    static func firstRow(size: TerminalSize) -> Int { max(4, (size.rows - AppModel.menuItems.count) / 2 - 1) }
}

extension AppModel {
    /// Draws the whole screen.
    public func render(unicode: Bool) -> Canvas {
        var canvas = Canvas(size: size)
        if isTooSmall {
            var lines = [
                tr("The window is too small:"),
                tr("make the window at least %@x%@", String(minimumSize.columns), String(minimumSize.rows)),
                tr("(now %@x%@; q quits)", String(size.columns), String(size.rows)),
            ]
            if let confirmation {
                lines = ([confirmation.title, confirmation.consequence ?? ""] + [confirmation.keys])
                    .flatMap { $0.isEmpty ? [$0] : wrap($0, width: size.columns) }
            }
            let top = max(0, size.rows / 2 - 1)
            for (i, line) in lines.enumerated() {
                canvas.put(DisplayWidth.truncate(line, to: size.columns), row: top + i, column: 0, style: i == 1 ? .bold : .normal)
            }
            return canvas
        }
        canvas.putCentered(tr("TicTacToe"), row: 0, style: .title)
        var status = ""
        var hints = ""
        switch screen {
        case .menu(let selected):
            renderMenu(&canvas, selected: selected)
            hints = tr("↑/↓ or j/k choose · Enter or a letter picks · ? help")
        case .computer(let game):
            renderComputer(&canvas, game, unicode: unicode)
            hints = game.game.isOver
                ? tr("r rematch · q back to the menu · ? help")
                : tr("arrows/hjkl/wasd move · Enter/Space or 1-9 place · click · q back · ? help")
            status = tr("Against the computer (%@)", game.opponentTitle)
        case .form(let form):
            renderForm(&canvas, form)
            if form.offeredName != nil {
                hints = tr("s or Enter searches for it · any other key edits · Esc back")
            } else if form.kind == .join && form.field == 1 {
                hints = tr(
                    "Enter joins · ↑/↓ earlier addresses · Ctrl-U clears · Ctrl-W deletes a word · Tab name · Esc back")
            } else if form.field == 2 {
                hints = tr("←/→ how many may watch · Tab switches field · Enter starts hosting · Esc back")
            } else {
                switch form.kind {
                case .watch: hints = tr("Tab switches field · Enter watches · Esc back")
                case .host: hints = tr("Tab switches field · Enter starts hosting · Esc back")
                case .join: hints = tr("Tab switches field · Enter joins · Esc back")
                case .engine: hints = tr("Tab switches field · Enter starts the game · Esc back")
                }
            }
        case .code(let entry):
            renderCodeEntry(&canvas, entry)
            hints = entry.watching ? tr("Enter watches with this code · Esc back") : tr("Enter joins with this code · Esc back")
            status = entry.status
        case .network(let game):
            renderNetwork(&canvas, game, unicode: unicode)
            status = game.statusLine
            switch game.phase {
            case .playing: hints = tr("arrows/1-9/Enter place · R resign · q leave · ? help")
            case .betweenGames: hints = tr("r rematch · n no more · q leave · ? help")
            case .ended:
                switch game.retry {
                case .waitForAnotherPlayer?:
                    hints = tr("Wait for another player? r waits · Enter or q back to the menu")
                case .retry?: hints = tr("r retry · Enter or q back to the menu")
                case nil: hints = tr("q back to the menu")
                }
            default: hints = tr("t settings (the wait goes on) · q cancel")
            }
        case .watch(let watch):
            renderWatch(&canvas, watch, unicode: unicode)
            status = watch.connection
            hints = watch.isOver ? tr("Enter or q back to the menu") : tr("q stops watching · ? help")
        case .search(let search):
            renderSearch(&canvas, search)
            hints = tr("↑/↓ choose · Enter joins · w watches · a by address · t settings · q back")
            if search.cannotSearch { hints = tr("r search again · a join by address · t settings · q back") }
            switch search.status {
            case .starting:
                // Behind the permission prompt nothing searches until it is answered.
                status = prompt == nil ? tr("Searching for games…") : tr("Not searching yet")
            case .available:
                status = search.games.isEmpty ? tr("Searching: no games yet") : GameList.summary(of: search.games)
            case .unavailable(let message): status = DisplayText.escaped(message)
            case .waiting: status = tr("Waiting for local network access")  // the screen says why
            case .failed(let text): status = DisplayText.escaped(text)
            }
        case .serviceTypes(let types):
            renderServiceTypes(&canvas, types)
            hints = types.cannotList ? tr("r try again · q back to the search") : tr("↑/↓ scroll · q back to the search")
            switch types.status {
            case .starting: status = tr("Looking for services…")
            case .available:
                status = Self.counted(types.types.count, none: tr("Looking: no services yet"),
                                      one: tr("1 service type"), many: { tr("%@ service types", $0) })
            case .unavailable(let message): status = DisplayText.escaped(message)
            case .waiting: status = tr("Waiting for local network access")
            case .failed(let text): status = DisplayText.escaped(text)
            }
        case .lobby(let lobby):
            renderLobby(&canvas, lobby)
            if lobby.greeting != nil {
                hints = tr("Enter says it to everyone · Esc cancels")
            } else if !lobby.invitations.isEmpty {
                hints = tr("y accepts the challenge · n declines")
            } else if lobby.isLeft {
                hints = tr("r joins again · t settings · q back")
            } else if !lobby.isJoined {
                hints = tr("t settings (the lobby waits) · q back")
            } else {
                hints = tr("↑/↓ choose · c challenges · g greets everyone · t settings · q leaves")
            }
            switch lobby.status {
            case .starting: status = tr("Joining the lobby…")
            case .waiting: status = tr("Waiting for local network access")
            case .joined:
                status = Self.counted(lobby.members.count, none: tr("In the lobby: nobody else yet"),
                                      one: tr("In the lobby with 1 player"), many: { tr("In the lobby with %@ players", $0) })
            case .left(let text): status = DisplayText.escaped(text)
            }
        case .replay(let viewer):
            renderReplay(&canvas, viewer, unicode: unicode)
            hints = replayOnly ? tr("←/→ step · Home/End first/last move · q quits")
                : tr("←/→ step · Home/End first/last move · q back")
            status = tr("Replay of %@", DisplayText.escaped(viewer.title))
        case .pastGames(let games, let selected):
            renderPastGames(&canvas, games, selected: selected)
            hints = tr("↑/↓ choose · Enter replays · q back")
            status = tr("Saved games: %@", String(games?.count ?? 0))
        case .settings(let selected):
            renderSettings(&canvas, selected: selected)
            hints = tr("↑/↓ choose · ←/→ or Enter change · type to edit the name · Esc back")
            switch privacy?.state {
            case .allowed?: status = tr("Local network access: allowed")
            case .denied?: status = tr("Local network access: denied")
            case .notDetermined?: status = tr("Local network access: not asked yet")
            case nil: break
            }
            if suspended != nil { hints = tr("↑/↓ choose · ←/→ or Enter change · Esc back to the waiting game") }
            if searchSuspended { hints = tr("↑/↓ choose · ←/→ or Enter change · Esc back to the search") }
            if lobbyBehind != nil { hints = tr("↑/↓ choose · ←/→ or Enter change · Esc back to the lobby") }
        }
        if let flash { status = flash }
        if let prompt { hints = tr("←/→ choose · Enter answers · o %@ · d %@", prompt.ok, prompt.deny) }
        if !unicode { hints = hints.replacing("·", with: "|").replacing("↑/↓", with: "up/down")
            .replacing("←/→", with: "left/right") }
        if settings.keyHints && prompt == nil {  // Settings › Key hints
            canvas.put(DisplayWidth.truncate(hints, to: size.columns - 1), row: size.rows - 2, column: 1, style: .dim)
        }
        canvas.put(String(repeating: " ", count: size.columns), row: size.rows - 1, column: 0, style: .status)
        canvas.put(DisplayWidth.truncate(status, to: size.columns - 2), row: size.rows - 1, column: 1, style: .status)
        if let prompt {
            renderPrompt(&canvas, prompt, unicode: unicode)
            canvas.put(String(repeating: " ", count: size.columns), row: size.rows - 2, column: 0)
            canvas.put(DisplayWidth.truncate(hints, to: size.columns - 1), row: size.rows - 2, column: 1, style: .dim)
        }
        if let confirmation {
            renderConfirmation(&canvas, confirmation, unicode: unicode)
            canvas.put(String(repeating: " ", count: size.columns), row: size.rows - 2, column: 0)
        }
        if showHelp { renderHelp(&canvas, unicode: unicode) }
        return canvas
    }

    private func renderMenu(_ canvas: inout Canvas, selected: Int) {
        let top = MenuLayout.firstRow(size: size)
        canvas.putCentered(tr("Two players, one LAN, nine cells."), row: top - 2, style: .dim)
        let width = 34
        let left = max(0, (size.columns - width) / 2)
        for (index, item) in Self.menuItems.enumerated() {
            let style: Style = index == selected ? .selected : .normal
            let line = " [\(item.shortcut)] \(tr(item.title))"
            canvas.put(DisplayWidth.fit(line, to: width), row: top + index, column: left, style: style)
            canvas.restyle(row: top + index, column: left + 2, width: 1, style: index == selected ? .selected : .accent)
        }
        canvas.putCentered(tr("Playing as %@", DisplayWidth.truncate(DisplayText.escaped(settings.name), to: 32)),
                           row: top + Self.menuItems.count + 1, style: .dim)
    }

    /// `numbered`: empty cells show their numbers (the keys that place there); a read-only board leaves them blank.
    private func renderBoard(_ canvas: inout Canvas, board: Board, cursor: Int?, winning: [Int], unicode: Bool,
                             numbered: Bool = true) {
        let layout = BoardLayout(size: size, top: 5)
        let vertical = unicode ? "│" : "|"
        let horizontal = unicode ? "─" : "-"
        let cross = unicode ? "┼" : "+"
        let blank = String(repeating: " ", count: BoardLayout.cellWidth)
        for cell in 0..<9 {
            let row = layout.top + (cell / 3) * (BoardLayout.cellHeight + 1)
            let column = layout.left + (cell % 3) * (BoardLayout.cellWidth + 1)
            let style: Style = winning.contains(cell) ? .winning : (cell == cursor ? .cursor : .normal)
            for dy in 0..<BoardLayout.cellHeight {
                canvas.put(blank, row: row + dy, column: column, style: style)
            }
            let (centreRow, centreColumn) = layout.centre(of: cell)
            if let mark = board[cell] {
                let markStyle: Style = winning.contains(cell) ? .winning : (mark == .x ? .markX : .markO)
                canvas.put(mark.description, row: centreRow, column: centreColumn, style: markStyle)
            } else if numbered {
                canvas.put(String(cell + 1), row: centreRow, column: centreColumn, style: cell == cursor ? .cursor : .dim)
            }
        }
        for line in 1...2 {
            let row = layout.top + line * (BoardLayout.cellHeight + 1) - 1
            let segment = String(repeating: horizontal, count: BoardLayout.cellWidth)
            canvas.put([segment, segment, segment].joined(separator: cross), row: row, column: layout.left, style: .dim)
            let column = layout.left + line * (BoardLayout.cellWidth + 1) - 1
            for y in 0..<BoardLayout.height where (y + 1) % (BoardLayout.cellHeight + 1) != 0 {
                canvas.put(vertical, row: layout.top + y, column: column, style: .dim)
            }
        }
    }

    private func winningCells(_ result: GameResult?) -> [Int] {
        if case .line(let cells)? = result?.reason { return cells }
        return []
    }

    private func renderComputer(_ canvas: inout Canvas, _ game: ComputerGame, unicode: Bool) {
        let who = tr("You: %@   Computer (%@): %@", game.humanMark.description,
                     DisplayWidth.truncate(game.opponentTitle, to: 24),
                     game.humanMark.opponent.description)
        canvas.putCentered(who, row: 2)
        canvas.putCentered(tr("Game %@   Score: you %@ · computer %@ · draws %@", String(game.number),
                              String(game.wins), String(game.losses), String(game.draws)),
                           row: 3, style: .bold)
        renderBoard(&canvas, board: game.game.board, cursor: game.isHumanTurn ? game.cursor : nil,
                    winning: winningCells(game.game.result), unicode: unicode)
        let line: String
        let style: Style
        if let result = game.game.result {
            style = .accent
            switch result.winner {
            case nil: line = tr("Draw. Press r for a rematch.")
            case game.humanMark?: line = tr("You win! Press r for a rematch.")
            default: line = tr("The computer wins. Press r for a rematch.")
            }
        } else {
            line = game.isHumanTurn ? tr("Your turn (%@)", game.humanMark.description) : tr("The computer is thinking…")
            style = .bold
        }
        canvas.putCentered(line, row: 5 + BoardLayout.height + 1, style: style)
        if let failure = game.engineFailure {
            // Why the engine lost, and its log: wrapped under the result (it is escaped where it was made).
            let width = max(10, size.columns - 4)
            for (index, text) in wrap(failure, width: width).prefix(3).enumerated() {
                canvas.putCentered(text, row: 5 + BoardLayout.height + 2 + index, style: .error)
            }
        }
    }

    private func renderReplay(_ canvas: inout Canvas, _ viewer: ReplayViewer, unicode: Bool) {
        let record = viewer.record
        let x = DisplayWidth.truncate(DisplayText.escaped(record.name(of: .x)), to: 24)
        let o = DisplayWidth.truncate(DisplayText.escaped(record.name(of: .o)), to: 24)
        canvas.putCentered(tr("X: %@   O: %@", x, o), row: 2)
        canvas.putCentered(tr("Replay: game %@ · move %@ of %@", String(record.number), String(viewer.step),
                              String(record.cells.count)), row: 3, style: .bold)
        renderBoard(&canvas, board: viewer.board, cursor: viewer.lastCell,
                    winning: viewer.isAtEnd ? winningCells(record.result) : [], unicode: unicode)
        let below = 5 + BoardLayout.height + 1
        canvas.putCentered(DisplayWidth.truncate(viewer.moveLine, to: size.columns - 2), row: below, style: .bold)
        if viewer.isAtEnd {
            canvas.putCentered(DisplayWidth.truncate(record.resultText, to: size.columns - 2), row: below + 1,
                               style: .accent)
        }
    }

    private func renderPastGames(_ canvas: inout Canvas, _ games: [SavedGame]?, selected: Int) {
        canvas.putCentered(tr("Past games"), row: 3, style: .bold)
        guard let games, !games.isEmpty else {
            if games != nil {
                canvas.putCentered(tr("No saved games yet: each finished game is kept here."), row: 5, style: .dim)
            }
            return
        }
        let top = 5
        let visible = max(1, size.rows - top - 3)
        let first = min(max(0, selected - visible + 1), max(0, games.count - visible))
        let width = min(size.columns - 2, 76)
        let left = max(1, (size.columns - width) / 2)
        for (offset, index) in (first..<min(games.count, first + visible)).enumerated() {
            let game = games[index]
            var line = " " + game.title.replacing(".jsonl", with: "")
            if let record = game.record {
                line += "  " + DisplayText.escaped(record.name(of: .x)) + " – " + DisplayText.escaped(record.name(of: .o))
                    + "  " + record.shortResult
            } else {
                line += "  " + tr("(cannot be read)")
            }
            canvas.put(DisplayWidth.fit(DisplayWidth.truncate(line, to: width), to: width), row: top + offset,
                       column: left, style: index == selected ? .selected : .normal)
        }
    }

    private func renderNetwork(_ canvas: inout Canvas, _ game: NetworkGame, unicode: Bool) {
        let peer = DisplayWidth.truncate(game.peerName ?? "…", to: 20)
        let me = DisplayWidth.truncate(DisplayText.escaped(game.localName), to: 20)
        if let mark = game.localMark {
            canvas.putCentered(tr("You (%@): %@   %@: %@", me, mark.description, peer, mark.opponent.description),
                               row: 2)
            let score = game.score
            canvas.putCentered(tr("Game %@   Score: you %@ · %@ %@ · draws %@", String(game.number),
                                  String(score.localWins), peer, String(score.peerWins), String(score.draws)),
                               row: 3, style: .bold)
        } else if game.role == .host {
            let hosting = game.security == .private ? tr("Hosting a private game as %@", me) : tr("Hosting as %@", me)
            canvas.putCentered(hosting, row: 2)
        } else {
            canvas.putCentered(tr("Joining %@ as %@", game.target, me), row: 2)
        }
        let row4 = [game.advertisement, game.watchingLine].compactMap { $0 }.joined(separator: " · ")
        if !row4.isEmpty {
            canvas.putCentered(DisplayWidth.truncate(row4, to: size.columns - 2), row: 4, style: .dim)
        }
        let resultRow = 5 + BoardLayout.height + 1
        if let board = game.game?.board ?? game.lastBoard {
            renderBoard(&canvas, board: board, cursor: game.isLocalTurn ? game.cursor : nil,
                        winning: winningCells(game.lastResult ?? game.game?.result), unicode: unicode)
        } else {
            let text: String
            switch game.phase {
            case .listening(let port):
                text = game.challenged.map {
                    tr("You challenged %@: waiting for them to accept and join on port %@…",
                       DisplayWidth.truncate(DisplayText.escaped($0), to: 32), String(port))
                } ?? tr("Waiting for someone to join on port %@…", String(port))
            case .ended(let why, _): text = why
            default: text = game.connection
            }
            let waiting = wrap(text, width: min(76, size.columns - 2))
            for (index, line) in waiting.enumerated() {
                canvas.putCentered(line, row: 10 + index, style: .bold)
            }
            if let countdown = game.countdownLine {
                canvas.putCentered(countdown, row: 10 + waiting.count, style: .dim)
            }
            if game.role == .host, !game.isOver, !game.inMatch {
                renderPrivateCode(&canvas, game, unicode: unicode)
                // The join lines, as many as fit with the failed attempts (which stay in view) under them.
                var attemptsRow = 11 + waiting.count
                if case .listening = game.phase {
                    let last = size.rows - 3 - game.failedAttempts.count - (game.failedAttempts.isEmpty ? 0 : 1)
                    let drawn = renderJoinLines(&canvas, game.joinLines, rows: 10 + waiting.count..<last + 1)
                    attemptsRow = 10 + waiting.count + drawn + 1
                }
                for (index, line) in game.failedAttempts.enumerated() {
                    canvas.putCentered(DisplayWidth.truncate(line, to: size.columns - 2), row: attemptsRow + index,
                                       style: .error)
                }
            }
        }
        let line: String
        var style: Style = .bold
        switch game.phase {
        case .playing:
            line = game.isLocalTurn ? tr("Your turn (%@)", game.localMark?.description ?? "?") : tr("%@'s turn", peer)
        case .betweenGames:
            line = resultText(game.lastResult, localMark: game.localMark, peer: peer)
                + (game.peerOffered ? tr(" %@ wants a rematch.", peer) : "")
            style = .accent
        case .ended(let why, let failed):
            line = game.lastResult != nil || game.game != nil ? why : ""
            style = failed ? .error : .accent
        default:
            line = ""
        }
        canvas.putCentered(DisplayWidth.truncate(line, to: size.columns - 2), row: resultRow, style: style)
    }

    /// Watching a match: the players with their marks and the score, the board, whose move or the result; the wait
    /// for a player, or how the watch ended.
    private func renderWatch(_ canvas: inout Canvas, _ watch: WatchGame, unicode: Bool) {
        let resultRow = 5 + BoardLayout.height + 1
        if let match = watch.match, let hostMark = match.hostMark, match.phase != .waiting || match.game > 0 {
            let host = DisplayWidth.truncate(DisplayText.escaped(match.hostName), to: 20)
            let joiner = DisplayWidth.truncate(DisplayText.escaped(match.joinerName), to: 20)
            let x = hostMark == .x ? host : joiner
            let o = hostMark == .x ? joiner : host
            canvas.putCentered(DisplayWidth.truncate(tr("X: %@   O: %@", x, o), to: size.columns - 2), row: 2)
            canvas.putCentered(
                DisplayWidth.truncate(
                    tr("Game %@   Score: %@ %@ · %@ %@ · draws %@", String(match.game), host, String(match.hostWins),
                       joiner, String(match.joinerWins), String(match.draws)), to: size.columns - 2),
                row: 3, style: .bold)
            renderBoard(&canvas, board: match.board, cursor: nil, winning: watch.winningCells, unicode: unicode,
                        numbered: false)
            if match.phase == .waiting, !watch.isOver {
                canvas.putCentered(DisplayWidth.truncate(tr("Waiting for a player at %@", host), to: size.columns - 2),
                                   row: 4, style: .dim)
            }
        } else {
            let text: String
            switch watch.phase {
            case .ended(let why, _): text = why
            case .watching:
                let host = DisplayWidth.truncate(DisplayText.escaped(watch.match?.hostName ?? ""), to: 32)
                text = tr("Waiting for a player at %@", host)
            case .connecting: text = watch.connection
            }
            for (index, line) in wrap(text, width: min(76, size.columns - 2)).enumerated() {
                canvas.putCentered(line, row: 10 + index, style: .bold)
            }
            return
        }
        var line = watch.resultLine
        var style: Style = watch.match?.phase == .over ? .accent : .bold
        if case .ended(let why, let failed) = watch.phase {
            line = why
            style = failed ? .error : .accent
        }
        canvas.putCentered(DisplayWidth.truncate(line, to: size.columns - 2), row: resultRow, style: style)
    }

    /// A waiting host's join lines in `rows`; how many rows it drew. The first one, the exact line to type, stands out;
    /// when not all fit, the last row says how many more there are.
    private func renderJoinLines(_ canvas: inout Canvas, _ lines: [String], rows: Range<Int>) -> Int {
        let room = rows.count
        guard room > 0 else { return 0 }
        var shown = lines
        if shown.count > room {
            let more = String(lines.count - room + 1)
            shown = Array(lines.prefix(room - 1)) + [tr("and %@ more (tictactoe host lists them all)", more)]
        }
        for (index, line) in shown.enumerated() {
            canvas.putCentered(DisplayWidth.truncate(line, to: size.columns - 2), row: rows.lowerBound + index,
                               style: index == 0 ? .accent : .normal)
        }
        return shown.count
    }

    /// A private host's code, on a highlighted line at the top: "Code: 482 913 — give it to the player who joins", or the
    /// code that replaced it, with why.
    private func renderPrivateCode(_ canvas: inout Canvas, _ game: NetworkGame, unicode: Bool) {
        guard let code = game.privateCode else { return }
        let shown = CodeEntry.grouped(code)
        let width = min(76, size.columns - 2)
        let lines: [String]
        if let reason = game.codeReplacedBecause {
            lines = wrap(tr("New code: %@ (%@)", shown, DisplayText.escaped(reason)), width: width)
                + wrap(tr("Give it to the player who joins: the old code no longer works"), width: width)
        } else {
            lines = wrap(tr("Code: %@ %@ give it to the player who joins", shown, unicode ? "—" : "-"), width: width)
        }
        for (index, line) in lines.prefix(4).enumerated() {
            canvas.putCentered(line, row: 5 + index, style: index == 0 ? .title : .bold)
        }
    }

    private func resultText(_ result: GameResult?, localMark: Mark?, peer: String) -> String {
        guard let result else { return "" }
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

    private func renderForm(_ canvas: inout Canvas, _ form: Form) {
        canvas.putCentered(form.title, row: 3, style: .bold)
        let left = max(1, (size.columns - 40) / 2)
        let fields = [(tr("Name"), form.nameField), (form.secondLabel, form.secondField)]
        for (index, field) in fields.enumerated() {
            let row = 6 + index * 3
            canvas.put(field.0, row: row, column: left, style: .dim)
            let editing = index == form.field
            let (value, cursor) = Self.fieldView(field.1, width: 36, editing: editing)
            canvas.put(" " + DisplayWidth.fit(value, to: 38), row: row + 1, column: left,
                       style: editing ? .selected : .normal)
            if let cursor { canvas.restyle(row: row + 1, column: left + 1 + cursor, width: 1, style: .cursor) }
        }
        let width = size.columns - left - 1
        var below = 12
        if form.kind == .host {
            let value = form.spectators == 0 ? tr("< off >") : "< \(form.spectators) >"
            let line = DisplayWidth.fit(tr("Spectators"), to: 14) + value
            // A label like the fields' (in line with them), its value beside it: one row, highlighted when chosen.
            canvas.put(DisplayWidth.fit(line, to: 39), row: 12, column: left,
                       style: form.field == 2 ? .selected : .normal)
            below = 14
        }
        if let error = form.error {
            // Escaped (it may quote what was typed) line by line: the \n between them is the form's own.
            let lines = error.split(separator: "\n").flatMap { wrap(DisplayText.escaped(String($0)), width: width) }
            for (index, line) in lines.prefix(3).enumerated() {
                canvas.put(line, row: below + index, column: left, style: .error)
            }
        } else if let check = form.addressCheck {  // said as the address is typed
            for (index, line) in wrap(DisplayText.escaped(check.text), width: width).prefix(2).enumerated() {
                canvas.put(line, row: below + index, column: left, style: check.isError ? .error : .dim)
            }
        }
        if form.kind == .host {
            let text = form.privateGame
                ? tr("Others join you at the addresses and with the code shown next.")
                : tr("Others join you at the addresses shown next.")
            canvas.put(DisplayWidth.truncate(text, to: size.columns - left - 1), row: 16, column: left, style: .dim)
        }
    }

    /// What a text field shows of `editor` in `width` columns: the text (escaped; while editing, a `_` after it when
    /// the cursor is at its end), scrolled so the cursor is in view, and the cursor's column when it is on a
    /// character (nil when not editing or at the end, where the `_` shows it).
    static func fieldView(_ editor: LineEditor, width: Int, editing: Bool) -> (text: String, cursor: Int?) {
        guard editing else { return (DisplayWidth.truncate(DisplayText.escaped(editor.text), to: width), nil) }
        var before = editor.characters[..<editor.cursor].map { DisplayText.escaped(String($0)) }
        let after = editor.characters[editor.cursor...].map { DisplayText.escaped(String($0)) }
        // Scroll: drop characters before the cursor until it (and the character under it) fit.
        // When more follows the character under the cursor, the last column is the ellipsis: keep it free.
        let under = DisplayWidth.of(after.first ?? "_") + (after.count > 1 ? 1 : 0)
        while !before.isEmpty, DisplayWidth.of(before.joined()) + under > width { before.removeFirst() }
        let start = before.joined()
        let column = DisplayWidth.of(start)
        if after.isEmpty { return (start + "_", nil) }
        return (DisplayWidth.truncate(start + after.joined(), to: width), column)
    }

    private func renderCodeEntry(_ canvas: inout Canvas, _ entry: CodeEntry) {
        canvas.putCentered(entry.title, row: 3, style: entry.reason == .wrongCode ? .error : .bold)
        let target = DisplayWidth.truncate(DisplayText.escaped(entry.target), to: 40)
        let name = DisplayWidth.truncate(DisplayText.escaped(entry.name), to: 20)
        let line = entry.watching ? tr("Watching %@ as %@", target, name) : tr("Joining %@ as %@", target, name)
        canvas.putCentered(DisplayWidth.truncate(line, to: size.columns - 2), row: 5, style: .dim)
        let left = max(1, (size.columns - 40) / 2)
        canvas.put(tr("Code (6 digits)"), row: 7, column: left, style: .dim)
        let value = DisplayText.escaped(entry.text) + "_"
        canvas.put(" " + DisplayWidth.fit(DisplayWidth.truncate(value, to: 37), to: 38),
                   row: 8, column: left, style: .selected)
        if let error = entry.error {
            for (index, line) in wrap(error, width: size.columns - left - 1).prefix(2).enumerated() {
                canvas.put(line, row: 10 + index, column: left, style: .error)
            }
        }
        canvas.put(DisplayWidth.truncate(tr("The host's screen shows the code."), to: size.columns - left - 1),
                   row: 13, column: left, style: .dim)
    }

    private func renderSearch(_ canvas: inout Canvas, _ search: SearchState) {
        canvas.putCentered(tr("Search for games"), row: 3, style: .bold)
        let drawn = renderDiscoveryStatus(
            &canvas, search.status,
            unavailableHint: tr("You can still join by address (a) or play the computer."),
            starting: tr("Looking for games on the local network…"),
            notAllowed: tr("Not searching: local network access is not allowed yet."),
            allowedHint: tr("Press t for Settings; the search starts by itself once access is allowed."))
        if drawn { return }
        if search.games.isEmpty {
            canvas.putCentered(tr("No games found yet: when someone hosts, it appears here."), row: 6, style: .dim)
            canvas.putCentered(tr("s shows all services on this network."), row: 8, style: .dim)
            return
        }
        // The window's width: name, where it is (host and address, or "this machine") and state in columns, each cut
        // with "…" (display width: wide characters count two); joinable games first (`GameList`).
        let width = max(10, size.columns - 4)
        let left = 2
        let visible = max(1, size.rows - 10)
        let first = max(0, min(search.selected - visible + 1, search.games.count - visible))
        let rows = GameList.rows(search.games, width: width - 1)
        for (offset, game) in search.games.dropFirst(first).prefix(visible).enumerated() {
            let index = first + offset
            let style: Style = index == search.selected ? .selected : game.compatible ? .normal : .dim
            canvas.put(" " + rows[index], row: 6 + offset, column: left, style: style)
        }
    }

    private func renderServiceTypes(_ canvas: inout Canvas, _ types: ServiceTypesState) {
        canvas.putCentered(tr("All services on this network"), row: 3, style: .bold)
        let drawn = renderDiscoveryStatus(
            &canvas, types.status, unavailableHint: nil,
            starting: tr("Looking for services on the local network…"),
            notAllowed: tr("Not looking: local network access is not allowed yet."),
            allowedHint: tr("The list starts by itself once access is allowed (Settings › Local Network)."))
        if drawn { return }
        if types.types.isEmpty {
            canvas.putCentered(tr("No services found yet: each type appears here when announced."), row: 6, style: .dim)
            return
        }
        // One type a line (as avahi-browse names them: `_http._tcp`), sorted, scrolled with ↑/↓.
        let width = max(10, size.columns - 6)
        let visible = max(1, size.rows - 10)
        let top = min(types.top, max(0, types.types.count - visible))
        for (offset, type) in types.types.dropFirst(top).prefix(visible).enumerated() {
            canvas.put(DisplayWidth.truncate(DisplayText.escaped(type), to: width), row: 6 + offset, column: 3)
        }
        if top + visible < types.types.count {
            canvas.put(tr("… %@ more", String(types.types.count - top - visible)), row: 6 + visible, column: 3,
                       style: .dim)
        }
    }

    /// A status line that counts: its own line for none and for one, and `many` given the count.
    static func counted(_ count: Int, none: String, one: String, many: (String) -> String) -> String {
        switch count {
        case 0: return none
        case 1: return one
        default: return many(String(count))
        }
    }

    /// The Lobby: the players around (the chosen one highlighted), then what happened, newest last; at the bottom the
    /// greeting being typed, or the challenge waiting for an answer.
    private func renderLobby(_ canvas: inout Canvas, _ lobby: LobbyState) {
        canvas.putCentered(tr("Lobby"), row: 2, style: .bold)
        let width = max(10, size.columns - 4)
        let bottom = size.rows - 3  // the line for the greeting or the question
        switch lobby.status {
        case .starting:
            canvas.putCentered(tr("Joining the lobby on the local network…"), row: 5, style: .dim)
            return
        case .waiting(let reason):
            canvas.putCentered(tr("Not in the lobby: local network access is not allowed yet."), row: 5, style: .bold)
            let sentence = tr("%@.", NetworkGame.capitalized(NetworkGame.sentence(reason)))
            let lines = wrap(sentence, width: min(64, size.columns - 4))
            for (index, line) in lines.enumerated() { canvas.putCentered(line, row: 7 + index, style: .dim) }
            canvas.putCentered(tr("The lobby opens by itself once access is allowed (Settings › Local Network)."),
                               row: 8 + lines.count)
            return
        case .joined(let group):
            canvas.putCentered(DisplayWidth.truncate(tr("Multicast group %@", group), to: width), row: 3, style: .dim)
        case .left:
            break
        }
        // The players: at most half of what is left, at least three rows.
        let listRows = max(3, (bottom - 6) / 2)
        if case .left(let why) = lobby.status {
            // Out of the lobby (or never in): why, where the players were, and where to look.
            let lines = wrap(DisplayText.escaped(why), width: width)
            for (index, line) in lines.prefix(listRows - 1).enumerated() {
                canvas.put(line, row: 5 + index, column: 2, style: .error)
            }
            canvas.put(DisplayWidth.truncate(tr("See Settings › Privacy and the log for details."), to: width),
                       row: 5 + min(lines.count, listRows - 1), column: 2, style: .dim)
        } else if lobby.members.isEmpty {
            canvas.put(DisplayWidth.truncate(tr("Nobody else here yet: players appear as they join the lobby."), to: width),
                       row: 5, column: 2, style: .dim)
        }
        let first = max(0, min(lobby.selected - listRows + 1, lobby.members.count - listRows))
        for (offset, member) in lobby.members.dropFirst(first).prefix(listRows).enumerated() {
            let index = first + offset
            var line = " " + DisplayWidth.fit(DisplayText.escaped(member.name), to: 20) + " " + member.address
            switch member.hosting {
            case .none: break
            case .open: line += "  " + tr("hosting a game on port %@", String(member.port))
            case .private: line += "  " + tr("hosting a private game on port %@", String(member.port))
            }
            canvas.put(DisplayWidth.fit(line, to: width), row: 5 + offset, column: 2,
                       style: index == lobby.selected ? .selected : .normal)
        }
        // What happened: the latest lines that fit, wrapped.
        let logTop = 5 + listRows + 1
        let logRows = max(0, bottom - 1 - logTop)
        var lines: [String] = []
        for entry in lobby.log.reversed() {
            lines.insert(contentsOf: wrap(entry, width: width), at: 0)
            if lines.count >= logRows { break }
        }
        for (offset, line) in lines.suffix(logRows).enumerated() {
            canvas.put(line, row: logTop + offset, column: 2, style: .dim)
        }
        if let editor = lobby.greeting {
            let label = tr("Say: ")
            let field = Self.fieldView(editor, width: width - DisplayWidth.of(label), editing: true)
            canvas.put(label + field.text, row: bottom, column: 2, style: .bold)
            if let problem = lobby.greetingProblem {
                canvas.put(DisplayWidth.truncate(problem, to: width), row: bottom - 1, column: 2, style: .error)
            } else if let asked = lobby.invitations.first {
                // Asked once the line is said or dropped: keys typed meanwhile stay in the line.
                let waiting = tr("%@ challenges you: Enter says your line (Esc drops it), then y or n",
                                 DisplayText.escaped(asked.name))
                canvas.put(DisplayWidth.truncate(waiting, to: width), row: bottom - 1, column: 2, style: .selected)
            }
        } else if let asked = lobby.invitations.first {
            let endpoint = asked.address.contains(":") ? "[\(asked.address)]:\(asked.port)" : "\(asked.address):\(asked.port)"
            let question = tr("%@ challenges you to a game at %@: y accepts, n declines",
                              DisplayText.escaped(asked.name), endpoint)
            canvas.put(DisplayWidth.truncate(question, to: width), row: bottom, column: 2, style: .selected)
        }
    }

    /// What a discovery screen (Search, All services) shows while it has no list: Bonjour unavailable, starting,
    /// waiting for permission (as on iOS, a browser without permission looks like nobody is around: the reason as a
    /// sentence, wrapped at words, and the way to Settings), or failed. False when the list is to be drawn.
    private func renderDiscoveryStatus(
        _ canvas: inout Canvas, _ status: DiscoveryStatus, unavailableHint: String?, starting: String, notAllowed: String,
        allowedHint: String
    ) -> Bool {
        switch status {
        case .unavailable(let message):
            canvas.putCentered(DisplayWidth.truncate(DisplayText.escaped(message), to: size.columns - 2), row: 6, style: .error)
            var row = 8
            if let unavailableHint {
                canvas.putCentered(unavailableHint, row: row)
                row += 1
            }
            canvas.putCentered(tr("The list comes back by itself when Bonjour does."), row: row, style: .dim)
        case .starting:
            canvas.putCentered(starting, row: 6, style: .dim)
        case .waiting(let reason):
            canvas.putCentered(notAllowed, row: 6, style: .bold)
            let sentence = tr("%@.", NetworkGame.capitalized(NetworkGame.sentence(reason)))
            let lines = wrap(sentence, width: min(64, size.columns - 4))
            for (index, line) in lines.enumerated() { canvas.putCentered(line, row: 8 + index, style: .dim) }
            canvas.putCentered(allowedHint, row: 9 + lines.count)
        case .failed(let text):
            let lines = wrap(DisplayText.escaped(text), width: min(70, size.columns - 4))
            for (index, line) in lines.enumerated() { canvas.putCentered(line, row: 6 + index, style: .error) }
            canvas.putCentered(tr("See Settings › Privacy and the log for details."), row: 8 + lines.count, style: .dim)
        case .available:
            return false
        }
        return true
    }

    private func renderSettings(_ canvas: inout Canvas, selected: Int) {
        canvas.putCentered(tr("Settings"), row: 2, style: .bold)
        let width = min(64, size.columns - 2)
        let left = max(1, (size.columns - width) / 2)
        let network: String
        switch privacy?.state {
        case .allowed?: network = tr("< On >")
        case .denied?: network = tr("< Off >")
        case .notDetermined?: network = tr("< not asked yet >")
        case nil: network = "…"
        }
        let rows: [(SettingsRow, String, String)] = [
            (.difficulty, tr("Difficulty"), "< \(settings.difficulty.title) >"),
            (.starter, tr("Who starts"), "< \(settings.starter.title) >"),
            (.name, tr("Your name"), Self.fieldView(currentNameEditor, width: width - 15,
                                                editing: selected == SettingsRow.name.rawValue).text),
            (.colors, tr("Colours"), settings.colors ? tr("< on >") : tr("< off >")),
            (.keyHints, tr("Key hints"), settings.keyHints ? tr("< shown >") : tr("< hidden >")),
            (.localNetwork, tr("Local Network"), network),
            (.reset, tr("Reset"), tr("ask again next time (Enter)")),
            (.report, tr("Privacy report"), tr("recent activity below")),
        ]
        let privacyRow = 4 + SettingsRow.localNetwork.rawValue + 1  // a blank line, the heading, then its rows
        for (row, label, value) in rows {
            let index = row.rawValue
            let style: Style = index == selected ? .selected : .normal
            let line = DisplayWidth.fit(label, to: 15) + value
            canvas.put(DisplayWidth.fit(line, to: width),
                       row: 4 + index + (row.rawValue >= SettingsRow.localNetwork.rawValue ? 2 : 0), column: left,
                       style: style)
        }
        if selected == SettingsRow.name.rawValue,
           let cursor = Self.fieldView(currentNameEditor, width: width - 15, editing: true).cursor {
            canvas.restyle(row: 4 + SettingsRow.name.rawValue, column: left + 15 + cursor, width: 1, style: .cursor)
        }
        canvas.put(tr("Privacy › Local Network"), row: privacyRow, column: left, style: .bold)
        var row = privacyRow + 4  // under the report row: the dim lines stand apart; a small window keeps them
        var info: [String] = []
        var activity: [String] = []
        if let privacy {
            if let error = privacy.manifestError {
                info.append(tr("Manifest: %@", error))
            } else {
                info.append(tr("Why: %@", privacy.usageDescription
                    ?? tr("(no NSLocalNetworkUsageDescription: a default is shown)")))
                info.append(tr("Declared services: %@",
                               privacy.services.isEmpty ? tr("none") : privacy.services.joined(separator: ", ")))
                if let path = privacy.manifestPath { info.append(tr("Manifest: %@", path)) }
            }
            if let error = privacy.entitlementsError {
                info.append(tr("Entitlements: %@", error))
            } else if privacy.manifestError == nil {
                info.append(tr("Entitlements: %@", privacy.entitlements.isEmpty
                    ? tr("none") : privacy.entitlements.joined(separator: ", ")))
            }
            info.append(tr("Decision: %@", privacy.decisionFile))
            info.append(tr("Debug log: %@", privacy.logFile))
            if let report = privacy.reportFile { info.append(tr("Privacy report: %@", report)) }
            activity.append(privacy.activity.isEmpty
                ? tr("No local network activity in the last 7 days.")
                : tr("Latest local network activity:"))
            activity += privacy.activity.map(Self.activityLine)
        }
        // The report's row shows its records first; the others, the details first (and the records if room is left).
        info = selected == SettingsRow.report.rawValue ? activity + info : info + activity
        for line in info {
            for part in wrap(line, width: width) where row < size.rows - 2 {
                canvas.put(part, row: row, column: left, style: .dim)
                row += 1
            }
        }
    }

    /// One record of the privacy report: "11-25 15:30:02 allowed: connect 192.168.1.20:7777 · Join a game screen".
    static func activityLine(_ activity: PrivacyActivity) -> String {
        let outcome: String
        switch activity.kind {
        case .allowed: outcome = tr("allowed")
        case .waiting: outcome = tr("waiting")
        case .refused: outcome = tr("refused")
        case .done: outcome = tr("done")
        case .promptShown: outcome = tr("prompt shown")
        case .promptAnswered(let allow): outcome = tr("prompt answered %@", allow ? tr("OK") : tr("Don't Allow"))
        }
        let operation: String?
        switch activity.operation {
        case "browse": operation = tr("browse")
        case "advertise": operation = tr("advertise")
        case "listen": operation = tr("listen")
        case "connect": operation = tr("connect")
        case "multicast": operation = tr("multicast")
        case "browse-service-types": operation = tr("browse every service type")
        case "resolve": operation = tr("resolve")
        case "permission": operation = tr("permission")  // the decision changed: the new state follows
        case let other: operation = other
        }
        let what = [operation, activity.destination].compactMap { $0 }.joined(separator: " ")
        let origin = activity.origin.map { " · " + $0 } ?? ""
        return DisplayText.escaped("\(activity.time) \(outcome)" + (what.isEmpty ? "" : ": " + what) + origin)
    }

    /// Splits `text` into lines of at most `width` display columns (`LineWrap`: at spaces, and between CJK
    /// characters).
    func wrap(_ text: String, width: Int) -> [String] { LineWrap.lines(text, width: width) }

    /// The question before leaving, resigning or quitting, in a box in the middle of the screen.
    private func renderConfirmation(_ canvas: inout Canvas, _ confirmation: Confirmation, unicode: Bool) {
        let width = min(56, size.columns - 2)
        let inner = width - 4
        let title = wrap(confirmation.title, width: inner)
        let message = confirmation.consequence.map { wrap($0, width: inner) } ?? []
        let keys = wrap(confirmation.keys, width: inner)
        let height = title.count + message.count + keys.count + 3 + (message.isEmpty ? 0 : 1)
        let top = max(1, (size.rows - height) / 2)
        let left = max(0, (size.columns - width) / 2)
        drawBox(&canvas, top: top, left: left, width: width, height: height, unicode: unicode)
        var y = top + 1
        for line in title {
            canvas.put(line, row: y, column: left + 2, style: .bold)
            y += 1
        }
        if !message.isEmpty {
            y += 1
            for line in message {
                canvas.put(line, row: y, column: left + 2)
                y += 1
            }
        }
        y += 1
        for line in keys {
            canvas.put(line, row: y, column: left + 2, style: .accent)
            y += 1
        }
    }

    private func drawBox(_ canvas: inout Canvas, top: Int, left: Int, width: Int, height: Int, unicode: Bool) {
        let (h, v, tl, tr, bl, br) = unicode ? ("─", "│", "┌", "┐", "└", "┘") : ("-", "|", "+", "+", "+", "+")
        canvas.put(tl + String(repeating: h, count: width - 2) + tr, row: top, column: left, style: .bold)
        for y in 1..<(height - 1) {
            canvas.put(v + String(repeating: " ", count: width - 2) + v, row: top + y, column: left, style: .bold)
        }
        canvas.put(bl + String(repeating: h, count: width - 2) + br, row: top + height - 1, column: left, style: .bold)
    }

    private func renderPrompt(_ canvas: inout Canvas, _ prompt: PromptState, unicode: Bool) {
        let width = min(56, size.columns - 2)
        let inner = width - 4
        let title = wrap(prompt.title, width: inner)
        let message = wrap(prompt.message, width: inner)
        let height = title.count + message.count + 5
        let top = max(1, (size.rows - height) / 2)
        let left = max(0, (size.columns - width) / 2)
        let (h, v, tl, tr, bl, br) = unicode ? ("─", "│", "┌", "┐", "└", "┘") : ("-", "|", "+", "+", "+", "+")
        canvas.put(tl + String(repeating: h, count: width - 2) + tr, row: top, column: left, style: .bold)
        for y in 1..<(height - 1) {
            canvas.put(v + String(repeating: " ", count: width - 2) + v, row: top + y, column: left, style: .bold)
        }
        canvas.put(bl + String(repeating: h, count: width - 2) + br, row: top + height - 1, column: left, style: .bold)
        var y = top + 1
        for line in title {
            canvas.put(line, row: y, column: left + 2, style: .bold)
            y += 1
        }
        y += 1
        for line in message {
            canvas.put(line, row: y, column: left + 2)
            y += 1
        }
        let deny = "[ \(prompt.deny) ]"
        let ok = "[ \(prompt.ok) ]"
        let buttons = top + height - 2
        let gap = 6
        let start = left + (width - DisplayWidth.of(deny) - DisplayWidth.of(ok) - gap) / 2
        canvas.put(deny, row: buttons, column: start, style: prompt.selected == 0 ? .selected : .normal)
        canvas.put(ok, row: buttons, column: start + DisplayWidth.of(deny) + gap, style: prompt.selected == 1 ? .selected : .normal)
    }

    private func renderHelp(_ canvas: inout Canvas, unicode: Bool) {
        // A heading in a column of its own (as wide as the widest heading in the language in use, at least 10
        // columns), then what the keys do: each translated as a row of its own, so the columns stay aligned.
        let rows: [(heading: String, text: String)] = [
            (tr("Menu"), tr("↑/↓ j/k, Enter, or the letter in [ ]")),
            (tr("Board"), tr("arrows, hjkl or WASD move the cursor")),
            ("", tr("Enter/Space places; 1-9 place directly")),
            ("", tr("(1 top-left … 9 bottom-right); click")),
            (tr("Games"), tr("r rematch, R resign (network, asks)")),
            ("", tr("q leaves (asks in a network match)")),
            (tr("Failed"), tr("r tries again, Enter back to the menu")),
            (tr("Replay"), tr("←/→ step, Home/End first/last move")),
            (tr("Watching"), tr("q stops watching (the host is told)")),
            (tr("Search"), tr("s all services on this network")),
            (tr("Lobby"), tr("c challenges, g greets, y/n answers")),
            (tr("Anywhere"), tr("? this help, Esc back (asks at the")),
            ("", tr("menu), Ctrl-C quits at once")),
        ]
        let column = max(10, (rows.map { DisplayWidth.of($0.heading) }.max() ?? 0) + 2)
        let lines = [tr("Keys"), ""]
            + rows.map { DisplayWidth.padded($0.heading, to: column) + $0.text }
            + ["", tr("Press any key to close")]
        let width = min(size.columns - 2, 52)
        let height = lines.count + 2
        let top = max(1, (size.rows - height) / 2)
        let left = max(1, (size.columns - width) / 2)
        for row in 0..<height {
            canvas.put(String(repeating: " ", count: width), row: top + row, column: left, style: .selected)
        }
        for (index, line) in lines.enumerated() {
            let text = unicode
                ? line : line.replacing("↑/↓", with: "up/dn").replacing("←/→", with: "<-/->").replacing("…", with: "..")
            canvas.put(DisplayWidth.truncate(text, to: width - 4), row: top + 1 + index, column: left + 2,
                       style: index == 0 ? .bold : .selected)
        }
    }
}
