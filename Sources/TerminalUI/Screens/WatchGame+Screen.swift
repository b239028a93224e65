import GameProtocol
import GameRules
import GameClient
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

/// The Watch screen: q, Esc and Enter leave; a code refused asks for the code; the board as the host shows it.
extension WatchGame: ScreenContent {
    var menuItem: MenuItem { .watch }

    /// Watches `target` as `name` instead of the screen that asks: the gate first, as joining does, then `.watch`.
    static func start(_ target: String, as name: String, code: String?) -> Step {
        Step([.checkNetwork(.watch(name: name, address: target))],
             .replace(.watch(WatchGame(localName: name, target: target, code: code))))
    }

    /// Read-only: no key plays. q and Esc leave at any time (the host is told); Enter too once it ended.
    func handle(_ key: Key) -> Step {
        guard key == .character("q") || key == .escape || (key == .enter && isOver) else { return Step() }
        return Step(isOver ? [] : [.cancelNetwork], .back)
    }

    /// A network event; a host that turned the watch away for its code asks for the code.
    mutating func received(_ event: NetworkEvent) -> Step {
        apply(event)
        guard codeRefused else { return Step() }
        let entry = CodeEntry(reason: code == nil ? .privateGame : .wrongCode, name: localName, target: target,
                              watching: true)
        return Step(.replace(.code(entry)))
    }

    /// The players with their marks and the score, the board, whose move or the result; the wait for a player, or
    /// how the watch ended.
    func render(into canvas: inout Canvas, _ view: ScreenView) {
        let columns = view.size.columns
        guard let match, let hostMark = match.hostMark, match.phase != .waiting || match.game > 0 else {
            let text: String
            switch phase {
            case .ended(let why, _): text = why
            case .watching:
                let host = DisplayWidth.truncate(DisplayText.escaped(self.match?.hostName ?? ""), to: 32)
                text = tr("Waiting for a player at %@", host)
            case .connecting: text = connection
            }
            for (index, line) in wrap(text, width: min(76, columns - 2)).enumerated() {
                canvas.putCentered(line, row: 10 + index, style: .bold)
            }
            return
        }
        let host = DisplayWidth.truncate(DisplayText.escaped(match.hostName), to: 20)
        let joiner = DisplayWidth.truncate(DisplayText.escaped(match.joinerName), to: 20)
        let x = hostMark == .x ? host : joiner
        let o = hostMark == .x ? joiner : host
        canvas.putCentered(DisplayWidth.truncate(tr("X: %@   O: %@", x, o), to: columns - 2), row: 2)
        canvas.putCentered(
            DisplayWidth.truncate(
                tr("Game %@   Score: %@ %@ · %@ %@ · draws %@", String(match.game), host, String(match.hostWins),
                   joiner, String(match.joinerWins), String(match.draws)), to: columns - 2),
            row: 3, style: .bold)
        canvas.drawBoard(match.board, layout: BoardLayout(size: view.size, top: 5), cursor: nil, winning: winningCells,
                         unicode: view.unicode, numbered: false)
        if match.phase == .waiting, !isOver {
            canvas.putCentered(DisplayWidth.truncate(tr("Waiting for a player at %@", host), to: columns - 2),
                               row: 4, style: .dim)
        }
        var line = resultLine
        var style: Style = match.phase == .over ? .accent : .bold
        if case .ended(let why, let failed) = phase {
            line = why
            style = failed ? .error : .accent
        }
        canvas.putCentered(DisplayWidth.truncate(line, to: columns - 2), row: 5 + BoardLayout.height + 1, style: style)
    }

    func hints(_ view: ScreenView) -> String {
        isOver ? tr("Enter or q back to the menu") : tr("q stops watching · ? help")
    }

    func statusText(_ view: ScreenView) -> String { connection }
}
