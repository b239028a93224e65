import FoundationEssentials
import Logging
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

extension AppManifest {
    /// Where the manifest is looked for, in order: `--info-plist PATH` if given (and only it); else the installed
    /// share directory next to the executable (`<bin>/../share/tictactoe/Info.plist`, where `make install` copies
    /// Assets/); else, for a development build only, the source tree (`Assets/Info.plist` of the checkout this module
    /// was built from). A build is a development build when its executable lives inside that checkout (such as
    /// `<checkout>/.build/debug/tictactoe`): an installed binary (`PREFIX/bin/tictactoe`) uses its prefix's assets
    /// only, and when they are missing says so rather than reading a source tree it happens to have been built from.
    public static func candidatePaths(
        explicitPath: String?,
        executablePath: String? = currentExecutablePath,
        sourceTreeManifest: String? = sourceTreeManifestPath
    ) -> [String] {
        if let explicitPath { return [explicitPath] }
        var paths: [String] = []
        if let executablePath {
            let bin = PathText.directory(of: executablePath)
            paths.append(
                PathText.normalized(PathText.join(bin, "../share/tictactoe/Info.plist")))
        }
        if let sourceTreeManifest, let executablePath,
            isDevelopmentBuild(executablePath: executablePath, sourceTreeManifest: sourceTreeManifest),
            !paths.contains(sourceTreeManifest)
        {
            paths.append(sourceTreeManifest)
        }
        return paths
    }

    /// Whether the executable at `executablePath` lives inside the checkout whose manifest is `sourceTreeManifest`
    /// (`<checkout>/Assets/Info.plist`): its build directory, or any other place under the checkout. Both paths are
    /// compared with symbolic links resolved where they exist (a checkout reached through a link still counts).
    static func isDevelopmentBuild(executablePath: String, sourceTreeManifest: String) -> Bool {
        let checkout = PathText.directory(of: PathText.directory(of: sourceTreeManifest))
        let root = resolved(checkout)
        let executable = resolved(executablePath)
        guard root != "/" else { return true }
        return executable.hasPrefix(root + "/")
    }

    /// `path` made absolute and standardized, with symbolic links resolved when it exists (realpath(3)).
    private static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        return PathText.normalized(path)
    }

    /// Finds and reads the manifest (see `candidatePaths`). With an explicit path only that file is read. Otherwise
    /// the first candidate that exists is read, and a file that exists but cannot be read or parsed is an error
    /// (never silently skipped). Throws `ManifestError` naming the paths tried.
    public static func locate(explicitPath: String?) throws -> AppManifest {
        try locate(explicitPath: explicitPath, candidates: candidatePaths(explicitPath: explicitPath))
    }

    /// `locate(explicitPath:)` over the given candidate paths (for tests and custom layouts).
    public static func locate(
        explicitPath: String?, candidates: [String], logger: Logger = Logger(label: "tictactoe.privacy")
    ) throws -> AppManifest {
        if let explicitPath {
            do {
                return try AppManifest(contentsOf: explicitPath, logger: logger)
            } catch ManifestError.notFound {
                throw ManifestError.notFound(tried: [explicitPath], explicit: true)
            }
        }
        for path in candidates where FileManager.default.fileExists(atPath: path) {
            return try AppManifest(contentsOf: path, logger: logger)
        }
        throw ManifestError.notFound(tried: candidates, explicit: false)
    }

    /// This process's executable (`/proc/self/exe`, else argv[0] made absolute). Read with readlink(2) itself, as
    /// `FileManager.destinationOfSymbolicLink` does (a target that is not UTF-8 is no answer either), without setting
    /// up `FileManager` and its path conversions at every start.
    public static var currentExecutablePath: String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                readlink("/proc/self/exe", $0, bytes.count - 1)
            }
        }
        if count > 0, let target = String(validating: buffer[..<count], as: UTF8.self), target.hasPrefix("/") {
            return target
        }
        guard let first = CommandLine.arguments.first, first.contains("/") else { return nil }
        if first.hasPrefix("/") { return first }
        return PathText.normalized(PathText.join(FileManager.default.currentDirectoryPath, first))
    }

    /// `Assets/Info.plist` in the source tree this module was compiled from (Sources/AppManifest/ → ../../),
    /// or nil when that checkout is not there (an installed build on another machine). `candidatePaths` uses it only
    /// for a development build (an executable inside that checkout).
    /// (Path text, not `URL`: the first `URL` of a run costs more than the rest of this lookup.)
    public static var sourceTreeManifestPath: String? {
        let root = PathText.directory(of:  // the checkout
            PathText.directory(of:  // Sources
                PathText.directory(of: #filePath)))  // Sources/AppManifest
        let path = PathText.join(root, "Assets/Info.plist")
        return FileManager.default.fileExists(atPath: PathText.join(root, "Package.swift")) ? path : nil
    }
}
