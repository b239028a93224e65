import AppCore
import AppProcess
import ArgumentParser
import FoundationEssentials
import GameClient
import GameProtocol
import HeadlessUI
import Localization
import MatchPlay

#if canImport(Glibc)
import Glibc
#endif

extension PlayerSpec: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}

struct MatchArguments: ParsableArguments {
    @Option(help: MatchArguments.nameHelp)
    var name: String?

    @Flag(help: "Play without a terminal UI: a computer or scripted --player plays (default player: perfect).")
    var headless = false

    @Option(
        help: ArgumentHelp(
            "Who plays: a computer, easy (random moves; random is another name for it), medium (the perfect move 7 times in 10, seeded) or perfect (never loses); script:FILE (cells 1-9, reading order, used in turn); engine:COMMAND (a program speaking the engine protocol of docs/ENGINE.md, e.g. engine:'python3 bot.py --level 2': split like a shell would, quotes honoured, but no shell runs; it loses a game it crashes, hangs or cheats in; its stderr goes to a log named in the output); or human (line mode).",
            valueName: "player"
        )
    )
    var player: PlayerSpec?

    @Option(help: "Seed for the computer players (printed, so a run can be replayed; default: random).")
    var seed: UInt64?

    @Option(help: "Seconds to pause before each of your moves, \(OptionRanges.moveDelay.span) (to watch a headless game).")
    var moveDelay: Double = 0

    @Option(help: ArgumentHelp(
        "Each side's clock for a whole game, chess-clock style (only the mover's runs; reset each game), "
            + "\(OptionRanges.gameTime.span): the opponent loses the game on time when its clock runs out, and an "
            + "engine:COMMAND --player is told the game time it has left. Default: no game clock (a host's "
            + "--move-timeout still limits each move).",
        valueName: "seconds"))
    var gameTime: Double?

    @Flag(help: "Print one JSON object per line instead of a transcript.")
    var json = false

    @Option(help: ArgumentHelp("Where the debug log goes (default: \(FileLogHandler.defaultPath)).", valueName: "path"))
    var logFile: String?

    func bootstrapLogging() {
        bootstrapHeadlessLogging(path: logFile)
    }

    func validate() throws {
        try Self.validate(name: name)
        try OptionRanges.moveDelay.check(moveDelay)
        try OptionRanges.gameTime.check(gameTime)
        if let problem = player?.usageProblem { throw ValidationError("--player \(problem)") }
        if player == .human && headless {
            throw ValidationError(
                "--headless plays without a person: choose --player easy, medium, perfect, script:FILE or engine:COMMAND")
        }
    }

    /// `--name`'s rule for every command (`PlayerName`): some printable text, at most 63 bytes of UTF-8 after NFC.
    static func validate(name: String?) throws {
        if let name, let problem = PlayerName.problem(with: name) {
            throw ValidationError(
                "--name must have 1 to \(PlayerName.maximumBytes) bytes of UTF-8 (the length of a DNS label) of "
                    + "printable text, no control or bidi characters; \(problem). Choose another name.")
        }
    }

    /// `--name`'s help for every command.
    static let nameHelp = ArgumentHelp(
        "Your player name, shown to the opponent and, when you host, the game's Bonjour name: "
            + "\(PlayerName.limitText) (default: USER@HOSTNAME, cut to fit).")

    func options(games: Int?) -> MatchOptions {
        var options = MatchOptions(
            name: resolvedName, player: resolvedPlayer, seed: resolvedSeed, games: games,
            moveDelay: .seconds(moveDelay), clock: ContinuousClock()
        )
        options.gameTime = gameTime.map { .seconds($0) }
        return options
    }

    var resolvedPlayer: PlayerSpec { player ?? (headless ? .perfect : .human) }
    var resolvedSeed: UInt64 { seed ?? UInt64.random(in: 0...UInt64(UInt32.max)) }

    /// The name in NFC (`PlayerName`): the one sent in the hello, advertised and shown.
    var resolvedName: String { name.map(PlayerName.fitted) ?? Self.defaultName() }

    /// USER@HOSTNAME (short host name) in NFC, cut to `PlayerName.maximumBytes` at a character boundary.
    static func defaultName() -> String {
        let user = getenv("USER").map { String(cString: $0) } ?? "player"  // one variable, not a copy of them all
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        return PlayerName.fitted(host.isEmpty ? user : "\(user)@\(host)")
    }

    /// The run's reporter; `target` is where a join connects (shown as "Connecting to TARGET…").
    func reporter(name: String, target: String? = nil) -> MatchReporter {
        json ? JSONLinesReporter() : TranscriptReporter(localName: name, target: target, unicode: Terminal.isUTF8)
    }
}

enum Terminal {
    /// Whether the locale is UTF-8 (LC_ALL, else LC_CTYPE, else LANG): the rule that also picks English for a
    /// locale that is not (`LanguageRequest`).
    static var isUTF8: Bool { LanguageRequest(environment: ProcessInfo.processInfo.environment).utf8 }
}

/// Sends the logs to `path` (default: `FileLogHandler.defaultPath`); a log file that cannot be opened or written turns
/// logging off with one warning on standard error, and the command goes on.
func bootstrapHeadlessLogging(path: String?) {
    FileLogHandler.bootstrap(path: path ?? FileLogHandler.defaultPath, level: .debug).onFailure { error in
        printError("tictactoe: warning: \(FileLogHandler.warning(error))")
    }
}

/// How `join` and `watch` reach a host: how long to keep trying, and a private game's code.
struct ReachArguments: ParsableArguments {
    @Option(help: "Seconds to keep trying to reach the host, \(OptionRanges.connectTimeout.span).")
    var connectTimeout: Double = 10

    @Option(help: ArgumentHelp("Read a private game's code from the first line of this file.", valueName: "file"))
    var codeFile: String?

    @Option(help: ArgumentHelp(
        "A private game's code; - reads one line from standard input (a code in the command line is visible to every user: prefer --code-file, --code - or TICTACTOE_CODE).",
        valueName: "code"))
    var code: String?

    func validate() throws {
        if codeFile != nil && code != nil {
            throw ValidationError("give the code once: --code-file or --code, not both")
        }
        try OptionRanges.connectTimeout.check(connectTimeout)
    }

    /// An encrypted game's security: with the code from --code-file, --code or TICTACTOE_CODE if one is given (a
    /// private game's), else the open game's. A code that cannot be read ends the run (exit 13).
    func encryption(reporter: MatchReporter) throws -> JoinSecurity {
        guard let source = GameCodeSource.from(codeFile: codeFile, code: code) else { return .encrypted(code: nil) }
        if source.isInArgv {
            printError("tictactoe: warning: --code puts the code in the command line, where every user of this "
                + "machine can read it (ps); prefer --code-file FILE, --code - or TICTACTOE_CODE")
        }
        do throws(GameCodeSourceError) {
            return .encrypted(code: try source.read())
        } catch {
            reporter.report(.error("\(error)", error.exitStatus))
            throw ExitCode(error.exitStatus.unlessOutputFailed().rawValue)
        }
    }
}
