import GameProtocol
import GameRules
import GameClient
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

/// Watching a hosted match read-only (Watch a game, `w` on the Search screen): the host's positions as they come
/// (`MatchReport.watched`), until the watch ends (`watchEnded`). No key plays.
public struct WatchGame: Sendable, ScreenContent {
    public enum Phase: Sendable, Hashable {
        case connecting
        case watching
        case ended(String, failed: Bool)
    }

    public let localName: String
    /// What is watched: an address or a game's name, as typed or listed (shown escaped).
    public let target: String
    /// A private game's code (six digits; nil: none). Only for the watch effect.
    let code: String?
    public private(set) var phase: Phase = .connecting
    /// The match as the host last showed it.
    public private(set) var match: WatchedMatch?
    /// The status line.
    public private(set) var connection: String
    /// The host turned the watch away for its code (exit 13): missing or wrong.
    private(set) var codeRefused = false

    init(localName: String, target: String, code: String? = nil) {
        self.localName = localName
        self.target = target
        self.code = code
        connection = tr("Connecting to %@…", target)
    }

    public var isOver: Bool {
        if case .ended = phase { return true }
        return false
    }

    mutating func apply(_ event: NetworkEvent) {
        switch event {
        case .privateCode:
            break
        case .finished(let status):
            if status == .wrongCode { refuseCode() }
            if !isOver { end(tr("The connection ended."), failed: status != .success) }
        case .report(let report):
            apply(report)
        }
    }

    private mutating func apply(_ report: MatchReport) {
        switch report {
        case .watched(let match):
            guard !isOver else { return }
            self.match = match
            phase = .watching
            connection = tr("Watching %@", DisplayWidth.truncate(DisplayText.escaped(match.hostName), to: 32))
        case .watchEnded(let end):
            switch end {
            case .completed: self.end(tr("The host is done."), failed: false)
            case .localLeft: self.end(tr("You stopped watching."), failed: false)
            case .peerLeft(_?): self.end(tr("The host went away."), failed: true)
            default: self.end(tr("The connection ended."), failed: true)  // a dropped watcher sees the same
            }
        case .connectionState(.waiting(let reason)):
            connection = tr("Waiting: %@", DisplayText.escaped(reason.description))
        case .connectionState(.failed(.wrongCode)), .error(_, .wrongCode):
            refuseCode()
        case .connectionState(.failed(let error)):
            end(tr("Could not join: %@.", NetworkGame.sentence(DisplayText.escaped(error.description))), failed: true)
        case .error(let message, _):
            guard !isOver else { return }
            end(NetworkGame.capitalized(NetworkGame.sentence(DisplayText.escaped(message))) + ".", failed: true)
        case .discovery(.resolved(_, let addresses)):
            if let first = addresses.first { connection = tr("Trying %@…", DisplayText.escaped(first)) }
        default:
            break
        }
    }

    private mutating func end(_ text: String, failed: Bool) {
        phase = .ended(text, failed: failed)
        connection = text
    }

    private mutating func refuseCode() {
        codeRefused = true
        end(code == nil ? tr("This game is private: it needs its code") : NetworkGame.wrongCode, failed: true)
    }

    /// The line under the board: whose move, or how the game ended.
    var resultLine: String {
        guard let match else { return "" }
        func name(_ mark: Mark) -> String {
            DisplayWidth.truncate(DisplayText.escaped(match.name(of: mark) ?? mark.description), to: 20)
        }
        switch match.phase {
        case .playing:
            guard let mark = match.toMove else { return "" }
            return tr("%@'s turn", "\(name(mark)) (\(mark))")
        case .over:
            guard let winner = match.winner else { return tr("Draw.") }
            let loser = "\(name(winner.opponent)) (\(winner.opponent))"
            let won = "\(name(winner)) (\(winner))"
            if match.ending == .resignation { return tr("%@ resigned: %@ wins.", loser, won) }
            return tr("%@ wins.", name(winner))
        default:
            return ""
        }
    }

    /// The winning line of a game won on the board.
    var winningCells: [Int] {
        guard let match, match.phase == .over, match.ending == .line, let winner = match.winner else { return [] }
        for line in Board.lines where line.allSatisfy({ match.board[$0] == winner }) { return line }
        return []
    }

    // MARK: The screen

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
