import GameProtocol
import GameClient
import FoundationEssentials
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

/// The host, join, watch and engine forms: Enter hosts, joins, watches or starts the game, Esc goes back; the fields as
/// drawn.
extension Form: ScreenContent {
    /// The form filled in from the settings.
    init(kind: Kind, settings: UISettings, privateGame: Bool = false) {
        self.init(kind: kind, name: settings.name, port: settings.port, addressHistory: settings.addressHistory,
                  engineCommand: settings.engineCommand, spectators: settings.spectators, privateGame: privateGame)
    }

    var menuItem: MenuItem {
        switch kind {
        case .join: return .joinByAddress
        case .watch: return .watch
        case .engine: return .engine
        case .host: return privateGame ? .privateHost : .host
        }
    }

    mutating func handle(_ key: Key, _ shared: inout Shared) -> Step {
        switch react(to: key) {
        case .none:
            return Step()
        case .cancel:
            return Step(.back)
        case .submit:
            return submit(&shared)
        case .joinByName(let target):
            // The same way as choosing the game on the Search screen.
            shared.settings.name = name
            if kind == .watch { return WatchGame.start(target, as: name, code: nil).after(shared.saved()) }
            return Step(shared.saved() + [.checkNetwork(.join(name: name, address: target))],
                        .replace(.network(NetworkGame(role: .joiner, localName: name, target: target))))
        }
    }

    /// Enter on a valid form: host, join, watch or play the engine; the name (and port, address or command) become
    /// the settings' for the next time.
    private func submit(_ shared: inout Shared) -> Step {
        shared.settings.name = name
        switch kind {
        case .host:
            shared.settings.port = port ?? shared.settings.port
            shared.settings.spectators = spectators
            let listen = shared.settings.port
            let game = NetworkGame(role: .host, localName: name, target: tr("port %@", String(listen)),
                                   security: privateGame ? .private : .open, port: listen, spectators: spectators)
            return Step(shared.saved() + [.checkNetwork(.host(name: name, port: listen, isPrivate: privateGame))],
                        .replace(.network(game)))
        case .engine:
            let command = second.trimmingWhitespace()
            shared.settings.engineCommand = command
            shared.seed &+= 1
            var game = ComputerGame(settings: shared.settings, seed: shared.seed, engine: command)
            let effects = game.begin()
            return Step(shared.saved() + [.startEngine(command: command)] + effects, .replace(.computer(game)))
        case .join:
            shared.settings.addressHistory = AddressHistory.adding(address, to: shared.settings.addressHistory)
            return Step(shared.saved() + [.checkNetwork(.join(name: name, address: address))],
                        .replace(.network(NetworkGame(role: .joiner, localName: name, target: address))))
        case .watch:
            shared.settings.addressHistory = AddressHistory.adding(address, to: shared.settings.addressHistory)
            return WatchGame.start(address, as: name, code: nil).after(shared.saved())
        }
    }

    func render(into canvas: inout Canvas, _ view: ScreenView) {
        let size = view.size
        canvas.putCentered(title, row: 3, style: .bold)
        let left = max(1, (size.columns - 40) / 2)
        let fields = [(tr("Name"), nameField), (secondLabel, secondField)]
        for (index, field) in fields.enumerated() {
            let row = 6 + index * 3
            canvas.put(field.0, row: row, column: left, style: .dim)
            let editing = index == self.field
            let (value, cursor) = field.1.view(width: 36, editing: editing)
            canvas.put(" " + DisplayWidth.fit(value, to: 38), row: row + 1, column: left,
                       style: editing ? .selected : .normal)
            if let cursor { canvas.restyle(row: row + 1, column: left + 1 + cursor, width: 1, style: .cursor) }
        }
        let width = size.columns - left - 1
        var below = 12
        if kind == .host {
            let value = spectators == 0 ? tr("< off >") : "< \(spectators) >"
            let line = DisplayWidth.fit(tr("Spectators"), to: 14) + value
            // A label like the fields' (in line with them), its value beside it: one row, highlighted when chosen.
            canvas.put(DisplayWidth.fit(line, to: 39), row: 12, column: left, style: field == 2 ? .selected : .normal)
            below = 14
        }
        if let error {
            // Escaped (it may quote what was typed) line by line: the \n between them is the form's own.
            let lines = error.split(separator: "\n").flatMap { wrap(DisplayText.escaped(String($0)), width: width) }
            for (index, line) in lines.prefix(3).enumerated() {
                canvas.put(line, row: below + index, column: left, style: .error)
            }
        } else if let check = addressCheck {  // said as the address is typed
            for (index, line) in wrap(DisplayText.escaped(check.text), width: width).prefix(2).enumerated() {
                canvas.put(line, row: below + index, column: left, style: check.isError ? .error : .dim)
            }
        }
        if kind == .host {
            let text = privateGame
                ? tr("Others join you at the addresses and with the code shown next.")
                : tr("Others join you at the addresses shown next.")
            canvas.put(DisplayWidth.truncate(text, to: size.columns - left - 1), row: 16, column: left, style: .dim)
        }
    }

    func hints(_ view: ScreenView) -> String {
        if offeredName != nil { return tr("s or Enter searches for it · any other key edits · Esc back") }
        if kind == .join && field == 1 {
            return tr(
                "Enter joins · ↑/↓ earlier addresses · Ctrl-U clears · Ctrl-W deletes a word · Tab name · Esc back")
        }
        if field == 2 { return tr("←/→ how many may watch · Tab switches field · Enter starts hosting · Esc back") }
        switch kind {
        case .watch: return tr("Tab switches field · Enter watches · Esc back")
        case .host: return tr("Tab switches field · Enter starts hosting · Esc back")
        case .join: return tr("Tab switches field · Enter joins · Esc back")
        case .engine: return tr("Tab switches field · Enter starts the game · Esc back")
        }
    }

    func statusText(_ view: ScreenView) -> String { "" }
}
