import AppCore
import AppProcess
import ArgumentParser
import FoundationEssentials
import GameClient
import HeadlessUI
import LocalNetworkPrivacy

struct Browse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "List the games on the local network (Bonjour) and exit.",
        discussion: """
            Looks for hosts advertising _tictactoe._tcp for --timeout seconds (default 3), then prints one line per \
            game, joinable ones first: its name (which `tictactoe join NAME` accepts), where it is (host and \
            address, or "this machine") and, unless it is open, its state ("private: needs a code", "not \
            answering", "not joinable: …"). A game is listed while Bonjour lists it; one whose host did not answer \
            within --timeout is listed as not answering. With --json one object per game, with the keys event \
            ("game"), name, compatible, state ("joinable", "looking-up", "not-answering" or "not-joinable"), \
            private, secure, host, addresses and this_machine (games that cannot be joined now add reason), or {"event":"no-games"}; the README's \
            JSON table lists them all. With --watch it prints the whole list each time it changes, until interrupted (or for --timeout seconds \
            if given), and says when Bonjour becomes unavailable or available again (it keeps retrying by itself).

            With --all-types it lists every service type on the local network instead (the PTR records of \
            _services._dns-sd._udp.local, the DNS-SD service type enumeration), sorted, one per line after a line \
            that says how many ("3 service types on the local network:"); with --json \
            {"event":"service-types","count":N} then {"event":"service-type","type":"_http._tcp","domain":"local."} \
            for each. It needs the \
            multicast entitlement (com.apple.developer.networking.multicast in TicTacToe.entitlements beside the \
            manifest), as on iOS: without it, browse exits with code 15 at once, asking nothing. Not with --watch.

            Needs avahi-daemon: without it, browse exits with code 10 and says so.

            Example:
              tictactoe browse --json --timeout 2
              tictactoe browse --all-types
            """
    )

    @Option(help: """
        Seconds to look before printing the list, \(OptionRanges.browseTimeout.span) (default 3; with --watch: seconds \
        to watch, default and 0: until interrupted).
        """)
    var timeout: Double?

    @Flag(help: """
        Print the list each time it changes, and Bonjour's comings and goings, until interrupted (or --timeout).
        """)
    var watch = false

    @Flag(help: """
        List every service type on the local network (_services._dns-sd._udp) instead of games; needs the multicast \
        entitlement.
        """)
    var allTypes = false

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Option(help: ArgumentHelp("Where the debug log goes (default: \(FileLogHandler.defaultPath)).", valueName: "path"))
    var logFile: String?

    @OptionGroup var privacy: PrivacyArguments

    /// Seconds to look (0: until interrupted): 3 for a one-shot browse, until interrupted with --watch.
    var seconds: Double { timeout ?? (watch ? 0 : 3) }

    func validate() throws {
        if let timeout { try OptionRanges.browseTimeout.check(timeout) }
        if allTypes && watch { throw ValidationError("--all-types lists the types once: it cannot be combined with --watch") }
        if !watch && seconds == 0 { throw ValidationError("--timeout 0 (forever) needs --watch") }
    }

    func run() async throws {
        bootstrapHeadlessLogging(path: logFile)
        _ = Shutdown(stopping: nil)
        let reporter: MatchReporter = json ? JSONLinesReporter() : TranscriptReporter(localName: "")
        if allTypes {
            let request = ServiceTypesRequest(
                duration: .seconds(seconds), waitTimeout: privacy.waitDuration, origin: .browseAllTypesCommand)
            let status = await browseServiceTypes(
                request, gate: privacy.makeGate(), clock: ContinuousClock(), reporter: reporter)
            throw ExitCode(status.unlessOutputFailed().rawValue)
        }
        let request = BrowseRequest(
            duration: seconds > 0 ? .seconds(seconds) : nil, watch: watch,
            waitTimeout: privacy.waitDuration, origin: .browseCommand
        )
        let status = await browseGames(request, gate: privacy.makeGate(), clock: ContinuousClock(), reporter: reporter)
        throw ExitCode(status.unlessOutputFailed().rawValue)
    }
}
