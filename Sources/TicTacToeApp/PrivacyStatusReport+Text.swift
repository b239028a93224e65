import LocalNetworkPrivacy

extension PrivacyStatusReport {
    /// `privacy status`: a headline with the state (and who decided when), then one row per thing kept somewhere.
    public var text: String {
        var lines = [headline]
        func row(_ label: String, _ text: String) {
            lines.append("  " + (label + ":").padding(toLength: 19, withPad: " ", startingAt: 0) + text)
        }
        switch manifest {
        case .loaded(let manifest):
            row("app", manifest.displayName)
            row("manifest", manifest.path)
            row(
                "usage description",
                manifest.usageDescription ?? "(missing: the prompt shows \"\(AppManifest.defaultUsageDescription)\")")
            row("prompt", "\(manifest.promptTitle(localization)) \(manifest.promptMessage(localization))")
            row(
                "Bonjour services",
                manifest.bonjourServices.isEmpty
                    ? "(none declared: browsing and advertising fail with NoAuth)"
                    : manifest.bonjourServices.joined(separator: ", "))
        case .unavailable(let error):
            row("manifest", "error: \(error)")
        }
        switch decisionFileStatus {
        case .none: row("decision file", "\(decisionFile) (none yet: never asked, or reset)")
        case .corrupt:
            row(
                "decision file",
                "\(decisionFile) (corrupt: treated as not determined; `tictactoe privacy reset` removes it)")
        case .unknownVersion:
            row(
                "decision file",
                "\(decisionFile) (a format version this tictactoe does not know: treated as not determined, and kept "
                    + "until you decide)")
        case .valid: row("decision file", decisionFile)
        }
        row("log file", logFile)
        row("language", "\(localization.language) (\(localization.reason))")
        row("text from", localization.files.isEmpty
            ? "the built-in English (no strings file for \(localization.language))"
            : localization.files.joined(separator: ", "))
        for problem in localization.problems { row("strings problem", problem) }
        return lines.joined(separator: "\n")
    }

    private var headline: String {
        let headline = "Local network access: \(state)"
        switch state {
        case .notDetermined:
            return headline + " (\(displayName) asks the first time a game needs the local network)"
        case .allowed, .denied:
            var details: [String] = []
            if let source = decision?.source { details.append("by \(source)") }
            if let date = decidedAt { details.append("on \(date)") }
            return details.isEmpty ? headline : headline + " (\(details.joined(separator: " ")))"
        }
    }
}
