import Foundation
import Logging
import TicTacToeTestSupport
import XCTest

// Helpers for the manifest tests: everything happens in fresh temporary directories.

/// A fresh directory, removed by the test case's teardown.
func makeTemporaryDirectory(_ testCase: XCTestCase, file: StaticString = #filePath, line: UInt = #line) throws -> String
{
    let path = NSTemporaryDirectory() + "tictactoe-manifest-tests-" + UUID().uuidString
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

/// The checkout's Assets directory (this file is Tests/AppManifestTests/ManifestTestSupport.swift).
let assetsDirectory: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Assets").path

/// A swift-log handler that keeps the messages, to check what is logged.
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
