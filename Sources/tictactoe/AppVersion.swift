import FoundationEssentials
import Localization
import LocalNetworkPrivacy
import TextSupport
import AppManifest

/// The version `--version` prints, read at start from a `VERSION` file found as the manifest is found
/// (`AppManifest.candidatePaths`): an installed binary's `<bin>/../share/tictactoe/VERSION`, which `make install` and
/// `make deb` write from scripts/version.sh (the checkout's VERSION, plus `+git.N.HASH` past a release tag); a
/// development build's checkout's own VERSION, as written. A file read at run time, not a string compiled in: SwiftPM
/// compiles only checked-in sources and caches Package.swift's evaluation, so neither could carry the commit a build
/// was made from without a build-tool plugin; one small read costs less than that.
enum AppVersion {
    /// The first VERSION file's first word, or `unknown` when there is none (a binary copied away from its share
    /// directory).
    static func read(candidates: [String] = paths()) -> String {
        for path in candidates {
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            if let version = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first {
                return String(version)
            }
        }
        return "unknown"
    }

    /// Where VERSION is looked for: beside each place the manifest is looked for, and for the source tree's
    /// `Assets/Info.plist` the checkout's root.
    static func paths() -> [String] {
        let sourceTree = AppManifest.sourceTreeManifestPath
        return AppManifest.candidatePaths(explicitPath: nil, sourceTreeManifest: sourceTree).map { manifest in
            let directory = PathText.directory(of: manifest)
            let root = manifest == sourceTree ? PathText.directory(of: directory) : directory
            return PathText.join(root, "VERSION")
        }
    }
}
