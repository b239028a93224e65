import Localization
import TextSupport

/// A question asked before a step that cannot be undone: leaving a network match, resigning a game, quitting the app.
/// One key confirms (`y`, either case); any other key cancels and does nothing else. Ctrl-C never asks.
public struct Confirmation: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        /// Leave the network match (`q` or Esc in a match): back to the menu, the peer is told.
        case leave
        /// Resign the game being played (`R` in a network game).
        case resign
        /// Quit the app (Esc at the menu; `q` or Esc in a window too small to play in).
        case quit
    }

    public let action: Action
    /// Whether a game is being played (leaving or quitting then forfeits it).
    public let gameInProgress: Bool

    public init(_ action: Action, gameInProgress: Bool = false) {
        self.action = action
        self.gameInProgress = gameInProgress
    }

    /// The question.
    public var title: String {
        switch action {
        case .leave: return tr("Leave the match?")
        case .resign: return tr("Resign this game?")
        case .quit: return tr("Quit TicTacToe?")
        }
    }

    /// What confirming costs, or nil.
    public var consequence: String? {
        switch action {
        case .leave:
            return gameInProgress ? tr("You forfeit the game in progress and the match ends.") : tr("The match ends.")
        case .resign:
            return tr("Your opponent wins this game; the match goes on.")
        case .quit:
            return gameInProgress ? tr("You forfeit the game in progress and the match ends.") : nil
        }
    }

    /// The keys, as the box shows them.
    public var keys: String {
        switch action {
        case .leave: return tr("Press y to leave, any other key to stay.")
        case .resign: return tr("Press y to resign, any other key to play on.")
        case .quit: return tr("Press y to quit, any other key to stay.")
        }
    }

    /// The one key that confirms.
    public static func confirms(_ key: Key) -> Bool {
        key == .character("y") || key == .character("Y")
    }
}

extension Confirmation {
    /// The question in a box in the middle of the screen.
    public func render(into canvas: inout Canvas, unicode: Bool) {
        let (width, inner) = canvas.dialogWidth
        let title = wrap(self.title, width: inner)
        let message = consequence.map { wrap($0, width: inner) } ?? []
        let keys = wrap(self.keys, width: inner)
        let height = title.count + message.count + keys.count + 3 + (message.isEmpty ? 0 : 1)
        let box = canvas.drawDialog(width: width, height: height, title: title, unicode: unicode)
        var y = box.below
        if !message.isEmpty {
            y = canvas.put(lines: message, row: y + 1, column: box.left + 2)
        }
        canvas.put(lines: keys, row: y + 1, column: box.left + 2, style: .accent)
    }
}

extension Canvas {
    /// A dialog's width on this screen, and the width of the text inside its border.
    public var dialogWidth: (width: Int, inner: Int) {
        let width = min(56, size.columns - 2)
        return (width, width - 4)
    }

    /// A box `height` rows high in the middle of the screen (below the title row), `title` in bold on its first rows
    /// inside: where the box is, and the row below the title.
    @discardableResult
    public mutating func drawDialog(width: Int, height: Int, title: [String], unicode: Bool)
        -> (top: Int, left: Int, below: Int)
    {
        let top = max(1, (size.rows - height) / 2)
        let left = max(0, (size.columns - width) / 2)
        drawBox(top: top, left: left, width: width, height: height, unicode: unicode)
        let below = put(lines: title, row: top + 1, column: left + 2, style: .bold)
        return (top, left, below)
    }

    /// `lines` one under the other from `row`: the row below the last.
    @discardableResult
    public mutating func put(lines: [String], row: Int, column: Int, style: Style = .normal) -> Int {
        for (offset, line) in lines.enumerated() { put(line, row: row + offset, column: column, style: style) }
        return row + lines.count
    }
}

extension Canvas {
    /// An empty box with a bold border.
    public mutating func drawBox(top: Int, left: Int, width: Int, height: Int, unicode: Bool) {
        let (h, v, tl, tr, bl, br) = unicode ? ("─", "│", "┌", "┐", "└", "┘") : ("-", "|", "+", "+", "+", "+")
        put(tl + String(repeating: h, count: width - 2) + tr, row: top, column: left, style: .bold)
        for y in 1..<(height - 1) {
            put(v + String(repeating: " ", count: width - 2) + v, row: top + y, column: left, style: .bold)
        }
        put(bl + String(repeating: h, count: width - 2) + br, row: top + height - 1, column: left, style: .bold)
    }
}
