import GameProtocol
import GameClient
import FoundationEssentials
import EngineProtocol
import Localization
import TextSupport
import TerminalWidgets

/// The Host a game / Host a private game / Join by address form: the player name and the port or address, each a
/// `LineEditor`. The address field recalls the addresses joined before (↑/↓, newest first) and says as the person
/// types whether the text is an address `tictactoe join` would connect to, a malformed one (why), or a game's name.
public struct Form: Hashable, Sendable {
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
    /// How many spectators a host form allows (0: none): its Spectators row cycles through `spectatorChoices`.
    public private(set) var spectators = 0

    /// What the host forms' Spectators row offers.
    public static let spectatorChoices = [0, 1, 2, 4, 8]

    /// How many rows the form has.
    package var fieldCount: Int { kind == .host ? 3 : 2 }
    public var error: String?
    /// The text the form offered to search for as a game name (after Enter on a name): s or Enter joins it.
    public private(set) var offeredName: String?

    /// The form filled in with what was used last: the name, and the port, the addresses joined (newest first), the
    /// engine command or the spectators allowed, as the kind asks.
    package init(kind: Kind, name: String, port: Int, addressHistory: [String], engineCommand: String?,
                 spectators: Int, privateGame: Bool = false) {
        self.kind = kind
        self.privateGame = privateGame
        nameField = LineEditor(name, limit: .playerName)  // 63 bytes, as --name
        self.spectators = Self.spectatorChoices.contains(spectators) ? spectators : 0
        switch kind {
        case .host: secondField = LineEditor(String(port), limit: .characters(5))
        case .join, .watch:
            secondField = LineEditor("", limit: .characters(100), history: addressHistory)
        case .engine: secondField = LineEditor(engineCommand ?? "", limit: .characters(400))
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

    package var port: Int? { Int(second.trimmingWhitespace()) }
    package var address: String { second.trimmingWhitespace() }

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
    package mutating func react(to key: Key) -> Outcome {
        error = nil
        if let offered = offeredName {
            offeredName = nil
            if key == .character("s") || key == .enter { return .joinByName(offered) }
        }
        switch key {
        case .escape:
            return .cancel
        case .tab,
             .down where field == 2:
            field = (field + 1) % fieldCount
        case .backTab,
             .up where field == 2:
            field = (field + fieldCount - 1) % fieldCount
        case .left where field == 2, .right where field == 2, .character(" ") where field == 2,
             .character("h") where field == 2, .character("l") where field == 2:
            let choices = Self.spectatorChoices
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
}
