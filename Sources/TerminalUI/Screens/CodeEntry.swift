import GameClient
import GameProtocol
import Localization
import PairingCode
import TextSupport
import TerminalWidgets
import NetworkScreenState

/// The form that asks for a private game's code: after a join ended with exit 13 (the host runs a private game and
/// no code was given, or the code given was wrong), and for a game already known to be private. Enter joins the same
/// target again with the typed code; Esc goes back. The typed text is checked with `GameCode(parsing:)` and its
/// error shown here (the error never repeats the text); only the six digits go on, to the join effect.
public struct CodeEntry: Hashable, Sendable, ScreenContent {
    /// Why the code is asked for.
    public enum Reason: Hashable, Sendable {
        /// The game is private and no code was given.
        case privateGame
        /// The code given was not the host's.
        case wrongCode
    }

    enum Outcome: Equatable {
        case none, cancel
        /// The code, as six digits.
        case submit(String)
    }

    public let reason: Reason
    /// The player's name, and the game to join again (an address or a Bonjour name, as typed or listed).
    public let name: String
    public let target: String
    /// What the player typed (shown on this screen only).
    public private(set) var text = ""
    public private(set) var error: String?
    /// The code is for watching `target` (a spectator), not joining it.
    public let watching: Bool

    /// The most characters the field takes (six digits with spaces or dashes fit easily).
    static let maximumLength = 20

    /// The form for joining (or watching) `target` as `name`: after the host turned it away for its code (exit 13),
    /// or before joining a game known to be private.
    init(reason: Reason, name: String, target: String, watching: Bool = false) {
        self.reason = reason
        self.name = name
        self.target = target
        self.watching = watching
    }

    public var title: String {
        switch reason {
        case .privateGame: return tr("This game is private: enter its code")
        case .wrongCode: return NetworkGame.wrongCode
        }
    }

    /// The status line under the form.
    func statusText(_ view: ScreenView) -> String {
        switch reason {
        case .privateGame: return tr("A private game: the host's screen shows its code")
        case .wrongCode: return tr("Failed: wrong code")
        }
    }

    /// What a key does to the field.
    private mutating func react(to key: Key) -> Outcome {
        error = nil
        switch key {
        case .escape:
            return .cancel
        case .enter:
            do {
                let code = try GameCode(parsing: text)
                guard let digits = code.revealed else { return .none }  // a parsed code always has six digits
                return .submit(digits)
            } catch {
                self.error = "\(error)"  // says what a code looks like; never repeats the text
                return .none
            }
        case .backspace, .delete:
            if !text.isEmpty { text.removeLast() }
        case .character(let c) where !c.isNewline && DisplayWidth.of(c) > 0:
            if text.count < Self.maximumLength { text.append(c) }
        default:
            break
        }
        return .none
    }

    /// Six digits as people read them: "482 913".
    static func grouped(_ digits: String) -> String {
        guard digits.count == GameCode.digitCount else { return digits }
        return "\(digits.prefix(3)) \(digits.dropFirst(3))"
    }

    // MARK: The screen

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
