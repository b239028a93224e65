import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets

extension AppModel {
    /// Draws the whole window: the title, the screen on top of the stack, its key hints and status line, and the
    /// modals over it (the prompt, a question, the help).
    public func render(unicode: Bool) -> Canvas {
        var canvas = Canvas(size: size)
        if isTooSmall {
            renderTooSmall(into: &canvas)
            return canvas
        }
        canvas.putCentered(tr("TicTacToe"), row: 0, style: .title)
        let view = ScreenView(shared: shared, unicode: unicode, below: below, asking: prompt != nil)
        let content = screen.content
        content.render(into: &canvas, view)
        let status = flash ?? content.statusText(view)
        var hints = prompt?.hints ?? content.hints(view)
        if !unicode {
            hints = hints.replacing("·", with: "|").replacing("↑/↓", with: "up/down")
                .replacing("←/→", with: "left/right")
        }
        if settings.keyHints && prompt == nil {  // Settings › Key hints
            canvas.put(DisplayWidth.truncate(hints, to: size.columns - 1), row: size.rows - 2, column: 1, style: .dim)
        }
        canvas.put(String(repeating: " ", count: size.columns), row: size.rows - 1, column: 0, style: .status)
        canvas.put(DisplayWidth.truncate(status, to: size.columns - 2), row: size.rows - 1, column: 1, style: .status)
        if let prompt {
            prompt.render(into: &canvas, unicode: unicode)
            canvas.put(String(repeating: " ", count: size.columns), row: size.rows - 2, column: 0)
            canvas.put(DisplayWidth.truncate(hints, to: size.columns - 1), row: size.rows - 2, column: 1, style: .dim)
        }
        if let confirmation {
            confirmation.render(into: &canvas, unicode: unicode)
            canvas.put(String(repeating: " ", count: size.columns), row: size.rows - 2, column: 0)
        }
        if showHelp { renderHelp(into: &canvas, unicode: unicode) }
        return canvas
    }

    /// A window too small to play in says how big it must be (or shows the question asked meanwhile).
    private func renderTooSmall(into canvas: inout Canvas) {
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
            canvas.put(DisplayWidth.truncate(line, to: size.columns), row: top + i, column: 0,
                       style: i == 1 ? .bold : .normal)
        }
    }

    private func renderHelp(into canvas: inout Canvas, unicode: Bool) {
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

/// A status line that counts: its own line for none and for one, and `many` given the count.
func counted(_ count: Int, none: String, one: String, many: (String) -> String) -> String {
    switch count {
    case 0: return none
    case 1: return one
    default: return many(String(count))
    }
}
