import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

/// The code form: Enter joins or watches with the code, Esc goes back; the field as drawn.
extension CodeEntry: ScreenContent {
    /// The status line under the form.
    func statusText(_ view: ScreenView) -> String {
        switch reason {
        case .privateGame: return tr("A private game: the host's screen shows its code")
        case .wrongCode: return tr("Failed: wrong code")
        }
    }

    var menuItem: MenuItem { watching ? .watch : .joinByAddress }

    /// Enter joins (or watches) the same target again with the code; Esc goes back.
    mutating func handle(_ key: Key) -> Step {
        switch react(to: key) {
        case .none:
            return Step()
        case .cancel:
            return Step(.back)
        case .submit(let code):
            if watching { return WatchGame.start(target, as: name, code: code) }
            return Step([.checkNetwork(.join(name: name, address: target))],
                        .replace(.network(NetworkGame(role: .joiner, localName: name, target: target, code: code))))
        }
    }

    func render(into canvas: inout Canvas, _ view: ScreenView) {
        let size = view.size
        canvas.putCentered(title, row: 3, style: reason == .wrongCode ? .error : .bold)
        let target = DisplayWidth.truncate(DisplayText.escaped(self.target), to: 40)
        let name = DisplayWidth.truncate(DisplayText.escaped(self.name), to: 20)
        let line = watching ? tr("Watching %@ as %@", target, name) : tr("Joining %@ as %@", target, name)
        canvas.putCentered(DisplayWidth.truncate(line, to: size.columns - 2), row: 5, style: .dim)
        let left = max(1, (size.columns - 40) / 2)
        canvas.put(tr("Code (6 digits)"), row: 7, column: left, style: .dim)
        let value = DisplayText.escaped(text) + "_"
        canvas.put(" " + DisplayWidth.fit(DisplayWidth.truncate(value, to: 37), to: 38),
                   row: 8, column: left, style: .selected)
        if let error {
            for (index, line) in wrap(error, width: size.columns - left - 1).prefix(2).enumerated() {
                canvas.put(line, row: 10 + index, column: left, style: .error)
            }
        }
        canvas.put(DisplayWidth.truncate(tr("The host's screen shows the code."), to: size.columns - left - 1),
                   row: 13, column: left, style: .dim)
    }

    func hints(_ view: ScreenView) -> String {
        watching ? tr("Enter watches with this code · Esc back") : tr("Enter joins with this code · Esc back")
    }
}
