import AppCore
import AppManifest
import AppProcess
import ArgumentParser
import FoundationEssentials
import Localization
import LocalNetworkPrivacy
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// The privacy options every command that may use the local network takes.
struct PrivacyArguments: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The app manifest declaring NSLocalNetworkUsageDescription and NSBonjourServices (default: the installed share/tictactoe/Info.plist, else, for a development build, the checkout's Assets/Info.plist).",
        valueName: "path"))
    var infoPlist: String?

    @Option(help: "Seconds to wait for local network permission before giving up with exit code 11, \(OptionRanges.waitTimeout.span) (default: wait until it is granted, e.g. by `tictactoe privacy grant`).")
    var waitTimeout: Double?

    func validate() throws {
        try OptionRanges.waitTimeout.check(waitTimeout)
    }

    /// The wait, once `validate()` checked its range.
    var waitDuration: Duration? { waitTimeout.map { .seconds($0) } }

    /// The gate, in the language of the manifest in use (`Localization.current`), with the usage-description prompt asked as a question when standard input is a terminal (without
    /// one, commands wait until the decision is made elsewhere, e.g. by `tictactoe privacy grant`).
    func makeGate() -> LocalNetworkGate {
        AppManifest.useLanguage(explicitPath: infoPlist, environment: ProcessInfo.processInfo.environment)
        let gate = LocalNetworkGate(explicitManifestPath: infoPlist, frontEnd: .commandLine)
        if isatty(STDIN_FILENO) == 1 {
            gate.setPromptHandler { [weak gate] request in
                guard let gate else { return }
                let allow = askOnTerminal(title: request.title, message: request.message)
                do {
                    try gate.answerPrompt(allow: allow)
                } catch {
                    printError(
                        "tictactoe: cannot remember the answer (\(error)); it will be asked again next time. "
                            + "Check that the decision directory is writable (`tictactoe privacy status` shows it)")
                    gate.promptDismissed()
                }
            }
        }
        return gate
    }
}

/// The usage-description prompt as a question on the terminal (stderr, so stdout stays machine-readable).
/// The buttons are the prompt's own words in the user's language; y and n answer in every language.
private func askOnTerminal(title: String, message: String) -> Bool {
    let deny = tr("Don't Allow")
    let ok = tr("OK")
    let question = tr("Allow? (y = %@, n = %@): ", ok, deny)
    try? CheckedOutput.standardError.write("\n\(title)\n\(message)\n[ \(deny) ]  [ \(ok) ]  \(question)")
    while let line = readLine() {
        switch line.trimmingWhitespace().lowercased() {
        case "y", "yes", "ok", "o", ok.lowercased(): return true
        case "n", "no", "d", "don't allow", "dont allow", deny.lowercased(): return false
        default: try? CheckedOutput.standardError.write(tr("Please answer y (%@) or n (%@): ", ok, deny))
        }
    }
    return false
}
