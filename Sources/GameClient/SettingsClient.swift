/// The settings as kept between launches, as plain values: a field that is nil was not in the file (or was not
/// understood), and the front end uses its default for it. The front end maps these to its own settings.
public struct StoredSettings: Sendable, Hashable {
    public var name: String?
    /// `easy`, `medium` or `perfect` (`ComputerMatch.Strength`).
    public var difficulty: String?
    /// `you`, `computer` or `alternate`.
    public var starter: String?
    public var port: Int?
    /// The address last joined (written for older versions, which read only this; `addressHistory` is newer).
    public var lastAddress: String?
    /// The addresses joined, newest first.
    public var addressHistory: [String]?
    /// Colours on or off in the TUI.
    public var colors: Bool?
    /// The TUI's key-hint line shown or hidden.
    public var keyHints: Bool?
    /// The engine command last played against in the TUI (`engine:COMMAND` without `engine:`).
    public var engine: String?
    /// How many spectators the TUI's host forms allow (nil: none).
    public var spectators: Int?

    public init(
        name: String? = nil, difficulty: String? = nil, starter: String? = nil, port: Int? = nil,
        lastAddress: String? = nil, addressHistory: [String]? = nil, colors: Bool? = nil, keyHints: Bool? = nil,
        engine: String? = nil, spectators: Int? = nil
    ) {
        self.spectators = spectators
        self.engine = engine
        self.name = name
        self.difficulty = difficulty
        self.starter = starter
        self.port = port
        self.lastAddress = lastAddress
        self.addressHistory = addressHistory
        self.colors = colors
        self.keyHints = keyHints
    }
}

/// Loading and saving the settings (`settings.json`): `SettingsFile.client()` in AppFiles is the file; tests pass
/// closures and need no disk.
public struct SettingsClient: Sendable {
    /// The stored settings, and a warning when the file was there but could not be used (then: the defaults).
    public var load: @Sendable () -> (settings: StoredSettings, warning: String?)
    /// Stores the settings; returns a warning when they could not be written (the game goes on).
    public var save: @Sendable (StoredSettings) -> String?

    public init(
        load: @escaping @Sendable () -> (settings: StoredSettings, warning: String?),
        save: @escaping @Sendable (StoredSettings) -> String?
    ) {
        self.load = load
        self.save = save
    }

    /// Nothing is loaded or kept.
    public static let none = SettingsClient(load: { (StoredSettings(), nil) }, save: { _ in nil })
}
