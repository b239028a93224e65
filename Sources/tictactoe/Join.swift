import ArgumentParser
import GameTransport
import NIOCore
import TicTacToeApp

struct Join: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join a hosted game by address and play a match.",
        discussion: """
            ADDRESS is HOST, HOST:PORT, [IPv6]:PORT (default port 7878). While the host refuses or cannot be \
            reached the connection waits and retries until --connect-timeout. The host decides how many games \
            are played unless --games limits it.

            Example: tictactoe join 127.0.0.1:7878 --headless --player random --seed 42 --json
            """
    )

    @Argument(help: "The host's address: HOST[:PORT].")
    var address: String

    @Option(help: "Play at most this many games (default: as many as the host offers).")
    var games: Int?

    @Option(help: "Seconds to keep trying to reach the host.")
    var connectTimeout: Double = 10

    @OptionGroup var match: MatchArguments

    func validate() throws {
        _ = try parsedEndpoint()
        if let games, games < 1 { throw ValidationError("--games must be at least 1") }
        guard connectTimeout > 0 else { throw ValidationError("--connect-timeout must be positive") }
    }

    private func parsedEndpoint() throws -> Endpoint {
        do {
            return try Endpoint(parsing: address)
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
        let status = await runJoin(
            options, endpoint: try parsedEndpoint(), connectTimeout: .nanoseconds(Int64(connectTimeout * 1e9)),
            reporter: match.reporter(name: name), stop: stop
        )
        throw ExitCode(status.rawValue)
    }
}
