import AppCore
import AppProcess
import ArgumentParser
import Bonjour
import GameProtocol
import LocalNetworkPrivacy

struct Join: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a hosted game by its Bonjour name or by address and play a match.",
        discussion: """
            TARGET is a game's Bonjour name as `tictactoe browse` lists it (resolved on the local network), or an \
            address: an IP address, HOST:PORT, [IPv6]:PORT or localhost (default port 7878). Anything that is not \
            an IP address and does not end in :PORT is taken as a Bonjour name, so join a DNS host name as \
            HOST:PORT. While the host cannot be reached, or answers that it is busy with another game ("busy, \
            retrying"), the joiner waits and retries until --connect-timeout: then it exits 5 (unreachable) or 4 \
            (still busy). A private game needs its code (the host shows it): --code-file FILE, --code - (one \
            line from standard input) or the environment variable TICTACTOE_CODE; --code N works but puts the code \
            where every user of the machine can read it (ps). Without a code, or with a wrong one, the joiner exits \
            13. Games are encrypted (protocol 2); --plaintext joins an unencrypted (protocol 1) host: on loopback \
            always, elsewhere only where the manifest's App Transport Security allows plaintext (otherwise exit 14, \
            before anything is sent). The host decides how many games are played unless --games limits it, and how long each \
            move may take (its --move-timeout).

            Examples:
              tictactoe join "Alice's game" --headless --json
              tictactoe join 127.0.0.1:7878 --headless --player easy --seed 42 --json
              tictactoe join 127.0.0.1:7878 --headless --player 'engine:python3 bot.py'
            """
    )

    @Argument(help: ArgumentHelp("The game's Bonjour name, or the host's address: IP, HOST:PORT.", valueName: "target"))
    var address: String

    @Option(help: "Play at most this many games, \(OptionRanges.games.span) (default: as many as the host offers).")
    var games: Int?

    @OptionGroup var reach: ReachArguments

    @Flag(help: "Join an unencrypted (protocol 1) host: loopback, or where the manifest allows it.")
    var plaintext = false

    @OptionGroup var match: MatchArguments

    @OptionGroup var privacy: PrivacyArguments

    func validate() throws {
        if plaintext && (reach.codeFile != nil || reach.code != nil) {
            throw ValidationError("--plaintext games have no code: a private game is always encrypted")
        }
        _ = try parsedEndpoint()
        try OptionRanges.games.check(games)
    }

    private func parsedEndpoint() throws -> JoinTarget {
        do {
            return try JoinTarget(parsing: address)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        match.bootstrapLogging()
        let name = match.resolvedName
        let options = match.options(games: games)
        let stop = StopSignal()
        let shutdown = Shutdown(stopping: stop)
        defer { withExtendedLifetime(shutdown) {} }
        let target = try parsedEndpoint()
        let shown: String
        switch target {
        case .address(let endpoint): shown = endpoint.description
        case .bonjour(let game): shown = game
        }
        let reporter = match.reporter(name: name, target: shown)
        let security = plaintext ? .plaintext : try reach.encryption(reporter: reporter)
        let request = JoinRequest(
            target: target, connectTimeout: .seconds(reach.connectTimeout),
            waitTimeout: privacy.waitDuration, origin: .joinCommand, security: security
        )
        let status = await joinMatch(request, options: options, gate: privacy.makeGate(), reporter: reporter, stop: stop)
        throw ExitCode(status.unlessOutputFailed().rawValue)
    }
}
