import Foundation
import Logging
import XCTest

@testable import LocalNetworkPrivacy
import AppManifest

extension XCTestCase {
    /// A gate over a fresh decision in `state` (a temporary directory removed after the test) and a manifest declaring
    /// `bonjourServices`; `loopbackIsLAN` makes 127.0.0.1 need permission like a LAN address, so a test can exercise
    /// the local network's rules without leaving loopback.
    func makeTestGate(
        _ state: LocalNetworkAuthorization, loopbackIsLAN: Bool = false, bonjourServices: [String] = ["_tictactoe._tcp"]
    ) throws -> LocalNetworkGate {
        let directory = NSTemporaryDirectory() + "tictactoe-core-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let store = DecisionStore(directory: directory)
        if state != .notDetermined { try store.write(state) }
        let manifest = AppManifest(path: "/test/Info.plist", displayName: "TicTacToe", usageDescription: nil,
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
