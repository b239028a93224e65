import FoundationEssentials
import GameProtocol
import GameRules
import GameClient
import Localization
import NetworkScreenState

/// What the person can set in Settings.
public struct UISettings: Hashable, Sendable {
    /// The computer's strength, weakest first (←/→ cycle through them); the raw value is its one name, as in
    /// `--player` and settings.json.
    public enum Difficulty: String, Hashable, Sendable, CaseIterable {
        case easy, medium, perfect

        /// The shared match's level of the same name.
        var strength: ComputerMatch.Strength {
            switch self {
            case .easy: return .easy
            case .medium: return .medium
            case .perfect: return .perfect
            }
        }

        init(_ strength: ComputerMatch.Strength) {
            switch strength {
            case .easy: self = .easy
            case .medium: self = .medium
            case .perfect: self = .perfect
            }
        }

        /// Its name as the screen shows it, in the language in use.
        public var title: String {
            switch self {
            case .easy: return tr("easy")
            case .medium: return tr("medium")
            case .perfect: return tr("perfect")
            }
        }
    }
    public enum Starter: String, Hashable, Sendable, CaseIterable {
        case you, computer, alternate

        /// Its name as Settings shows it, in the language in use.
        public var title: String {
            switch self {
            case .you: return tr("you")
            case .computer: return tr("computer")
            case .alternate: return tr("alternate")
            }
        }
    }

    public var difficulty: Difficulty = .perfect
    public var starter: Starter = .alternate
    public var name: String
    public var port: Int = 7878
    /// The addresses joined by address, newest first (at most `AddressHistory.limit`, each once): ↑/↓ in Join by
    /// address.
    public var addressHistory: [String] = []
    /// Colours on (the default) or off; off, or `--no-color`/`NO_COLOR`, draws with bold, dim and reverse only.
    public var colors = true
    /// The key-hint line above the status line shown (the default) or hidden.
    public var keyHints = true
    /// The engine command last played against (Play against an engine), offered the next time.
    public var engineCommand: String?
    /// How many spectators the host forms allow (0: none; ←/→ cycle through `Form.spectatorChoices`).
    public var spectators = 0

    /// `name` in NFC, cut to 63 bytes at a character boundary (`PlayerName.fitted`), as the name field keeps it.
    public init(name: String) {
        self.name = PlayerName.fitted(name)
    }

    /// The settings kept between launches over the defaults: a field missing or not understood keeps its default;
    /// the name goes through `PlayerName.fitted` (a blank one is the default name).
    public init(stored: StoredSettings, defaultName: String) {
        self.init(name: defaultName)
        if let name = stored.name.map(PlayerName.fitted), !name.trimmingWhitespace().isEmpty {
            self.name = name
        }
        if let difficulty = stored.difficulty.flatMap(Difficulty.init(rawValue:)) { self.difficulty = difficulty }
        if let starter = stored.starter.flatMap(Starter.init(rawValue:)) { self.starter = starter }
        if let port = stored.port, (0...65535).contains(port) { self.port = port }
        // A file of an older version has only the last address; one an older version wrote after a newer one may
        // have a last address newer than the history it kept: it goes first.
        var history = stored.addressHistory ?? []
        if let last = stored.lastAddress, history.first != last { history = AddressHistory.adding(last, to: history) }
        addressHistory = AddressHistory.cleaned(history)
        if let colors = stored.colors { self.colors = colors }
        if let keyHints = stored.keyHints { self.keyHints = keyHints }
        if let engine = stored.engine, !engine.trimmingWhitespace().isEmpty { engineCommand = engine }
        if let spectators = stored.spectators, Form.spectatorChoices.contains(spectators) {
            self.spectators = spectators
        }
    }

    /// What is kept between launches.
    public var stored: StoredSettings {
        StoredSettings(
            name: name, difficulty: difficulty.rawValue, starter: starter.rawValue, port: port,
            lastAddress: addressHistory.first, addressHistory: addressHistory, colors: colors, keyHints: keyHints,
            engine: engineCommand, spectators: spectators == 0 ? nil : spectators)
    }
}
