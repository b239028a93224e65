import AppCore
import AppFiles
import AppManifest
import AppProcess
import ArgumentParser
import CursesTerminal
import FoundationEssentials
import GameClient
import HeadlessUI
import LocalNetworkPrivacy
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a finished game from its JSON-lines record.",
        discussion: """
            FILE is a JSON-lines record: a host or join --json transcript, a match --transcripts file \
            (game-0001.jsonl), or a game the full-screen UI saved (each finished game is kept in \
            $XDG_DATA_HOME/tictactoe/games, default ~/.local/share/tictactoe/games, the last 100). A record may hold \
            several games (a network match): --game N picks game N, by default the last finished one.

            On a terminal the game is shown move by move: ←/→ step back and forth, Home/End jump to the empty and the \
            final board, q quits. With --headless, or when standard output is not a terminal, the moves, the final \
            board and the result are printed as text (--json: one "replay" line instead).

            Exit codes: 0 the game was shown; 64 bad usage; 65 the record cannot be replayed: not a file (a \
            directory, a FIFO, a device), unreadable, corrupted or truncated (the message names the file and the \
            line), or no finished game (or no game N) in it; 74 standard output could not be written.

            Examples:
              tictactoe replay "$(ls ~/.local/share/tictactoe/games/*.jsonl | tail -n 1)"
              tictactoe host --headless --json > host.jsonl
              tictactoe replay --game 1 host.jsonl
              tictactoe match --player perfect --player easy --games 2 --transcripts t
              tictactoe replay --headless t/game-0002.jsonl
            """
    )

    @Argument(help: ArgumentHelp("The record: a --json transcript or a saved game.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The game of the record to replay (its number; default: the last finished one).",
                               valueName: "n"))
    var game: Int?

    @Flag(help: "Print the game instead of showing it (the default when standard output is not a terminal).")
    var headless = false

    @Flag(help: "Headless: print one JSON object instead of text.")
    var json = false

    @Flag(help: "No colours (the NO_COLOR environment variable does the same).")
    var noColor = false

    func validate() throws {
        if let game, game < 1 { throw ValidationError("--game must be 1 or more (got \(game))") }
    }

    func run() throws {
        AppManifest.useLanguage(explicitPath: nil, environment: ProcessInfo.processInfo.environment)
        let record: GameRecord
        do throws(ReplayReport.Failure) {
            record = try ReplayReport.load(path: file, game: game)
        } catch {
            throw commandFailure(error)
        }
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        if headless || json || !interactive {
            let lines = json ? [try record.replayJSON(path: file)]
                : record.replayText(path: file, unicode: Terminal.isUTF8)
            for line in lines { try printOutput(line) }
            return
        }
        let environment = ProcessInfo.processInfo.environment
        let colors = !noColor && (environment["NO_COLOR"] ?? "").isEmpty
        let settings = UISettings(name: MatchArguments.defaultName())
        let title = file.split(separator: "/").last.map(String.init) ?? file
        let clock = ContinuousClock()
        let app = UIApp(
            // The viewer never asks for the network: the gate reads nothing until then.
            terminal: CursesTerminal(), settings: settings,
            client: .live(
                gate: LocalNetworkGate(explicitManifestPath: nil), logFile: FileLogHandler.defaultPath, clock: clock),
            replay: ReplayViewer(record: record, title: title), colors: colors,
            clock: UIApp.elapsed(on: clock))
        let signals = catchSignals(for: app)
        defer { withExtendedLifetime(signals) {} }
        let status = try app.run()
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
