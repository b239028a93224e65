import GameClient
import GameRules
import Localization

/// `tictactoe replay FILE` (and Past games): a finished game shown one position at a time. ←/→ step back and forth,
/// Home/End jump to the empty board and the final one; nothing is played.
public struct ReplayViewer: Sendable {
    public let record: GameRecord
    /// The record's file as the heading shows it.
    public let title: String
    /// How many moves are on the board: 0 (the empty board) through `record.cells.count`.
    public private(set) var step = 0
    private let boards: [Board]

    public init(record: GameRecord, title: String, step: Int = 0) {
        self.record = record
        self.title = title
        boards = record.positions
        self.step = min(max(0, step), record.cells.count)
    }

    public var board: Board { boards[step] }
    public var isAtEnd: Bool { step == record.cells.count }
    /// The last move's cell (shown as the cursor), nil on the empty board.
    public var lastCell: Int? { step == 0 ? nil : record.cells[step - 1] }

    /// The line under the board: the move shown, and the result at the end.
    public var moveLine: String {
        step == 0 ? tr("The empty board: → shows move 1 of %@", String(record.cells.count)) : record.moveText(step - 1)
    }

    enum Outcome { case stay, leave }

    mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .left, .character("h"), .character("a"), .backspace: step = max(0, step - 1)
        case .right, .character("l"), .character("d"), .character(" "), .enter: step = min(record.cells.count, step + 1)
        case .home, .character("g"), .up: step = 0
        case .end, .character("G"), .down: step = record.cells.count
        case .character("q"), .escape: return .leave
        default: break
        }
        return .stay
    }
}
