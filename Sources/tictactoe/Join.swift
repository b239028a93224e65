import ArgumentParser
import Bonjour
import GameTransport
import LocalNetworkPrivacy
import NIOCore
import TicTacToeApp

struct Join: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join a hosted game by its Bonjour name or by address and play a match.",
        discussion: """
            TARGET is a game's Bonjour name as `tictactoe browse` lists it (resolved on the local network), or an \
            address: an IP address, HOST:PORT, [IPv6]:PORT or localhost (default port 7878). Anything that is not \
            an IP address and does not end in :PORT is taken as a Bonjour name, so join a DNS host name as \
            HOST:PORT. While the host refuses or cannot be reached the connection waits and retries until \
            --connect-timeout. The host decides how many games are played unless --games limits it.

            Examples: tictactoe join "Alice's game" --headless --json
                      tictactoe join 127.0.0.1:7878 --headless --player random --seed 42 --json
            """
    )

    @Argument(help: ArgumentHelp("The game's Bonjour name, or the host's address: IP, HOST:PORT.", valueName: "target"))
    var address: String

    @Option(help: "Play at most this many games (default: as many as the host offers).")
    var games: Int?

    @Option(help: "Seconds to keep trying to reach the host.")
    var connectTimeout: Double = 10

    @OptionGroup var match: MatchArguments

    @OptionGroup var privacy: PrivacyArguments

    func validate() throws {
        _ = try parsedEndpoint()
        if let games, games < 1 { throw ValidationError("--games must be at least 1") }
        guard connectTimeout > 0 else { throw ValidationError("--connect-timeout must be positive") }
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
        Signals.install(stop)
        let reporter = match.reporter(name: name)
        let target = try parsedEndpoint()
        // A Bonjour name needs permission to browse before it is resolved; an address is resolved by the connection
        // itself, which clears each address with the gate (loopback needs no permission) and waits meanwhile.
        let gate = privacy.makeGate()
        let status: ExitStatus
        switch target {
        case .address(let endpoint):
            // Ask (or wait, up to --wait-timeout) before connecting, for the first address the endpoint has.
            if let first = try? await EndpointResolution.addresses(of: endpoint).first {
                _ = try await obtainCapability(
                    { $0.connect(to: first, for: .joinCommand) }, gate: gate, privacy: privacy, json: match.json,
                    onWaiting: waitingPrinter(json: match.json, reporter: reporter)
                )
            }
            status = await runJoin(
                options, endpoints: [endpoint], connectTimeout: .nanoseconds(Int64(connectTimeout * 1e9)), gate: gate,
                reporter: reporter, stop: stop
            )
        case .bonjour(let gameName):
            let browse = try await obtainCapability(
                { $0.browse(GameService.type, for: .joinCommand) }, gate: gate, privacy: privacy, json: match.json,
                onWaiting: waitingPrinter(json: match.json, reporter: reporter)
            )
            status = await joinByName(
                gameName, browse: browse, gate: gate, options: options, connectTimeout: connectTimeout,
                matchReporter: reporter, discoveryReporter: DiscoveryReporter(json: match.json), stop: stop
            )
        }
        throw ExitCode(status.rawValue)
    }
}
