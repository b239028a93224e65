import AppCore
import AppProcess
import ArgumentParser
import FoundationEssentials
import HeadlessUI
import Lobby
import LocalNetworkPrivacy

struct Lobby: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lobby",
        abstract: "Meet players on the LAN: see who is around, greet them, challenge one to a game.",
        discussion: """
            Joins the LAN lobby, a multicast group (239.255.77.77 and ff02::7474, UDP port 7879; docs/LOBBY.md has \
            the wire format), announces you every 2 s under --name, and prints who is around (+ arrived, ~ changed, \
            - left or went silent after 7 s), what they say, and challenges. Messages are small and unauthenticated: \
            every one is checked and shown escaped, and a sender that floods the group is rate-limited, not obeyed.

            Multicast needs the entitlement com.apple.developer.networking.multicast in TicTacToe.entitlements \
            beside the manifest (the shipped app has it): without it the lobby fails at once with exit code 15, \
            without a prompt, as on iOS. With it, the lobby asks for local network permission like every LAN \
            operation, and waits until it is granted (--wait-timeout).

            --challenge NAME hosts a game and invites the first player called NAME to join it; --accept joins the \
            first challenge that comes (its address gets the checks of any joined address: loopback, unspecified, \
            multicast and broadcast addresses from the network are refused), declining the others. The game is an \
            ordinary encrypted match (--player, --games, as for host and join); the lobby is left when it starts.

            Exit codes: 0 the lobby ended (--duration; a game that started from it is not cut short) or the game \
            completed; 4 our challenge was declined; 6 it was not answered (or the accepted game not joined) \
            within 30 s; 9 the lobby's group could not be joined; 11, 12 no local network permission (12 also when \
            it is turned off in the lobby); 15 no multicast entitlement; 130 Ctrl-C, 143 SIGTERM; the game's own \
            codes otherwise (as for host and join).

            Examples:
              tictactoe lobby --name alice --duration 30
              tictactoe lobby --name bob --greet "a game?" --accept --player perfect
              tictactoe lobby --name carol --challenge bob --player medium --json
            """
    )

    @Option(help: ArgumentHelp("Seconds to stay in the lobby (default: until Ctrl-C, or a game).", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("Say this to everyone once joined (1-140 bytes of printable text).", valueName: "text"))
    var greet: String?

    @Option(help: ArgumentHelp("Host a game and challenge the first player of this name to join it.", valueName: "name"))
    var challenge: String?

    @Flag(help: "Accept the first challenge (join the challenger's game); without it every challenge is declined.")
    var accept = false

    @Option(help: ArgumentHelp("Network interface to join the lobby on (default: the first multicast-capable one up).",
                               valueName: "name"))
    var interface: String?

    @Option(help: "Games in a match played from the lobby, \(OptionRanges.games.span).")
    var games: Int = 1

    @OptionGroup var match: MatchArguments

    @OptionGroup var privacy: PrivacyArguments

    func validate() throws {
        try OptionRanges.games.check(games)
        if let duration { try OptionRanges.browseTimeout.check(duration) }
        if let greet, let problem = LobbyMessage.greetingProblem(greet) {
            throw ValidationError("--greet: \(problem)")
        }
        if challenge != nil && accept {
            throw ValidationError("--challenge and --accept cannot go together: one side challenges, the other accepts")
        }
        if let challenge { try MatchArguments.validate(name: challenge) }
    }

    func run() async throws {
        match.bootstrapLogging()
        let name = match.resolvedName
        let stop = StopSignal()
        let shutdown = Shutdown(stopping: stop)
        defer { withExtendedLifetime(shutdown) {} }
        let request = LobbyRequest(
            name: name, interface: interface, waitTimeout: privacy.waitDuration, duration: duration.map { .seconds($0) },
            policy: .init(challenge: challenge, acceptChallenges: accept, greeting: greet))
        let reporter = match.reporter(name: name)
        let gate = privacy.makeGate()
        let status = await runLobby(
            request, games: .played(request, options: match.options(games: games), gate: gate, reporter: reporter,
                                    stop: stop),
            gate: gate, report: { reporter.report(.lobby($0)) }, stop: stop, clock: ContinuousClock())
        throw ExitCode(status.unlessOutputFailed().rawValue)
    }
}
