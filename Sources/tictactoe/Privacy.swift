import ArgumentParser
import Foundation
import LocalNetworkPrivacy
import TicTacToeApp

/// `tictactoe privacy`: Settings › Privacy › Local Network on the command line (status, grant, deny, reset).
struct Privacy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or change the local network permission (Settings › Privacy › Local Network).",
        discussion: """
            As on iOS 14, the first action that needs the local network (searching for games, hosting, joining a \
            LAN address) asks once whether TicTacToe may use it, and the answer is remembered per user until \
            `tictactoe privacy reset`; while the answer is "not determined" or "denied", those actions wait (they \
            do not fail) and proceed by themselves as soon as access is allowed, from any process. Loopback \
            (127.0.0.1, ::1, localhost) never needs the permission, and browsing or advertising a Bonjour type \
            missing from the manifest's NSBonjourServices fails at once with NoAuth (-65555), without asking.

            The decision is kept in $XDG_CONFIG_HOME/tictactoe/local-network.json (default \
            ~/.config/tictactoe/; TICTACTOE_CONFIG_DIR overrides the directory). The app manifest (Info.plist) is \
            --info-plist PATH, else the installed share/tictactoe/Info.plist, else the source tree's \
            Assets/Info.plist.

            EXIT CODES:
              0   done (status printed, decision stored or reset)
              1   the decision could not be stored (the message says why), or an unexpected error
              64  bad command-line usage
            """,
        subcommands: [PrivacyStatus.self, PrivacyGrant.self, PrivacyDeny.self, PrivacyReset.self],
        defaultSubcommand: PrivacyStatus.self
    )
}

struct PrivacyOptions: ParsableArguments {
    @Option(
        name: .customLong("info-plist"),
        help: ArgumentHelp(
            "The app manifest (default: <bin>/../share/tictactoe/Info.plist, else the checkout's Assets/Info.plist).",
            valueName: "path"
        )
    )
    var infoPlist: String?

    @Option(help: ArgumentHelp("Where the debug log goes (default: \(FileLogHandler.defaultPath)).", valueName: "path"))
    var logFile: String?

    var logPath: String { logFile ?? FileLogHandler.defaultPath }

    func bootstrapLogging() {
        FileLogHandler.bootstrap(path: logPath, level: .debug)
    }

    /// The manifest, or the error that says why there is none.
    func manifest() -> Result<AppManifest, Error> {
        Result { try AppManifest.locate(explicitPath: infoPlist) }
    }

    /// The app's name for messages: the manifest's, else the default (with a note on stderr when --info-plist was
    /// given but cannot be used).
    func displayName() -> String {
        switch manifest() {
        case .success(let manifest):
            return manifest.displayName
        case .failure(let error):
            if infoPlist != nil { printError("tictactoe: note: \(error)") }
            return AppManifest.fallbackDisplayName
        }
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Stores `state` (or resets) and reports; a failure to store exits 1 with the reason.
private func store(_ state: LocalNetworkAuthorization, message: (DecisionStore) -> String) throws {
    let store = DecisionStore()
    do {
        try store.write(
            state, source: state == .notDetermined ? nil : "tictactoe privacy \(state == .allowed ? "grant" : "deny")")
    } catch {
        printError("tictactoe: \(error)")
        throw ExitCode(ExitStatus.failure.rawValue)
    }
    print(message(store))
}

struct PrivacyStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the local network permission, the app manifest and where things are kept.",
        discussion: """
            Prints the state (allowed, denied, or not determined: never asked, or reset), the manifest's path, \
            display name, usage description and declared Bonjour services, the decision file and the log file. \
            With --json, one object with the keys: state, decided_at, decided_by, decision_file, \
            decision_file_status (none, valid, corrupt), manifest_path, manifest_error, display_name, \
            usage_description, usage_description_missing, prompt_title, prompt_message, bonjour_services, log_file \
            (null when not known).
            """
    )

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var options: PrivacyOptions

    func run() throws {
        options.bootstrapLogging()
        let store = DecisionStore()
        let decision = store.decision()
        let fileExists = FileManager.default.fileExists(atPath: store.decisionPath)
        let fileStatus = decision != nil ? "valid" : (fileExists ? "corrupt" : "none")
        let state = decision?.state ?? .notDetermined
        let manifest = options.manifest()
        if json {
            print(statusJSON(store: store, decision: decision, fileStatus: fileStatus, manifest: manifest))
        } else {
            print(
                statusText(store: store, decision: decision, state: state, fileStatus: fileStatus, manifest: manifest))
        }
    }

    private func statusJSON(
        store: DecisionStore, decision: LocalNetworkDecision?, fileStatus: String, manifest: Result<AppManifest, Error>
    ) -> String {
        func value(_ text: String?) -> Any { text ?? NSNull() }
        let loaded = try? manifest.get()
        var object: [String: Any] = [
            "state": (decision?.state ?? .notDetermined).rawValue,
            "decided_at": value(decision?.decidedAt.map { ISO8601DateFormatter().string(from: $0) }),
            "decided_by": value(decision?.source),
            "decision_file": store.decisionPath,
            "decision_file_status": fileStatus,
            "manifest_path": value(loaded?.path),
            "display_name": value(loaded?.displayName),
            "usage_description": value(loaded?.usageDescription),
            "prompt_title": value(loaded?.promptTitle),
            "prompt_message": value(loaded?.promptMessage),
            "log_file": options.logPath,
        ]
        object["usage_description_missing"] = loaded.map { $0.usesDefaultUsageDescription as Any } ?? NSNull()
        object["bonjour_services"] = loaded.map { $0.bonjourServices as Any } ?? NSNull()
        if case .failure(let error) = manifest {
            object["manifest_error"] = "\(error)"
        } else {
            object["manifest_error"] = NSNull()
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private func statusText(
        store: DecisionStore, decision: LocalNetworkDecision?, state: LocalNetworkAuthorization, fileStatus: String,
        manifest: Result<AppManifest, Error>
    ) -> String {
        let name = (try? manifest.get().displayName) ?? AppManifest.fallbackDisplayName
        var headline = "Local network access: \(state)"
        switch state {
        case .notDetermined:
            headline += " (\(name) asks the first time a game needs the local network)"
        case .allowed, .denied:
            var details: [String] = []
            if let source = decision?.source { details.append("by \(source)") }
            if let date = decision?.decidedAt { details.append("on \(ISO8601DateFormatter().string(from: date))") }
            if !details.isEmpty { headline += " (\(details.joined(separator: " ")))" }
        }
        var lines = [headline]
        func row(_ label: String, _ text: String) {
            lines.append("  " + (label + ":").padding(toLength: 19, withPad: " ", startingAt: 0) + text)
        }
        switch manifest {
        case .success(let manifest):
            row("app", manifest.displayName)
            row("manifest", manifest.path)
            row(
                "usage description",
                manifest.usageDescription ?? "(missing: the prompt shows \"\(AppManifest.defaultUsageDescription)\")")
            row(
                "Bonjour services",
                manifest.bonjourServices.isEmpty
                    ? "(none declared: browsing and advertising fail with NoAuth)"
                    : manifest.bonjourServices.joined(separator: ", "))
        case .failure(let error):
            row("manifest", "error: \(error)")
        }
        switch fileStatus {
        case "none": row("decision file", "\(store.decisionPath) (none yet: never asked, or reset)")
        case "corrupt":
            row(
                "decision file",
                "\(store.decisionPath) (corrupt: treated as not determined; `tictactoe privacy reset` removes it)")
        default: row("decision file", store.decisionPath)
        }
        row("log file", options.logPath)
        return lines.joined(separator: "\n")
    }
}

struct PrivacyGrant: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant",
        abstract: "Allow local network access (what OK in the prompt does); waiting games proceed at once."
    )

    @OptionGroup var options: PrivacyOptions

    func run() throws {
        options.bootstrapLogging()
        let name = options.displayName()
        try store(.allowed) { store in
            "Local network access allowed for “\(name)”: searching, hosting and joining LAN games go ahead (anything "
                + "waiting proceeds now). Stored in \(store.decisionPath)."
        }
    }
}

struct PrivacyDeny: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny",
        abstract: "Deny local network access (what Don't Allow in the prompt does); LAN games wait until granted."
    )

    @OptionGroup var options: PrivacyOptions

    func run() throws {
        options.bootstrapLogging()
        let name = options.displayName()
        try store(.denied) { store in
            "Local network access denied for “\(name)”: searching, hosting and joining LAN games wait until you run "
                + "`tictactoe privacy grant` (loopback still works). Stored in \(store.decisionPath)."
        }
    }
}

struct PrivacyReset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Forget the decision (like `tccutil reset`): the prompt appears again next time."
    )

    @OptionGroup var options: PrivacyOptions

    func run() throws {
        options.bootstrapLogging()
        let name = options.displayName()
        try store(.notDetermined) { store in
            "Local network permission reset (not determined): “\(name)” asks again the next time it needs the local "
                + "network. Removed \(store.decisionPath)."
        }
    }
}
