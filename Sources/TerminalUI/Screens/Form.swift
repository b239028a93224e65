import GameProtocol
import GameClient
import FoundationEssentials
import EngineProtocol
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

/// The Host a game / Host a private game / Join by address form: the player name and the port or address, each a
/// `LineEditor`. The address field recalls the addresses joined before (↑/↓, newest first) and says as the person
/// types whether the text is an address `tictactoe join` would connect to, a malformed one (why), or a game's name.
public struct Form: Hashable, Sendable, ScreenContent {
    /// `.engine`: Play against an engine; the second field is the engine's command line (as after `engine:`).
    /// `.watch`: Watch a game, an address or a game's name, as Join by address takes it.
    public enum Kind: Hashable, Sendable { case host, join, engine, watch }
    public enum Outcome: Hashable, Sendable {
        case none, cancel, submit
        /// Join the game with this (Bonjour) name, as the Search screen does: the text was a name, not an address,
        /// and the person said so (s or Enter after the form offered it). The text as typed (trimmed): the join
        /// reads it as `tictactoe join` does (escapes such as `\x1b` turned back, once).
        case joinByName(String)
    }

    public let kind: Kind
    /// Host a private game: joiners need the code the host's screen shows.
    public let privateGame: Bool
    public var nameField: LineEditor
    public var secondField: LineEditor
    /// 0: name, 1: port/address, 2: spectators (host forms).
    public var field = 1
    /// How many spectators a host form allows (0: none): its Spectators row cycles through
    /// `UISettings.spectatorChoices`.
    public private(set) var spectators = 0

    /// How many rows the form has.
    var fieldCount: Int { kind == .host ? 3 : 2 }
    public var error: String?
    /// The text the form offered to search for as a game name (after Enter on a name): s or Enter joins it.
    public private(set) var offeredName: String?

    init(kind: Kind, settings: UISettings, privateGame: Bool = false) {
        self.kind = kind
        self.privateGame = privateGame
        nameField = LineEditor(settings.name, limit: .playerName)  // 63 bytes, as --name
        spectators = UISettings.spectatorChoices.contains(settings.spectators) ? settings.spectators : 0
        switch kind {
        case .host: secondField = LineEditor(String(settings.port), limit: .characters(5))
        case .join, .watch:
            secondField = LineEditor("", limit: .characters(100), history: settings.addressHistory)
        case .engine: secondField = LineEditor(settings.engineCommand ?? "", limit: .characters(400))
        }
    }

    public var name: String { nameField.text }
    public var second: String { secondField.text }

    public var secondLabel: String {
        switch kind {
        case .host: return tr("Port")
        case .join: return tr("Address (host:port)")
        case .watch: return tr("Address or game name")
        case .engine: return tr("Engine command")
        }
    }
    public var title: String {
        switch kind {
        case .host: return privateGame ? tr("Host a private game") : tr("Host a game")
        case .join: return tr("Join by address")
        case .watch: return tr("Watch a game")
        case .engine: return tr("Play against an engine")
        }
    }

    var port: Int? { Int(second.trimmingWhitespace()) }
    var address: String { second.trimmingWhitespace() }

    /// What the join form says under the address while it is typed: (text, whether it is an error); nil when there is
    /// nothing to say (nothing typed, or the host form). The text quotes what was typed: it is escaped where it is
    /// drawn (`DisplayText.escaped`), as `error` is.
    public var addressCheck: (text: String, isError: Bool)? {
        guard kind == .join || kind == .watch else { return nil }
        switch JoinTarget.check(second) {
        case .empty:
            return nil
        case .address(let endpoint):
            return (kind == .watch ? tr("Watches %@", "\(endpoint)") : tr("Joins %@", "\(endpoint)"), false)
        case .invalid(let problem):
            return (tr("%@. Type HOST:PORT, [IPv6]:PORT or an IP address.", Self.sentence(problem.why)), true)
        case .gameName(let name):
            if kind == .watch { return (tr("Watches the game named '%@'", name), false) }
            return (tr("'%@' looks like a game name, not an address.", name), false)
        }
    }

    /// What a key does to the form itself.
    private mutating func react(to key: Key) -> Outcome {
        error = nil
        if let offered = offeredName {
            offeredName = nil
            if key == .character("s") || key == .enter { return .joinByName(offered) }
        }
        switch key {
        case .escape:
            return .cancel
        case .tab, .down where field == 2:
            field = (field + 1) % fieldCount
        case .backTab, .up where field == 2:
            field = (field + fieldCount - 1) % fieldCount
        case .left where field == 2, .right where field == 2, .character(" ") where field == 2,
             .character("h") where field == 2, .character("l") where field == 2:
            let choices = UISettings.spectatorChoices
            let step = key == .left || key == .character("h") ? -1 : 1
            let index = choices.firstIndex(of: spectators) ?? 0
            spectators = choices[(index + step + choices.count) % choices.count]
        case .down where field == 0, .up where field == 0:
            field = 1
        case .up where secondField.history.isEmpty || (kind != .join && kind != .watch),
             .down where secondField.recalled == nil:
            field = kind == .host && key == .down ? 2 : 1 - field
        case .enter:
            return validate()  // from any field, as the key line says
        case _ where field == 2:
            break
        default:
            if field == 0 { nameField.handle(key) } else { secondField.handle(key) }
        }
        return .none
    }

    private mutating func validate() -> Outcome {
        if name.trimmingWhitespace().isEmpty {
            error = tr("Type a name for yourself")
            field = 0
            return .none
        }
        field = 1  // a problem below is the second field's: the cursor goes there
        switch kind {
        case .host:
            guard let port, (0...65535).contains(port) else {
                error = tr("The port is a number from 1 to 65535 (0: any free port)")
                return .none
            }
        case .join:
            switch JoinTarget.check(second) {
            case .empty:
                error = tr("Type the host's address, e.g. 192.0.2.10 or 192.0.2.10:7878")
                return .none
            case .invalid:
                error = addressCheck?.text
                return .none
            case .gameName(let name):
                offeredName = address
                // Two lines: the second, what to do, never wraps in the middle.
                error = tr("'%@' looks like a game name, not an address:", name) + "\n"
                    + tr("press s to search for it on the local network")
                return .none
            case .address:
                break
            }
        case .watch:
            switch JoinTarget.check(second) {
            case .empty:
                error = tr("Type the host's address or the game's name")
                return .none
            case .invalid:
                error = addressCheck?.text
                return .none
            case .gameName:
                return .joinByName(address)  // a name is watched as Search would
            case .address:
                break
            }
        case .engine:
            do throws(EngineCommandLine.ParseError) {
                _ = try EngineCommandLine.split(second)
            } catch {
                self.error = tr("The engine command cannot be run: %@", "\(error)")
                return .none
            }
        }
        return .submit
    }

    /// `text` with a capital first letter.
    private static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    // MARK: The screen

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
