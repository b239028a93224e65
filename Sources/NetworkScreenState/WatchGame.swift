import GameProtocol
import GameRules
import GameClient
import Localization
import TextSupport
import TerminalWidgets

/// Watching a hosted match read-only (Watch a game, `w` on the Search screen): the host's positions as they come
/// (`MatchReport.watched`), until the watch ends (`watchEnded`). No key plays.
public struct WatchGame: Sendable {
    public enum Phase: Sendable, Hashable {
        case connecting
        case watching
        case ended(String, failed: Bool)
    }

    public let localName: String
    /// What is watched: an address or a game's name, as typed or listed (shown escaped).
    public let target: String
    /// A private game's code (six digits; nil: none). Only for the watch effect.
    package let code: String?
    public private(set) var phase: Phase = .connecting
    /// The match as the host last showed it.
    public private(set) var match: WatchedMatch?
    /// The status line.
    public private(set) var connection: String
    /// The host turned the watch away for its code (exit 13): missing or wrong.
    package private(set) var codeRefused = false

    package init(localName: String, target: String, code: String? = nil) {
        self.localName = localName
        self.target = target
        self.code = code
        connection = tr("Connecting to %@…", target)
    }

    public var isOver: Bool {
        if case .ended = phase { return true }
        return false
    }

    package mutating func apply(_ event: NetworkEvent) {
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
    package var resultLine: String {
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
    package var winningCells: [Int] {
        guard let match, match.phase == .over, match.ending == .line, let winner = match.winner else { return [] }
        for line in Board.lines where line.allSatisfy({ match.board[$0] == winner }) { return line }
        return []
    }
}
