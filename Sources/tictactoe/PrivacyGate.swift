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

/// Asks the gate before a headless command touches the local network, as the app would: with a terminal on standard
/// input the usage-description prompt is asked as a question; without one the command waits (saying why) until the
/// decision is granted elsewhere or --wait-timeout passes. Returns nil when the operation may go ahead, else the exit
/// status to end with.
func clearLocalNetwork(
    _ operation: LocalNetworkOperation,
    gate: LocalNetworkGate,
    waitTimeout: Double?,
    json: Bool,
    onWaiting: @escaping @Sendable (String) -> Void
) async -> ExitStatus? {
    var verdict = gate.evaluate(operation)
    if verdict == .needsPrompt, isatty(STDIN_FILENO) == 1, let request = try? gate.promptRequest(for: operation) {
        let answer = askOnTerminal(title: request.title, message: request.message)
        try? gate.answerPrompt(allow: answer)
        verdict = gate.evaluate(operation)
    }
    switch verdict {
    case .allowed, .exempt:
        return nil
    case .noAuth(let type):
        report(json: json, "\(LocalNetworkGate.noAuthMessage): \(type) is not declared in NSBonjourServices of the app manifest (kDNSServiceErr_NoAuth, -65555)", .localNetworkNotAllowed)
        return .localNetworkNotAllowed
    case .manifestError(let text):
        report(json: json, "cannot use the local network: \(text)", .localNetworkNotAllowed)
        return .localNetworkNotAllowed
    case .needsPrompt, .denied:
        break
    }
    let waiting = Task {
        try await gate.waitUntilAllowed(operation, onWaiting: onWaiting)
    }
    let timer = Task {
        guard let waitTimeout else { return }
        try await Task.sleep(nanoseconds: UInt64(waitTimeout * 1e9))
        waiting.cancel()
    }
    defer { timer.cancel() }
    do {
        try await waiting.value
        return nil
    } catch is CancellationError {
        let reason = gate.waitingReason
        report(json: json, "still waiting for local network permission after \(waitTimeout ?? 0) s (--wait-timeout): \(reason)", .localNetworkWaitTimedOut)
        return .localNetworkWaitTimedOut
    } catch {
        report(json: json, "\(error)", .localNetworkNotAllowed)
        return .localNetworkNotAllowed
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
