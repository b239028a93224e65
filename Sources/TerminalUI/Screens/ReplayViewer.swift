import GameClient
import GameProtocol
import GameRules
import Localization
import TextSupport
import TerminalWidgets

/// `tictactoe replay FILE` (and Past games): a finished game shown one position at a time. ←/→ step back and forth,
/// Home/End jump to the empty board and the final one; nothing is played.
public struct ReplayViewer: Sendable, ScreenContent {
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

    /// ←/→ step, Home/End jump; q and Esc go back (in `tictactoe replay`, quit).
    mutating func handle(_ key: Key) -> Step {
        switch key {
        case .left, .character("h"), .character("a"), .backspace: step = max(0, step - 1)
        case .right, .character("l"), .character("d"), .character(" "), .enter: step = min(record.cells.count, step + 1)
        case .home, .character("g"), .up: step = 0
        case .end, .character("G"), .down: step = record.cells.count
        case .character("q"), .escape: return Step(.back)
        default: break
        }
        return Step()
    }

    // MARK: The screen

    var menuItem: MenuItem { .pastGames }

    func render(into canvas: inout Canvas, _ view: ScreenView) {
        let x = DisplayWidth.truncate(DisplayText.escaped(record.name(of: .x)), to: 24)
        let o = DisplayWidth.truncate(DisplayText.escaped(record.name(of: .o)), to: 24)
        canvas.putCentered(tr("X: %@   O: %@", x, o), row: 2)
        canvas.putCentered(tr("Replay: game %@ · move %@ of %@", String(record.number), String(step),
                              String(record.cells.count)), row: 3, style: .bold)
        canvas.drawBoard(board, layout: BoardLayout(size: view.size, top: 5), cursor: lastCell,
                         winning: isAtEnd ? winningCells(record.result) : [], unicode: view.unicode)
        let below = 5 + BoardLayout.height + 1
        let columns = view.size.columns
        canvas.putCentered(DisplayWidth.truncate(moveLine, to: columns - 2), row: below, style: .bold)
        if isAtEnd {
            canvas.putCentered(DisplayWidth.truncate(record.resultText, to: columns - 2), row: below + 1,
                               style: .accent)
        }
    }

    /// Alone (`tictactoe replay`: nothing below it), q quits.
    func hints(_ view: ScreenView) -> String {
        view.below == nil ? tr("←/→ step · Home/End first/last move · q quits")
            : tr("←/→ step · Home/End first/last move · q back")
    }

    func statusText(_ view: ScreenView) -> String { tr("Replay of %@", DisplayText.escaped(title)) }
}
