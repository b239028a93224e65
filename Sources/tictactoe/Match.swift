import AppProcess
import ArgumentParser
import MatchPlay
import MatchStatistics
import Series

struct Match: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Play a series of games between players (built-in levels, scripts, engines) and score it.",
        discussion: """
            Plays --games games between two players, or, with three or more, --games games between every pair (a \
            round robin), in this process: no network, unless --over (below). The pair's first player (in the order given) is X and \
            moves first in the pair's odd games, the second in its even games. Built-in levels and scripts play \
            in-process (a script starts over at each game); an engine:COMMAND starts a fresh process for each game \
            and loses a game it crashes, hangs (--move-timeout) or cheats in, by forfeit, with the reason in the \
            output. With --game-time each player also has a clock for the whole game (only the side to move has \
            its clock running; reset at each game): a player whose clock runs out loses that game on time (reason \
            timeout; an engine's failure says "ran out of its game time"). Without it only --move-timeout (default \
            120 s a move) limits a game. Each game's players are seeded from --seed (printed first), so a seed gives the same games \
            whatever --concurrency is: games are reported in order.

            After each game a progress line like cutechess-cli's, wins, losses and draws from the first player's \
            side, then the score and the games: "Score of A vs B: 10 - 5 - 3  [0.639] 18". At the end, for each pair its score, the Elo difference with its 95% interval (trinomial \
            model), a table of the pairs, the standings of a round robin (a win 1 point, a draw 1/2), and the time \
            taken. --sprt ELO0 ELO1 ALPHA BETA stops a two-player match as soon as the sequential probability ratio \
            test accepts H0 (Elo = ELO0) or H1 (Elo = ELO1), and prints its LLR line and decision (a negative ELO0: \
            --sprt=-5 5 0.05 0.05). --json prints JSON lines instead (seed, match-game, progress, match-result, \
            standings, match-end); --transcripts DIR writes each game as DIR/game-0001.jsonl in the events of a \
            network game's --json transcript.

            --over loopback plays every game as a network match instead, through the same code as host and join: \
            the game's O player hosts on 127.0.0.1 (any free port) and its X player joins it, both in this process, \
            encrypted (protocol 2) unless --plaintext. --over ADDRESS does the same on an address of this machine \
            on the LAN: that asks for local network permission first (once, as host does; --wait-timeout, \
            --info-plist), and the manifest's transport security decides whether --plaintext is allowed there \
            (exit 14 if not). The seeds are the same either way: a seed gives the same games in process and over \
            the network. A game that cannot be played over the network stops the series with host's or join's exit \
            code (9 cannot listen, 11 or 12 no permission, 14 transport security).

            Ctrl-C (SIGINT), SIGTERM or SIGHUP stops the series: the games under way are abandoned and their \
            engines' processes ended, then the table of the games played so far is printed, its last line saying \
            the series was stopped (--json: match-end with end "stopped").

            Exit codes: 0 the series completed (or the SPRT decided); 8 a script player is unreadable, invalid, ran \
            out of moves or played an illegal cell (the series stops there); 9, 11, 12, 14 (--over, above); 64 bad \
            usage (fewer than two players, a person as a player, numbers out of range); 74 standard output or a \
            transcript could not be written; 130 stopped by Ctrl-C (SIGINT); 143 stopped by SIGTERM or SIGHUP.

            Examples:
              tictactoe match --player perfect --player easy --games 100 --seed 1
              tictactoe match --player perfect --player medium --player easy --games 20
              tictactoe match --player engine:./bot --player easy --sprt 0 50 0.05 0.05
              tictactoe match --player perfect --player engine:./bot --over loopback
            """
    )

    @Option(
        name: .customLong("player"),
        help: ArgumentHelp(
            "A player, given two or more times: easy (random; also random), medium, perfect, script:FILE or "
                + "engine:COMMAND (as for host's --player).",
            valueName: "player"))
    var players: [PlayerSpec] = []

    @Option(help: "Games between each pair of players, \(OptionRanges.seriesGames.span).")
    var games: Int = 100

    @Option(help: "Games played at once, \(OptionRanges.concurrency.span).")
    var concurrency: Int = 1

    @Option(help: "Seed the players' seeds are derived from (printed, so a run can be replayed; default: random).")
    var seed: UInt64?

    @Flag(help: "Print one JSON object per line instead of text.")
    var json = false

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Stop a two-player match when the SPRT of H0: Elo = ELO0 against H1: Elo = ELO1 decides, with error "
                + "rates ALPHA and BETA (e.g. 0 50 0.05 0.05).",
            valueName: "elo0 elo1 alpha beta"))
    var sprt: [Double] = []

    @Option(help: ArgumentHelp("Write each game's transcript to DIR/game-NNNN.jsonl (created if missing).", valueName: "dir"))
    var transcripts: String?

    @Option(help: ArgumentHelp(
        "Seconds an engine has for each move before it loses the game, \(OptionRanges.moveTimeout.span).",
        valueName: "seconds"))
    var moveTimeout: Double = Host.defaultMoveTimeout

    @Option(help: ArgumentHelp(
        "Each player's clock for a whole game, chess-clock style (only the mover's runs; reset each game), "
            + "\(OptionRanges.gameTime.span); a player out of time loses the game on time, and an engine is told the "
            + "smaller of its game time left and --move-timeout. Default: no game clock (only --move-timeout).",
        valueName: "seconds"))
    var gameTime: Double?

    @Option(help: ArgumentHelp(
        "Play every game as a network match, as host and join do: over loopback (127.0.0.1), or an IP address of "
            + "this machine on the LAN (asks for local network permission). Default: in process.",
        valueName: "loopback|address"))
    var over: String?

    @Flag(help: "With --over: play unencrypted (protocol 1): loopback, or where the manifest allows it.")
    var plaintext = false

    @Option(help: ArgumentHelp(
        "With --over: where the debug log goes (default: \(FileLogHandler.defaultPath)).", valueName: "path"))
    var logFile: String?

    @OptionGroup var privacy: PrivacyArguments

    func validate() throws {
        guard players.count >= 2 else {
            throw ValidationError("match needs two players or more: --player A --player B (got \(players.count))")
        }
        for player in players {
            if let problem = player.usageProblem { throw ValidationError("--player \(problem)") }
            if player == .human {
                throw ValidationError("--player human cannot play a match: choose easy, medium, perfect, script:FILE or engine:COMMAND")
            }
        }
        try OptionRanges.seriesGames.check(games)
        try OptionRanges.concurrency.check(concurrency)
        try OptionRanges.moveTimeout.check(moveTimeout)
        try OptionRanges.gameTime.check(gameTime)
        _ = try sprtTest()
        if plaintext && over == nil {
            throw ValidationError("--plaintext needs --over: a match without it plays in process, without the network")
        }
        if let over, let problem = SeriesNetwork.addressProblem(over) {
            throw ValidationError("--over \(problem)")
        }
    }

    /// The SPRT of `--sprt`, or nil without it.
    func sprtTest() throws -> SPRT? {
        guard !sprt.isEmpty else { return nil }
        guard sprt.count == 4, sprt.allSatisfy(\.isFinite) else {
            throw ValidationError("--sprt takes four numbers: ELO0 ELO1 ALPHA BETA (e.g. --sprt 0 50 0.05 0.05)")
        }
        guard players.count == 2 else { throw ValidationError("--sprt needs exactly two players") }
        do {
            return try SPRT(elo0: sprt[0], elo1: sprt[1], alpha: sprt[2], beta: sprt[3])
        } catch {
            throw ValidationError("--sprt: \(error)")
        }
    }

    func run() async throws {
        // The first Ctrl-C, SIGTERM or SIGHUP stops the series (its engines ended, the table so far printed);
        // a second one, or 2 s later, exits at once.
        let stop = StopSignal()
        let shutdown = Shutdown(stopping: stop, watchingOutput: false)
        defer { withExtendedLifetime(shutdown) {} }
        if over != nil { bootstrapHeadlessLogging(path: logFile) }
        let command = SeriesCommand(
            players: players, gamesPerPair: games, seed: seed ?? UInt64.random(in: 0...UInt64(UInt32.max)),
            sprt: try sprtTest(), concurrency: concurrency, moveTime: .seconds(moveTimeout),
            gameTime: gameTime.map { .seconds($0) },
            network: over.map { venue in
                SeriesNetwork(
                    address: SeriesNetwork.address(over: venue), security: plaintext ? .plaintext : .open,
                    gate: privacy.makeGate(), waitTimeout: privacy.waitDuration)
            },
            json: json, transcripts: transcripts, clock: ContinuousClock())
        let status = try await command.run(stop: stop)
        if status != .success { throw ExitCode(status.rawValue) }
    }
}
