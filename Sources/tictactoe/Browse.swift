import ArgumentParser
import LocalNetworkPrivacy
import Bonjour
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

            Example: tictactoe browse --json --timeout 2
            """
    )

    @Option(help: "Seconds to look before printing the list (with --watch: seconds to watch; 0: until interrupted).")
    var timeout: Double = 3

    @Flag(help: "Print the list each time it changes, and Bonjour's comings and goings, until --timeout.")
    var watch = false

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Option(help: ArgumentHelp("Where the debug log goes (default: \(FileLogHandler.defaultPath)).", valueName: "path"))
    var logFile: String?

    @OptionGroup var privacy: PrivacyArguments

    func validate() throws {
        guard timeout >= 0, timeout <= 86_400 else { throw ValidationError("--timeout must be 0...86400 seconds") }
        if !watch && timeout == 0 { throw ValidationError("--timeout 0 (forever) needs --watch") }
    }

    func run() async throws {
        FileLogHandler.bootstrap(path: logFile ?? FileLogHandler.defaultPath, level: .debug)
        let browse = try await obtainCapability(
            { $0.browse(GameService.type, for: .browseCommand) }, gate: privacy.makeGate(), privacy: privacy,
            json: json, onWaiting: waitingPrinter(json: json, reporter: nil)
        )
        let status = await browseGames(
            browser: GameBrowser(capability: browse), timeout: timeout, watch: watch,
            reporter: DiscoveryReporter(json: json)
        )
        throw ExitCode(status.rawValue)
    }
}

/// Browses for `timeout` seconds and prints the list at the end (or each change with `watch`). Without a daemon a
/// one-shot browse ends at once with `.bonjourUnavailable`; a watch reports it and waits for the daemon to return.
func browseGames(browser: GameBrowsing, timeout: Double, watch: Bool, reporter: DiscoveryReporter) async -> ExitStatus {
    let events = browser.events()
    browser.start()
    let timer = Task {
        guard timeout > 0 else { return }
        try? await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
        browser.stop()  // ends the event stream
    }
    defer { timer.cancel() }
    var latest: [DiscoveredGame] = []
    for await event in events {
        switch event {
        case .updated(let games):
            latest = games
            if watch { reporter.report(.games(games.map { GameListing($0) })) }
        case .unavailable(let error):
            if watch {
                reporter.report(.bonjourUnavailable(message: error.description))
            } else {
                reporter.report(.error(error.description, .bonjourUnavailable))
                browser.stop()
                return .bonjourUnavailable
            }
        case .available:
            if watch { reporter.report(.bonjourAvailable) }
        }
    }
    if !watch {
        if latest.isEmpty { reporter.report(.noGames) }
        for game in latest { reporter.report(.game(GameListing(game))) }
    }
    return .success
}

extension GameListing {
    init(_ game: DiscoveredGame) {
        switch game.compatibility {
        case .compatible: self.init(name: game.name, compatible: true)
        case .incompatible(let reason): self.init(name: game.name, compatible: false, reason: reason)
        }
    }
}
