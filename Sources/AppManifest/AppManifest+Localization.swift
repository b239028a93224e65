import FoundationEssentials
import Localization
import TextSupport

extension AppManifest {
    /// The language `environment` asks for, with the manifest's strings beside the manifest that
    /// `locate(explicitPath:)` would read (`DIR/<lang>.lproj/InfoPlist.strings` for `--info-plist DIR/Info.plist`)
    /// and the app's messages from its own resources (the installed share/tictactoe/, or the checkout's Assets/, as
    /// `locate(explicitPath: nil)` finds them). Reads no manifest: a missing or broken one is reported when the network
    /// is first needed.
    public static func localization(explicitPath: String?, environment: [String: String]) -> Localization {
        func directory(_ path: String) -> String {
            let directory = PathText.directory(of: path)
            return directory.isEmpty ? "." : directory
        }
        let installed = candidatePaths(explicitPath: nil).first { FileManager.default.fileExists(atPath: $0) }
        let manifest = explicitPath ?? installed
        return Localization.load(
            directory: manifest.map(directory), resources: installed.map(directory), environment: environment)
    }

    /// Sets the process's language (`Localization.current`) for the manifest in use: what every command does first.
    public static func useLanguage(explicitPath: String?, environment: [String: String]) {
        Localization.current = localization(explicitPath: explicitPath, environment: environment)
    }
}
