import AppCore
import AppProcess
import ArgumentParser
import GameClient
import GameProtocol
import HeadlessUI
import MatchPlay

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch a hosted game, read-only: the live board of the match it plays.",
        discussion: """
            TARGET is a game's Bonjour name or an address, as for `tictactoe join`. The host must allow spectators \
            (`tictactoe host --spectators N`): one that does not turns the watcher away (exit 4); one with no room \
            left is asked again until --connect-timeout (then exit 4). A watcher that comes in mid-game is shown the position so far, then every change: each move, each \
            result and the score, across the host's games and matches, until the host stops. Watching passes the \
            same local network permission and transport security as playing: games are encrypted (protocol 2), and \
            a private game's watchers need its code (--code-file FILE, --code - or TICTACTOE_CODE; exit 13 without \
            it). A watcher never slows the players: one that does not keep up is dropped by the host. Ctrl-C \
            leaves (the host is told). Exits 0 when the host says it is done, 3 when it went away otherwise.

            Examples:
              tictactoe watch 127.0.0.1:7878
              tictactoe watch "Alice's game" --json
            """
    )

    @Argument(help: ArgumentHelp("The game's Bonjour name, or the host's address: IP, HOST:PORT.", valueName: "target"))
    var address: String

    @Option(help: "Your name, shown to the host among its spectators (default: USER@HOSTNAME, cut to fit).")
    var name: String?

    @OptionGroup var reach: ReachArguments

    @Flag(help: "Print one JSON object per line (a `watch` event for each position) instead of boards.")
    var json = false

    @Option(help: ArgumentHelp("Where the debug log goes (default: \(FileLogHandler.defaultPath)).", valueName: "path"))
    var logFile: String?

    @OptionGroup var privacy: PrivacyArguments

    func validate() throws {
        try MatchArguments.validate(name: name)
        _ = try target()
    }

    private func target() throws -> JoinTarget {
        do {
            return try JoinTarget(parsing: address)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        bootstrapHeadlessLogging(path: logFile)
        let name = self.name.map(PlayerName.fitted) ?? MatchArguments.defaultName()
        let stop = StopSignal()
        let shutdown = Shutdown(stopping: stop)
        defer { withExtendedLifetime(shutdown) {} }
        let target = try target()
        let shown: String
        switch target {
        case .address(let endpoint): shown = endpoint.description
        case .bonjour(let game): shown = game
        }
        let reporter: MatchReporter = json
            ? JSONLinesReporter() : TranscriptReporter(localName: name, target: shown, unicode: Terminal.isUTF8)
        let security = try reach.encryption(reporter: reporter)
        let request = JoinRequest(
            target: target, connectTimeout: .seconds(reach.connectTimeout), waitTimeout: privacy.waitDuration,
            origin: .watchCommand, security: security, role: .spectator)
        let options = MatchOptions(
            name: name, player: .perfect, seed: 0, games: nil, moveDelay: .zero, clock: ContinuousClock())
        let status = await joinMatch(request, options: options, gate: privacy.makeGate(), reporter: reporter, stop: stop)
        throw ExitCode(status.unlessOutputFailed().rawValue)
    }
}
