import Foundation
import Localization

extension AppManifest {
    /// The language `environment` asks for, with the strings beside the manifest that `locate(explicitPath:)` would
    /// read (`DIR/<lang>.lproj` for `--info-plist DIR/Info.plist`; the installed share/tictactoe/ otherwise). Reads
    /// no manifest: a missing or broken one is reported when the network is first needed, as before.
    public static func localization(explicitPath: String?, environment: [String: String]) -> Localization {
        let manifest = explicitPath ?? candidatePaths(explicitPath: nil).first { FileManager.default.fileExists(atPath: $0) }
        let directory = manifest.map { path -> String in
            let directory = (path as NSString).deletingLastPathComponent
            return directory.isEmpty ? "." : directory
        }
        return Localization.load(directory: directory, environment: environment)
    }

    /// Sets the process's language (`Localization.current`) for the manifest in use: what every command does first.
    public static func useLanguage(explicitPath: String?, environment: [String: String]) {
        Localization.current = localization(explicitPath: explicitPath, environment: environment)
    }
}
