import AppCore
import AppProcess
import ArgumentParser
import FoundationEssentials
import GameProtocol
import LocalNetworkPrivacy
import MatchPlay

struct Host: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Host a game: listen for a joiner and play a match.",
        discussion: """
            Serves one match at a time: a joiner whose hello comes while a match runs is told the host is busy (and \
            retries until its --connect-timeout). Connections that have not sent their hello block nobody: each has \
            5 s for it, and at most 64 wait at once (one more closes the oldest). A joiner that does not move, or \
            answer a rematch offer, within --move-timeout loses on time (the game ends with reason timeout). A \
            joiner that breaks the protocol gets an error frame; either way the host goes on listening. Stops after \
            --matches completed matches.

            The game is advertised with Bonjour (_tictactoe._tcp, under --name; "Advertised as NAME" gives the name \
            actually registered) while the host listens; while a match runs its TXT record says so (state=playing: \
            joiners are told it is busy) and how many more spectators it takes (watch=N). Without avahi-daemon the \
            host says so and still serves joiners by address; --no-advertise skips Bonjour altogether. \
            --spectators N lets up to N people watch the match read-only (tictactoe watch).

            Games are encrypted (protocol 2: TLS keyed by CPace on a code). An open game uses a public code: anyone \
            may join, and nothing on its connection is readable. --private makes a 6-digit code, shown on standard \
            error (never in the transcript or the log): joiners give it with --code-file, --code - or \
            TICTACTOE_CODE; each wrong code is shown with its address, and after 3 in a row the code is replaced \
            (the new one shown). --plaintext hosts protocol 1, unencrypted, for joiners that also say --plaintext: \
            on loopback always, elsewhere only where the manifest's App Transport Security allows plaintext \
            (otherwise exit 14).

            Examples:
              tictactoe host --headless --player perfect --games 10 --port 7878 --json
              tictactoe host --headless --player engine:"python3 bot.py --level 2"
            """
    )

    @Option(help: "TCP port to listen on, \(OptionRanges.port.span) (0: any free port, printed).")
    var port: Int = Endpoint.defaultPort

    @Option(help: ArgumentHelp(
        "Address to listen on (default: every interface, IPv6 and IPv4; 127.0.0.1 or ::1: this machine only, not advertised).",
        valueName: "address"))
    var bind: String?

    @Option(help: "Games in each match, \(OptionRanges.games.span); the first player alternates (the joiner is X and starts odd games).")
    var games: Int = 1

    @Option(help: "Completed matches to serve before exiting, \(OptionRanges.matches.span) (0: keep serving).")
    var matches: Int = 1

    @Flag(inversion: .prefixedNo, help: "Advertise the game on the local network with Bonjour.")
    var advertise = true

    @Flag(help: "Host a private game: joiners need the 6-digit code shown on standard error.")
    var `private` = false

    @Flag(help: "Host unencrypted (protocol 1) for --plaintext joiners: loopback, or where the manifest allows it.")
    var plaintext = false

    @Option(help: ArgumentHelp(
        "Seconds the joiner has for each move and rematch answer before it loses on time "
            + "(\(OptionRanges.moveTimeout.span), more than --move-delay); also each move's time for an engine:COMMAND "
            + "--player (it loses the game when it takes longer).",
        valueName: "seconds"))
    var moveTimeout: Double = Host.defaultMoveTimeout

    static let defaultMoveTimeout = Double(MatchOptions.defaultMoveTimeout.components.seconds)

    @Option(help: ArgumentHelp(
        "Let up to this many spectators watch (`tictactoe watch`), \(OptionRanges.spectators.span) (0: none); encrypted games only.",
        valueName: "count"))
    var spectators: Int = 0

    @OptionGroup var match: MatchArguments

    @OptionGroup var privacy: PrivacyArguments

    func validate() throws {
        if `private` && plaintext {
            throw ValidationError("--private and --plaintext cannot go together: a private game is always encrypted")
        }
        if plaintext && spectators > 0 {
            throw ValidationError("--spectators needs an encrypted game: watching is protocol 2's (drop --plaintext)")
        }
        try OptionRanges.spectators.check(spectators)
        try OptionRanges.port.check(port)
        try OptionRanges.games.check(games)
        try OptionRanges.matches.check(matches)
        try OptionRanges.moveTimeout.check(moveTimeout)
        guard moveTimeout > match.moveDelay else {
            throw ValidationError(
                "--move-timeout (\(moveTimeout) s) must be more than --move-delay (\(match.moveDelay) s): "
                    + "a joiner needs time to answer")
        }
    }

    func run() async throws {
        match.bootstrapLogging()
        let name = match.resolvedName
        var options = match.options(games: games)
        options.moveTimeout = .seconds(moveTimeout)
        let stop = StopSignal()
        let shutdown = Shutdown(stopping: stop)
        defer { withExtendedLifetime(shutdown) {} }
        let request = HostRequest(
            target: ListenTarget(bind: bind), port: port, matches: matches, advertise: advertise, origin: .hostCommand,
            waitTimeout: privacy.waitDuration, security: `private` ? .private : (plaintext ? .plaintext : .open),
            showCode: { code, replacedBecause in
                // Standard error only: the transcript (and --json) never carries the code.
                let shown = code.revealed.map { "\($0.prefix(3)) \($0.dropFirst(3))" } ?? ""
                if let replacedBecause {
                    printError("tictactoe: new code: \(shown) (after \(replacedBecause)); the old one no longer works")
                } else {
                    printError("tictactoe: private game: the code is \(shown); give it to the player who joins "
                        + "(tictactoe join ... --code-file FILE, --code - or TICTACTOE_CODE)")
                }
            },
            spectators: spectators
        )
        let status = await hostMatches(
            request, options: options, gate: privacy.makeGate(), reporter: match.reporter(name: name), stop: stop
        )
        throw ExitCode(status.unlessOutputFailed().rawValue)
    }
}
