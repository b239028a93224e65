import GameClient
import GameProtocol
import Localization
import PairingCode
import TextSupport
import TerminalWidgets

/// The form that asks for a private game's code: after a join ended with exit 13 (the host runs a private game and
/// no code was given, or the code given was wrong), and for a game already known to be private. Enter joins the same
/// target again with the typed code; Esc goes back. The typed text is checked with `GameCode(parsing:)` and its
/// error shown here (the error never repeats the text); only the six digits go on, to the join effect.
public struct CodeEntry: Hashable, Sendable {
    /// Why the code is asked for.
    public enum Reason: Hashable, Sendable {
        /// The game is private and no code was given.
        case privateGame
        /// The code given was not the host's.
        case wrongCode
    }

    package enum Outcome: Equatable {
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
    package static let maximumLength = 20

    /// The form for joining (or watching) `target` as `name`: after the host turned it away for its code (exit 13),
    /// or before joining a game known to be private.
    package init(reason: Reason, name: String, target: String, watching: Bool = false) {
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

    /// What a key does to the field.
    package mutating func react(to key: Key) -> Outcome {
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
    package static func grouped(_ digits: String) -> String {
        guard digits.count == GameCode.digitCount else { return digits }
        return "\(digits.prefix(3)) \(digits.dropFirst(3))"
    }
}
