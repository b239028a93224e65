import Foundation
import Logging
import TicTacToeTestSupport
import XCTest

@testable import LocalNetworkPrivacy
import AppManifest

// Helpers for the privacy tests. Everything happens in fresh temporary directories; the only network traffic is on
// loopback. Waits poll with generous limits (15 s) so a loaded 2-core machine cannot make them flake; no test asserts
// a speed.

/// A fresh directory, removed by the test case's teardown.
func makeTemporaryDirectory(_ testCase: XCTestCase, file: StaticString = #filePath, line: UInt = #line) throws -> String
{
    let path = NSTemporaryDirectory() + "tictactoe-privacy-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}

/// Writes an XML property list with `entries` and returns its path.
func writeManifest(_ entries: [String: Any], in directory: String, name: String = "Info.plist") throws -> String {
    let path = (directory as NSString).appendingPathComponent(name)
    let data = try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0)
    try data.write(to: URL(fileURLWithPath: path))
    return path
}

/// The project's manifest entries (as Assets/Info.plist).
var standardEntries: [String: Any] {
    [
        "CFBundleDisplayName": "TicTacToe",
        "NSLocalNetworkUsageDescription": "TicTacToe uses the local network to discover players around you.",
        "NSBonjourServices": ["_tictactoe._tcp"],
    ]
}

let standardManifest = AppManifest(
    path: "/test/Info.plist", displayName: "TicTacToe",
    usageDescription: "TicTacToe uses the local network to discover players around you.",
    bonjourServices: ["_tictactoe._tcp"]
)

/// The checkout's Assets directory (this file is Tests/LocalNetworkPrivacyTests/TestSupport.swift).
let assetsDirectory: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Assets").path

extension XCTestCase {
    /// A gate over a fresh decision (a temporary directory removed after the test) with `manifest` in memory (nil:
    /// no manifest found anywhere), logging to `lines`; `loopbackIsLAN` makes 127.0.0.1 need permission like a LAN
    /// address, so a gated connection can be tried without leaving loopback.
    func makeGate(
        manifest: AppManifest? = standardManifest, lines: Recorder<String> = Recorder(), loopbackIsLAN: Bool = false
    ) throws -> LocalNetworkGate {
        let store = DecisionStore(directory: try makeTemporaryDirectory(self))
        let isLoopbackHost: @Sendable (String) -> Bool
        if loopbackIsLAN {
            isLoopbackHost = { _ in false }
        } else {
            isLoopbackHost = { Loopback.isLoopback(host: $0) }
        }
        let load: @Sendable () throws -> AppManifest = {
            guard let manifest else { throw ManifestError.notFound(tried: ["/nowhere/Info.plist"], explicit: false) }
            return manifest
        }
        return LocalNetworkGate(
            store: store, logger: recordingLogger(lines), loadManifest: load, isLoopbackHost: isLoopbackHost)
    }
}

/// Collects what a stream yields, on its own task.
final class StreamCollector<Element: Sendable>: @unchecked Sendable {
    let values = Recorder<Element>()
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<Element>) {
        task = Task { [values] in
            for await value in stream { values.append(value) }
        }
    }

    func cancel() { task?.cancel() }

    /// Waits until some value satisfies `predicate`.
    func waitFor(timeout: Double = 15, _ predicate: @escaping (Element) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { values.all.contains(where: predicate) }
    }

    deinit { task?.cancel() }
}

/// A swift-log handler that keeps the messages, to check what the gate logs.
struct RecordingLogHandler: LogHandler {
    let lines: Recorder<String>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.level): \(event.message)")
    }
}

/// A logger whose lines end up in `lines`.
func recordingLogger(_ lines: Recorder<String>) -> Logger {
    Logger(label: "tictactoe.privacy") { _ in RecordingLogHandler(lines: lines) }
}

/// The number of inotify descriptors this process has open.
func openInotifyDescriptors() -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter { entry in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"))?.contains("inotify")
            == true
    }.count
}

