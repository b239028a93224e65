import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

/// The Lobby's screen: the players around, what happened, and the greeting or the challenge at the bottom.
extension LobbyState: ScreenContent {
    var menuItem: MenuItem { .lobby }

    mutating func handle(_ key: Key) -> Step {
        switch react(to: key) {
        case .none:
            return Step()
        case .command(let command):
            return Step([.lobbyCommand(command)])
        case .retry:
            self = LobbyState()
            return Step([.stopLobby, .checkNetwork(.lobby)])
        case .back:
            return Step([.stopLobby], .back)
        case .settings:
            // Settings from the lobby, as from Search: e.g. to allow access; the lobby waits or goes on.
            return Step([.loadPrivacyInfo], .push(.settings(SettingsScreen(row: .localNetwork))))
        }
    }

    /// The players around (the chosen one highlighted), then what happened, newest last; at the bottom the greeting
    /// being typed, or the challenge waiting for an answer.
    func render(into canvas: inout Canvas, _ view: ScreenView) {
        canvas.putCentered(tr("Lobby"), row: 2, style: .bold)
        let width = max(10, view.size.columns - 4)
        let bottom = view.size.rows - 3  // the line for the greeting or the question
        switch status {
        case .starting:
            canvas.putCentered(tr("Joining the lobby on the local network…"), row: 5, style: .dim)
            return
        case .waiting(let reason):
            canvas.putCentered(tr("Not in the lobby: local network access is not allowed yet."), row: 5, style: .bold)
            let sentence = tr("%@.", NetworkGame.capitalized(NetworkGame.sentence(reason)))
            let lines = wrap(sentence, width: min(64, view.size.columns - 4))
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
        renderMembers(into: &canvas, width: width, rows: listRows)
        // What happened: the latest lines that fit, wrapped.
        let logTop = 5 + listRows + 1
        let logRows = max(0, bottom - 1 - logTop)
        var lines: [String] = []
        for entry in log.reversed() {
            lines.insert(contentsOf: wrap(entry, width: width), at: 0)
            if lines.count >= logRows { break }
        }
        for (offset, line) in lines.suffix(logRows).enumerated() {
            canvas.put(line, row: logTop + offset, column: 2, style: .dim)
        }
        renderBottom(into: &canvas, width: width, row: bottom)
    }

    private func renderMembers(into canvas: inout Canvas, width: Int, rows listRows: Int) {
        if case .left(let why) = status {
            // Out of the lobby (or never in): why, where the players were, and where to look.
            let lines = wrap(DisplayText.escaped(why), width: width)
            for (index, line) in lines.prefix(listRows - 1).enumerated() {
                canvas.put(line, row: 5 + index, column: 2, style: .error)
            }
            canvas.put(DisplayWidth.truncate(tr("See Settings › Privacy and the log for details."), to: width),
                       row: 5 + min(lines.count, listRows - 1), column: 2, style: .dim)
        } else if members.isEmpty {
            let nobody = tr("Nobody else here yet: players appear as they join the lobby.")
            canvas.put(DisplayWidth.truncate(nobody, to: width), row: 5, column: 2, style: .dim)
        }
        let first = max(0, min(selected - listRows + 1, members.count - listRows))
        for (offset, member) in members.dropFirst(first).prefix(listRows).enumerated() {
            let index = first + offset
            var line = " " + DisplayWidth.fit(DisplayText.escaped(member.name), to: 20) + " " + member.address
            switch member.hosting {
            case .none: break
            case .open: line += "  " + tr("hosting a game on port %@", String(member.port))
            case .private: line += "  " + tr("hosting a private game on port %@", String(member.port))
            }
            canvas.put(DisplayWidth.fit(line, to: width), row: 5 + offset, column: 2,
                       style: index == selected ? .selected : .normal)
        }
    }

    /// The greeting being typed (with why it cannot be said, or the challenge that waits for it), or the challenge
    /// to answer.
    private func renderBottom(into canvas: inout Canvas, width: Int, row bottom: Int) {
        if let editor = greeting {
            let label = tr("Say: ")
            let field = editor.view(width: width - DisplayWidth.of(label), editing: true)
            canvas.put(label + field.text, row: bottom, column: 2, style: .bold)
            if let problem = greetingProblem {
                canvas.put(DisplayWidth.truncate(problem, to: width), row: bottom - 1, column: 2, style: .error)
            } else if let asked = invitations.first {
                // Asked once the line is said or dropped: keys typed meanwhile stay in the line.
                let waiting = tr("%@ challenges you: Enter says your line (Esc drops it), then y or n",
                                 DisplayText.escaped(asked.name))
                canvas.put(DisplayWidth.truncate(waiting, to: width), row: bottom - 1, column: 2, style: .selected)
            }
        } else if let asked = invitations.first {
            let endpoint = asked.address.contains(":")
                ? "[\(asked.address)]:\(asked.port)" : "\(asked.address):\(asked.port)"
            let question = tr("%@ challenges you to a game at %@: y accepts, n declines",
                              DisplayText.escaped(asked.name), endpoint)
            canvas.put(DisplayWidth.truncate(question, to: width), row: bottom, column: 2, style: .selected)
        }
    }

    func hints(_ view: ScreenView) -> String {
        if greeting != nil { return tr("Enter says it to everyone · Esc cancels") }
        if !invitations.isEmpty { return tr("y accepts the challenge · n declines") }
        if isLeft { return tr("r joins again · t settings · q back") }
        if !isJoined { return tr("t settings (the lobby waits) · q back") }
        return tr("↑/↓ choose · c challenges · g greets everyone · t settings · q leaves")
    }

    func statusText(_ view: ScreenView) -> String {
        switch status {
        case .starting: return tr("Joining the lobby…")
        case .waiting: return tr("Waiting for local network access")
        case .joined:
            return counted(members.count, none: tr("In the lobby: nobody else yet"),
                           one: tr("In the lobby with 1 player"), many: { tr("In the lobby with %@ players", $0) })
        case .left(let text): return DisplayText.escaped(text)
        }
    }
}

extension AppModel {
    /// What the lobby reports: its events for the Lobby screen (on top, or under the game hosted for a challenge or
    /// under Settings), and the games it asks for.
    mutating func lobbyUpdated(_ update: LobbyUpdate) -> [AppEffect] {
        switch update {
        case .event(let event):
            guard let index = stack.lastIndex(where: { $0.isLobby }), case .lobby(var lobby) = stack[index] else {
                return []
            }
            lobby.apply(event)
            stack[index] = .lobby(lobby)
            return []
        case .hostGame(let name):
            // The person challenged `name`: host an open game on any free port; they are invited once it listens.
            guard case .lobby(var lobby) = screen else { return [.lobbyCommand(.withdraw)] }
            lobby.challenging = name
            screen = .lobby(lobby)
            var game = NetworkGame(role: .host, localName: settings.name, target: tr("a free port"), port: 0)
            game.lobbyGame = .host
            game.challenged = name
            let effects = game.startLobbyGame(.host, as: settings.name)
            return go(Step(effects, .push(.network(game))))
        case .stopHosting:
            // Declined or not answered: back to the lobby (its log says why).
            guard case .lobby(var lobby)? = below, case .network(let game) = screen, game.role == .host,
                  !game.inMatch else { return [] }
            stack.removeLast()
            lobby.challenging = nil
            screen = .lobby(lobby)
            return game.isOver ? [] : [.cancelNetwork]
        case .join(_, let address, let port):
            // The person accepted: the challenger's game, joined as any address is (the gate first), instead of
            // the lobby.
            stack.removeSubrange((stack.lastIndex { $0.isLobby } ?? stack.count - 1)...)
            let game = LobbyGame.join(address: address, port: port)
            var joining = NetworkGame(role: .joiner, localName: settings.name, target: game.target ?? address)
            joining.lobbyGame = game
            let effects = joining.startLobbyGame(game, as: settings.name)
            stack.append(.network(joining))
            return effects
        case .ended:
            // Over (left, refused, or a game came of it): a game hosted for a challenge goes on without it; from
            // Settings, Esc still comes back to the lobby, which says why it ended.
            if case .settings = screen { return [] }
            let top = stack.removeLast()
            stack.removeAll { $0.isLobby }
            stack.append(top)
            return []
        }
    }
}
