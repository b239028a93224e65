import ArgumentParser
import LocalNetworkPrivacy
import Foundation
import TicTacToeApp

struct Browse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the games on the local network (Bonjour) and exit.",
        discussion: """
            Looks for hosts advertising _tictactoe._tcp for --timeout seconds, then prints one line per game (its \
            name, which `tictactoe join NAME` accepts), or with --json one object per game: \
            {"event":"game","name":…,"compatible":true} (incompatible ones add "reason"), or {"event":"no-games"}. \
            With --watch it prints the whole list each time it changes until --timeout (0: until interrupted), and \
            says when Bonjour becomes unavailable or available again (it keeps retrying by itself).

            Needs avahi-daemon: without it, browse exits with code 10 and says so.

            Example:
              tictactoe browse --json --timeout 2
            """
    )

    @Option(help: "Seconds to look before printing the list, \(OptionRanges.browseTimeout.span) (with --watch: seconds to watch; 0: until interrupted).")
    var timeout: Double = 3

    @Flag(help: "Print the list each time it changes, and Bonjour's comings and goings, until --timeout.")
    var watch = false

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Option(help: ArgumentHelp("Where the debug log goes (default: \(FileLogHandler.defaultPath)).", valueName: "path"))
    var logFile: String?

    @OptionGroup var privacy: PrivacyArguments

    func validate() throws {
        try OptionRanges.browseTimeout.check(timeout)
        if !watch && timeout == 0 { throw ValidationError("--timeout 0 (forever) needs --watch") }
    }

    func run() async throws {
        bootstrapHeadlessLogging(path: logFile)
        OutputFailure.endRun(stopping: nil)
        let request = BrowseRequest(
            duration: timeout > 0 ? .seconds(timeout) : nil, watch: watch,
            waitTimeout: privacy.waitDuration, origin: .browseCommand
        )
        let reporter: MatchReporter = json ? JSONLinesReporter() : TranscriptReporter(localName: "")
        let status = await browseGames(request, gate: privacy.makeGate(), reporter: reporter)
        throw ExitCode(status.unlessOutputFailed().rawValue)
    }
}
