import FoundationEssentials
import TextSupport

/// Where tictactoe keeps its files, following the XDG base directory variables in one place: every file of the app
/// (the local network decision, the settings, the log, the saved games) takes its directory from here, so they move together when
/// `HOME` or an `XDG_*_HOME` variable changes.
///
/// An `XDG_*_HOME` that is not an absolute path is ignored, as the XDG spec asks; `HOME` comes from the environment
/// given (the passwd entry only when it is unset or empty).
public enum AppDirectories {
    /// `$TICTACTOE_CONFIG_DIR` (tests, the demo), else `$XDG_CONFIG_HOME/tictactoe`, else `$HOME/.config/tictactoe`:
    /// the local network decision (`local-network.json`) and the settings (`settings.json`).
    public static func config(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let override = environment["TICTACTOE_CONFIG_DIR"], !override.isEmpty { return override }
        return base("XDG_CONFIG_HOME", default: ".config", environment: environment)
    }

    /// `$XDG_STATE_HOME/tictactoe`, else `$HOME/.local/state/tictactoe`: the log.
    public static func state(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        base("XDG_STATE_HOME", default: ".local/state", environment: environment)
    }

    /// `$XDG_DATA_HOME/tictactoe`, else `$HOME/.local/share/tictactoe`: the games the terminal UI saved (`games/`).
    public static func data(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        base("XDG_DATA_HOME", default: ".local/share", environment: environment)
    }

    /// `data/games`: the games the terminal UI saved, one file each, which `tictactoe replay` reads.
    public static func games(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        data(environment: environment) + "/games"
    }

    /// `$HOME` from `environment`, else the account's home directory.
    public static func home(environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
    }

    private static func base(_ variable: String, default relative: String, environment: [String: String]) -> String {
        if let value = environment[variable], value.hasPrefix("/") {
            return PathText.join(value, "tictactoe")
        }
        return PathText.join(home(environment: environment), relative + "/tictactoe")
    }
}
