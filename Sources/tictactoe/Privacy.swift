import AppCore
import AppManifest
import AppProcess
import ArgumentParser
import FoundationEssentials
import GameClient
import GameProtocol
import HeadlessUI
import JSONLines
import LocalNetworkPrivacy
import PrivacyCommands
import PrivacyReport

#if canImport(Glibc)
import Glibc
#endif

/// `tictactoe privacy`: Settings › Privacy › Local Network on the command line (status, grant, deny, reset).
struct Privacy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Show or change the local network permission, or show what used the local network.",
        discussion: """
            As on iOS 14, the first action that needs the local network (searching for games, hosting, joining a \
            LAN address) asks once whether TicTacToe may use it, and the answer is remembered per user until \
            `tictactoe privacy reset`; while the answer is "not determined" or "denied", those actions wait (they \
            do not fail) and proceed by themselves as soon as access is allowed, from any process. Loopback \
            (127.0.0.1, ::1, localhost) never needs the permission, and browsing or advertising a Bonjour type \
            missing from the manifest's NSBonjourServices fails at once with NoAuth (-65555), without asking.

            The decision is kept in $XDG_CONFIG_HOME/tictactoe/local-network.json (default \
            ~/.config/tictactoe/; TICTACTOE_CONFIG_DIR overrides the directory). The app manifest (Info.plist) is \
            --info-plist PATH, else the installed share/tictactoe/Info.plist, else, for a development build, the \
            source tree's Assets/Info.plist.

            Every decision about the local network (and the prompt shown and answered) is recorded for 7 days \
            with the screen or command that asked: `tictactoe privacy report` shows it.

            EXIT CODES:
              0   done (status or report printed, decision stored or reset)
              1   the decision cannot be stored or the report read (the message says why)
              64  bad command-line usage
              74  standard output could not be written
            """,
        subcommands: [PrivacyStatus.self, PrivacyGrant.self, PrivacyDeny.self, PrivacyReset.self, PrivacyReport.self],
        defaultSubcommand: PrivacyStatus.self
    )
}

struct PrivacyOptions: ParsableArguments {
    @Option(
        name: .customLong("info-plist"),
        help: ArgumentHelp(
            "The app manifest (default: <bin>/../share/tictactoe/Info.plist, else, for a development build, the checkout's Assets/Info.plist).",
            valueName: "path"
        )
    )
    var infoPlist: String?

    @Option(help: ArgumentHelp("Where the debug log goes (default: \(FileLogHandler.defaultPath)).", valueName: "path"))
    var logFile: String?

    var logPath: String { logFile ?? FileLogHandler.defaultPath }

    /// What every privacy and manifest command does first: the log file, and the language of the manifest in use.
    func prepare() {
        bootstrapHeadlessLogging(path: logPath)
        AppManifest.useLanguage(explicitPath: infoPlist, environment: ProcessInfo.processInfo.environment)
    }

    /// The manifest, or the error that says why there is none.
    func manifest() -> Result<AppManifest, Error> {
        Result { try AppManifest.locate(explicitPath: infoPlist) }
    }

    /// The app's name for messages (with a note on stderr when --info-plist was given but cannot be used).
    func displayName() -> String {
        let (name, note) = PrivacyChange.displayName(manifest: manifest(), explicitPath: infoPlist != nil)
        if let note { printError(note) }
        return name
    }
}

/// A line on standard error (a failure to write it is ignored: there is nowhere left to say so).
func printError(_ text: String) {
    CheckedOutput.standardError.writeLine(text)
}

/// A line on standard output; a failure ends the command with exit code 74 (EX_IOERR), saying why on standard error.
func printOutput(_ text: String) throws {
    do throws(OutputError) {
        try CheckedOutput.standardOutput.write(text + "\n")
    } catch {
        throw commandFailure(error)
    }
}

/// Stores the change and prints what it did; a failure to store exits 1 with the reason.
private func apply(_ change: PrivacyChange, options: PrivacyOptions) throws {
    options.prepare()
    let name = options.displayName()
    let told: String
    do {
        // Recorded in the privacy report with the command as its origin.
        told = try change.apply(to: DecisionStore(report: PrivacyReportLog()), displayName: name)
    } catch {
        throw commandFailure(error)
    }
    try printOutput(told)
}

struct PrivacyStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the local network permission, the app manifest and where things are kept.",
        discussion: """
            Prints the state (allowed, denied, or not determined: never asked, or reset), the manifest's path, \
            display name, usage description and declared Bonjour services, the decision file and the log file. \
            With --json, one object with the keys: state, decided_at, decided_by, decision_file, \
            decision_file_status (none, valid, corrupt, unknown-version), manifest_path, manifest_error, display_name, \
            usage_description, usage_description_missing, prompt_title, prompt_message, bonjour_services, log_file, \
            language (the .lproj in use: en, ko, ja, zh-Hans, zh-Hant), language_reason (the variable that chose \
            it), strings_files (the strings tables the text comes from) (null when not known). The prompt's text is \
            in the language of LANGUAGE, LC_ALL, LC_MESSAGES or LANG (a UTF-8 locale): the manifest's keys from \
            <lang>.lproj/InfoPlist.strings beside it, the app's own words from share/tictactoe/<lang>.lproj/\
            Localizable.strings.
            """
    )

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var options: PrivacyOptions

    /// Words after `privacy` that are no command: `status`, the default, would otherwise take them as its own.
    @Argument(help: .hidden) var unexpected: [String] = []

    func validate() throws {
        guard let word = unexpected.first else { return }
        let words = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }
        if words.dropFirst().first == Self.configuration.commandName {
            throw ValidationError("Unexpected argument '\(word)'")
        }
        // `tictactoe privacy WORD`: an unknown command of `privacy`, as the root names one of its own.
        var lines = ["Error: unknown command '\(word)' of 'tictactoe privacy'", "The commands are:"]
        let commands = Privacy.configuration.subcommands.map { ($0._commandName, $0.configuration.abstract) }
        let width = commands.map(\.0.count).max() ?? 0
        for (name, abstract) in commands {
            lines.append("  " + name + String(repeating: " ", count: width - name.count + 2) + abstract)
        }
        lines.append("Run 'tictactoe privacy --help' for more, or 'tictactoe privacy COMMAND --help' for one command.")
        printError(lines.joined(separator: "\n"))
        throw ExitCode(ExitStatus.usage.rawValue)
    }

    func run() throws {
        options.prepare()
        let report = PrivacyStatusReport.read(
            store: DecisionStore(), manifest: options.manifest(), logFile: options.logPath)
        try printOutput(json ? try report.json() : report.text)
    }
}

struct PrivacyGrant: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant",
        abstract: "Allow local network access (what OK in the prompt does); waiting games proceed at once."
    )

    @OptionGroup var options: PrivacyOptions

    func run() throws { try apply(.grant, options: options) }
}

struct PrivacyDeny: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny",
        abstract: "Deny local network access (what Don't Allow in the prompt does); LAN games wait until granted."
    )

    @OptionGroup var options: PrivacyOptions

    func run() throws { try apply(.deny, options: options) }
}

struct PrivacyReset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Forget the decision (like `tccutil reset`): the prompt appears again next time."
    )

    @OptionGroup var options: PrivacyOptions

    func run() throws { try apply(.reset, options: options) }
}

struct PrivacyReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Show what used the local network in the last 7 days, and what asked for it.",
        discussion: """
            Like iOS's App Privacy Report, for the local network: every decision of the local network gate (browse \
            and resolve, advertise, listen, connect, join a multicast group, browse every service type), the \
            prompt shown and its answer, each with its destination (the service type, the bind address, the \
            endpoint, the group), what became of it (allowed, waiting, refused) and what triggered it (the screen \
            or command); and each change of the decision (Settings, `tictactoe privacy grant`, `deny`, `reset`) as \
            "done permission STATE" with who changed it. Oldest first, times in UTC, the records of the last 7 days.

            The report is kept in $XDG_STATE_HOME/tictactoe/privacy-report.jsonl (default \
            ~/.local/state/tictactoe/), and privacy-report.jsonl.1 before it: one JSON object a line, appended \
            whole by every tictactoe process; past 256 KiB the file is rotated to .1, so the report stays under \
            about 512 KiB; older records are dropped.

            With --json, each record is one JSON object on its own line, with these keys (sorted in the line), \
            always present (null when they do not apply): v (1), time (ISO 8601, UTC, milliseconds), pid, event \
            (decision, prompt-shown, prompt-answered, operation), operation (browse, advertise, listen, connect, \
            multicast, browse-service-types; for the event operation: resolve, permission), destination (for \
            permission: allowed, denied, not-determined), outcome (allowed, waiting, refused), verdict (allowed, exempt, \
            not-determined, denied, no-auth, manifest-error, missing-entitlement), detail (why it was refused), \
            answer (allow, deny), origin (the screen or command). No records print nothing.

            EXIT CODES:
              0   the report was printed (also when it is empty)
              1   the report cannot be read (the message names the file and why)
              64  bad command-line usage
              74  standard output could not be written

            Examples:
              tictactoe privacy report
              tictactoe privacy report --json
            """
    )

    @Flag(help: "Print one JSON object per record, one a line.")
    var json = false

    func run() throws {
        let log = PrivacyReportLog()
        let contents: PrivacyReportLog.Contents
        do {
            contents = try log.read()
        } catch {
            throw commandFailure(error, saying: "cannot read the privacy report \(error)")
        }
        if contents.skippedLines > 0 {
            printError("tictactoe: \(contents.skippedLines) line(s) of the privacy report are not records: skipped")
        }
        if json {
            let lines = try PrivacyReportText.jsonLines(contents)
            if !lines.isEmpty { try printOutput(lines) }
        } else {
            try printOutput(PrivacyReportText.text(contents, path: log.path))
        }
    }
}
