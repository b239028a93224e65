import AppManifest
import Foundation

/// Writes an XML property list with `entries` (a manifest, entitlements) and returns its path.
public func writeManifest(_ entries: [String: Any], in directory: String, name: String = "Info.plist") throws -> String {
    let path = (directory as NSString).appendingPathComponent(name)
    let data = try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0)
    try data.write(to: URL(fileURLWithPath: path))
    return path
}

/// The project's manifest entries (as Assets/Info.plist).
public var standardEntries: [String: Any] {
    [
        "CFBundleDisplayName": "TicTacToe",
        "NSLocalNetworkUsageDescription": "TicTacToe uses the local network to discover players around you.",
        "NSBonjourServices": ["_tictactoe._tcp"],
    ]
}

/// `standardEntries` as a manifest in memory.
public let standardManifest = AppManifest(
    path: "/test/Info.plist", displayName: "TicTacToe",
    usageDescription: "TicTacToe uses the local network to discover players around you.",
    bonjourServices: ["_tictactoe._tcp"]
)

/// The checkout's Assets directory (this file is Tests/TestSupport/ManifestFixtures.swift).
public let assetsDirectory: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Assets").path
