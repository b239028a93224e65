import AppCore
import AppFiles
import AppManifest
import AppProcess
import ArgumentParser
import CursesTerminal
import FoundationEssentials
import GameProtocol
import HeadlessUI
import LocalNetworkPrivacy
import MatchPlay
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

extension LineGame.FirstMover: ExpressibleByArgument {}

/// `play`: its options are parsed into a `PlayOptions`, which runs the game. `tictactoe` with no arguments runs
/// `PlayOptions.defaults` without argument-parser (`FastPath`): the declarations' defaults are those of
/// `PlayOptions` (an optional's is nil on both sides), so the two cannot differ.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Open the full-screen game (the default command).",
        discussion: """
            The menu offers: play against the computer, host a game, search for games, join by address, past games \
            (replay a saved game), settings. \
            Keys: arrows, hjkl or WASD move; Enter or Space places; 1-9 place directly (reading order: 1 top-left, \
            9 bottom-right); mouse clicks place; r rematch; q back; ? help. Launching touches no network. Each finished \
            game is saved in $XDG_DATA_HOME/tictactoe/games (the last 100) for `tictactoe replay`.

            --plain plays against the computer in line mode instead (also used when there is no terminal).
            """
    )

    @Flag(help: "Line mode against the computer instead of the full-screen UI.")
    var plain = PlayOptions.defaults.plain

    @Flag(help: "No colours (the NO_COLOR environment variable does the same).")
    var noColor = PlayOptions.defaults.noColor

    @Option(help: MatchArguments.nameHelp)
    var name: String?

    @Option(help: "Line mode: the computer's strength: easy (random moves; random is another name for it), medium (the perfect move 7 times in 10) or perfect (never loses); or engine:COMMAND, a program speaking the engine protocol of docs/ENGINE.md (always line mode; it loses a game it crashes, hangs or cheats in).")
    var computer = PlayOptions.defaults.computer

    @Option(help: "Line mode: who moves first, you, computer, or alternate.")
    var first = PlayOptions.defaults.first

    @Option(help: "Seed for the computer (default: random).")
    var seed: UInt64?

    @Option(help: ArgumentHelp("Where the debug log goes (default: \(FileLogHandler.defaultPath)).", valueName: "path"))
    var logFile: String?

    @Flag(help: "Ask for local network access at launch and browse at once, like an app just recompiled for iOS 14 (the jarring way; by default nothing is asked until you search, host or join).")
    var promptAtLaunch = PlayOptions.defaults.promptAtLaunch

    @Option(help: ArgumentHelp("The app manifest (default: the installed share/tictactoe/Info.plist, else, for a development build, the checkout's Assets/Info.plist).", valueName: "path"))
    var infoPlist: String?

    /// The parsed options.
    var options: PlayOptions {
        PlayOptions(
            plain: plain, noColor: noColor, name: name, computer: computer, first: first, seed: seed, logFile: logFile,
            promptAtLaunch: promptAtLaunch, infoPlist: infoPlist)
    }

    func validate() throws {
        try options.validate()
    }

    func run() throws {
        try options.run()
    }
}

/// What `play` does, as a function of plain values: `Play` builds them from its parsed options, the fast path for
/// `tictactoe` with no arguments (`Entry`, `FastPath`) uses `defaults`, the one source of the options' defaults.
struct PlayOptions: Sendable {
    var plain = false
    var noColor = false
    var name: String?
    var computer: PlayerSpec = .perfect
    var first: LineGame.FirstMover = .alternate
    var seed: UInt64?
    var logFile: String?
    var promptAtLaunch = false
    var infoPlist: String?

    /// Every option at its default: `tictactoe` and `tictactoe play`.
    static let defaults = PlayOptions()

    /// `play`'s checks of its options (argument-parser's `validate()`: a `ValidationError` is a usage error).
    func validate() throws {
        try MatchArguments.validate(name: name)
        if let problem = computer.usageProblem { throw ValidationError("--computer \(problem)") }
        guard computer.strength != nil || computer.engineCommand != nil else {
            throw ValidationError("--computer must be easy, medium, perfect or engine:COMMAND")
        }
    }

    func run() throws {
        // Read once: each read copies the whole environment into a dictionary.
        let environment = ProcessInfo.processInfo.environment
        AppManifest.useLanguage(explicitPath: infoPlist, environment: environment)
        let seed = seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        let clock = ContinuousClock()
        if plain || !interactive || computer.engineCommand != nil {
            var game = try LineGame(
                computer: computer, seed: seed, first: first, unicode: Terminal.isUTF8, clock: clock)
            _ = game.run()
            // The game ends at its next prompt once standard output fails (a closed pipe, a full disk). Lines still
            // held when it returns are `Entry`'s to write, and a failure then is exit 74 too.
            if let failure = CheckedOutput.standardOutput.failure { throw commandFailure(failure) }
            return
        }
        let logPath = logFile ?? FileLogHandler.defaultPath
        let log = FileLogHandler.bootstrap(path: logPath, level: .debug)
        let colors = !noColor && (environment["NO_COLOR"] ?? "").isEmpty
        // The settings of the last launch (settings.json); --name overrides the name.
        let settingsStore = SettingsFile(directory: AppDirectories.config(environment: environment)).client()
        let loaded = settingsStore.load()
        var settings = UISettings(stored: loaded.settings, defaultName: MatchArguments.defaultName())
        if let name { settings.name = PlayerName.fitted(name) }
        // The gate reads nothing yet: the manifest and the decision are read when the user first needs the network.
        let gate = LocalNetworkGate(explicitManifestPath: infoPlist)
        let app = UIApp(
            terminal: CursesTerminal(), settings: settings, client: .live(gate: gate, logFile: logPath, clock: clock),
            settingsStore: settingsStore,
            gameArchive: .live(GameArchive(directory: AppDirectories.games(environment: environment))),
            promptAtLaunch: promptAtLaunch, colors: colors,
            seed: seed, clock: UIApp.elapsed(on: clock)
        )
        let signals = catchSignals(for: app)
        defer { withExtendedLifetime(signals) {} }
        // Never over the curses screen: a failing log file is one warning in the status line.
        log.onFailure { [queue = app.queue] error in queue.post(.notice("Warning: \(FileLogHandler.warning(error))")) }
        if let warning = loaded.warning { app.queue.post(.notice("Warning: \(warning)")) }
        let status: ExitStatus
        do {
            status = try app.run()
        } catch {
            throw commandFailure(error)
        }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}

/// The full-screen game's signals: Ctrl-C, SIGTERM and SIGHUP stop it as they stop every command (`.signal`: it tells
/// a connected peer, restores the terminal and exits), and a resize wakes it to redraw (curses' own SIGWINCH handler
/// is not installed).
func catchSignals(for app: UIApp) -> SignalCatcher {
    let stops = Shutdown.reasons()
    return SignalCatcher(Shutdown.stopSignals.map(\.number) + [SIGWINCH]) { [queue = app.queue] number in
        if let reason = stops[number] { queue.post(.signal(reason)) } else { queue.postResize() }
    }
}
