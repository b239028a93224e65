import Foundation

/// A temporary directory for one test's engines and logs, removed at the end of the test; the small misbehaving
/// engines of the engine tests (EnginePlayerTests, EngineMatchTests, EngineTimeoutTests) are written there.
public final class EngineSandbox {
    public let directory: URL

    public init() throws {
        directory = URL(fileURLWithPath: Scratch.path("engine-tests-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    public var logPath: String { directory.appendingPathComponent("engine.log").path }

    /// The directory's path.
    public var path: String { directory.path }

    /// Writes an executable `sh` engine that answers every command correctly except those `overrides` handles: `case`
    /// branches (e.g. `genmove) exit 3 ;;`) tried before the correct ones. `$id` is the command's id; `$1`... its
    /// arguments. Its moves: the first free cell.
    public func engine(named name: String = "engine.sh", overrides: String = "", preamble: String = "") throws -> String {
        let script = """
            #!/bin/sh
            set -f
            board="........."
            \(preamble)
            put() {
                new=""; rest=$board; i=1
                while [ "$i" -le 9 ]; do
                    c=${rest%"${rest#?}"}; rest=${rest#?}
                    if [ "$i" -eq "$1" ]; then new="$new$2"; else new="$new$c"; fi
                    i=$((i + 1))
                done
                board=$new
            }
            firstfree() {
                rest=$board; n=1
                while [ "$n" -le 9 ]; do
                    c=${rest%"${rest#?}"}; rest=${rest#?}
                    [ "$c" = "." ] && return
                    n=$((n + 1))
                done
            }
            while IFS= read -r line; do
                set -- $line
                id=$1; command=$2; shift 2
                case $command in
                    \(overrides)
                    protocol_version) printf '=%s 1\\n\\n' "$id" ;;
                    name) printf '=%s test-engine\\n\\n' "$id" ;;
                    newgame) board="........."; printf '=%s\\n\\n' "$id" ;;
                    play) put "$2" "$1"; printf '=%s\\n\\n' "$id" ;;
                    genmove) firstfree; put "$n" "$1"; printf '=%s %s\\n\\n' "$id" "$n" ;;
                    quit) printf '=%s\\n\\n' "$id"; exit 0 ;;
                    *) printf '=%s\\n\\n' "$id" ;;
                esac
            done
            """
        let url = directory.appendingPathComponent(name)
        try script.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    /// The package root (this file is `<root>/Tests/TestSupport/EngineSandbox.swift`).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// A sample engine under Assets/engines, quoted for a command line.
    public static func sample(_ name: String) -> String {
        "'" + packageRoot.appendingPathComponent("Assets/engines/\(name)").path + "'"
    }
}
