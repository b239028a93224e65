import ArgumentParser
import Bonjour
import Foundation
import GameTransport
import LocalNetworkPrivacy
import TicTacToeApp

/// The privacy options every command that may use the local network takes.
struct PrivacyArguments: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The app manifest declaring NSLocalNetworkUsageDescription and NSBonjourServices (default: the installed share/tictactoe/Info.plist, else the source tree's Assets/Info.plist).",
        valueName: "path"))
    var infoPlist: String?

    @Option(help: "Seconds to wait for local network permission before giving up with exit code 11 (default: wait until it is granted, e.g. by `tictactoe privacy grant`).")
    var waitTimeout: Double?

    func validate() throws {
        if let waitTimeout, waitTimeout <= 0 { throw ValidationError("--wait-timeout must be positive") }
    }

    func makeGate() -> LocalNetworkGate { LocalNetworkGate(explicitManifestPath: infoPlist) }
}

/// Gets a capability for a headless command, as the app would: with a terminal on standard input the
/// usage-description prompt is asked as a question; without one the command waits (saying why) until the decision is
/// granted elsewhere or --wait-timeout passes (exit 11). NoAuth or no manifest ends it at once (exit 12).
func obtainCapability<Capability: LocalNetworkCapability>(
    _ clear: @escaping @Sendable (LocalNetworkGate) -> Clearance<Capability>,
    gate: LocalNetworkGate,
    privacy: PrivacyArguments,
    json: Bool,
    onWaiting: @escaping @Sendable (String) -> Void
) async throws -> Capability {
    if isatty(STDIN_FILENO) == 1 {
        gate.setPromptHandler { request in
            let allow = askOnTerminal(title: request.title, message: request.message)
            do {
                try gate.answerPrompt(allow: allow)
            } catch {
                report(json: json, "cannot remember the answer: \(error)", .failure)
                gate.promptDismissed()
            }
        }
    }
    defer { gate.setPromptHandler(nil) }
    do {
        return try await LocalNetworkAccess(gate: gate).obtain(
            clear, waitTimeout: privacy.waitTimeout.map { .nanoseconds(Int64($0 * 1e9)) }, onWaiting: onWaiting)
    } catch let error as LocalNetworkAccessError {
        report(json: json, "\(error)", error.exitStatus)
        throw ExitCode(error.exitStatus.rawValue)
    }
}

/// The usage-description prompt as a question on the terminal (stderr, so stdout stays machine-readable).
private func askOnTerminal(title: String, message: String) -> Bool {
    let text = "\n\(title)\n\(message)\n[ Don't Allow ]  [ OK ]  Allow? (y = OK, n = Don't Allow): "
    FileHandle.standardError.write(Data(text.utf8))
    while let line = readLine() {
        switch line.trimmingCharacters(in: .whitespaces).lowercased() {
        case "y", "yes", "ok", "o": return true
        case "n", "no", "d", "don't allow", "dont allow": return false
        default: FileHandle.standardError.write(Data("Please answer y (OK) or n (Don't Allow): ".utf8))
        }
    }
    return false
}

private func report(json: Bool, _ message: String, _ status: ExitStatus) {
    if json {
        let object: [String: Any] = ["event": "error", "message": message, "exit": Int(status.rawValue)]
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
    } else {
        FileHandle.standardError.write(Data("tictactoe: \(message)\n".utf8))
    }
}

/// Reports a privacy wait the way each command reports its state: a join is a connection in `waiting(...)`.
func waitingPrinter(json: Bool, reporter: MatchReporter?) -> @Sendable (String) -> Void {
    { reason in
        if let reporter {
            reporter.report(.connectionState(.waiting(.notAllowed(reason))))
        } else if json {
            let object: [String: Any] = ["event": "state", "state": "waiting", "reason": reason]
            if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            }
        } else {
            FileHandle.standardOutput.write(Data("Waiting: \(reason)\n".utf8))
        }
    }
}
