import AppManifest
import GameProtocol
import LocalNetworkPrivacy
import Localization
import PrivacyCommands
import TextSupport

extension PrivacyStatusReport {
    /// `privacy status`: a headline with the state (and who decided when), then one row per thing kept somewhere.
    public var text: String {
        var lines = [headline]
        func row(_ label: String, _ text: String) {
            // Labels in any language line up: padded by terminal columns (a CJK label's characters take two).
            lines.append("  " + DisplayWidth.padded(tr("%@:", label), to: 19) + text)
        }
        switch manifest {
        case .loaded(let manifest):
            row(tr("app"), manifest.localizedDisplayName(localization))
            row(tr("manifest"), manifest.path)
            row(
                tr("usage description"),
                manifest.localizedUsageDescription(localization)
                    ?? tr("(missing: the prompt shows \"%@\")", localization.text(AppManifest.defaultUsageDescription)))
            row(tr("prompt"), "\(manifest.promptTitle(localization)) \(manifest.promptMessage(localization))")
            row(
                tr("Bonjour services"),
                manifest.bonjourServices.isEmpty
                    ? tr("(none declared: browsing and advertising fail with NoAuth)")
                    : manifest.bonjourServices.joined(separator: ", "))
        case .unavailable(let error):
            row(tr("manifest"), tr("error: %@", "\(error)"))
        }
        switch decisionFileStatus {
        case .none: row(tr("decision file"), tr("%@ (none yet: never asked, or reset)", decisionFile))
        case .corrupt:
            row(
                tr("decision file"),
                tr("%@ (corrupt: treated as not determined; `tictactoe privacy reset` removes it)", decisionFile))
        case .unknownVersion:
            row(
                tr("decision file"),
                tr("%@ (a format version this tictactoe does not know: treated as not determined, and kept "
                    + "until you decide)", decisionFile))
        case .valid: row(tr("decision file"), decisionFile)
        }
        row(tr("log file"), logFile)
        row(tr("language"), "\(localization.language) (\(localization.reason))")
        row(tr("text from"), localization.files.isEmpty
            ? tr("the built-in English (no strings file for %@)", localization.language)
            : localization.files.joined(separator: ", "))
        for problem in localization.problems { row(tr("strings problem"), problem) }
        return lines.joined(separator: "\n")
    }

    private var headline: String {
        let name = manifest.loaded?.localizedDisplayName(localization) ?? displayName
        let headline: String
        switch state {
        case .notDetermined:
            return tr("Local network access: not determined (%@ asks the first time a game needs the local network)",
                      name)
        case .allowed: headline = tr("Local network access: allowed")
        case .denied: headline = tr("Local network access: denied")
        }
        var details: [String] = []
        if let source = decision?.source { details.append(tr("by %@", source)) }
        if let date = decidedAt { details.append(tr("on %@", date)) }
        return details.isEmpty ? headline : tr("%@ (%@)", headline, details.joined(separator: " "))
    }
}
