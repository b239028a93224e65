import Foundation
import Logging
import XCTest

@testable import LocalNetworkPrivacy
import AppManifest

extension XCTestCase {
    /// The gate of the app-core tests: a fresh decision in `state` (a temporary directory removed after the test) and
    /// a manifest declaring `bonjourServices`, with the multicast entitlement beside it when `entitled`;
    /// `loopbackIsLAN` makes 127.0.0.1 need permission like a LAN address, so a test can exercise the local network's
    /// rules without leaving loopback.
    func makeTestGate(
        _ state: LocalNetworkAuthorization = .notDetermined, loopbackIsLAN: Bool = false,
        bonjourServices: [String] = ["_tictactoe._tcp"], entitled: Bool = false
    ) throws -> LocalNetworkGate {
        let directory = NSTemporaryDirectory() + "tictactoe-core-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        if entitled {
            let plist = try PropertyListSerialization.data(
                fromPropertyList: [AppEntitlements.multicastKey: true], format: .xml, options: 0)
            try plist.write(to: URL(fileURLWithPath: directory + "/" + AppEntitlements.fileName))
        }
        let store = DecisionStore(directory: directory + "/state")
        if state != .notDetermined { try store.write(state) }
        let manifest = AppManifest(path: directory + "/Info.plist", displayName: "TicTacToe", usageDescription: nil,
                                   bonjourServices: bonjourServices)
        let isLoopbackHost: @Sendable (String) -> Bool
        if loopbackIsLAN {
            isLoopbackHost = { _ in false }
        } else {
            isLoopbackHost = { Loopback.isLoopback(host: $0) }
        }
        return LocalNetworkGate(
            store: store, logger: Logger(label: "test.gate"), loadManifest: { manifest }, isLoopbackHost: isLoopbackHost)
    }
}
