import AppManifest
import Foundation
import PrivacyReport
import XCTest

@testable import LocalNetworkPrivacy

extension XCTestCase {
    /// The gate of the tests, in a fresh directory removed after the test: the decision in `state`, `manifest` in
    /// memory (nil: no manifest found anywhere) placed in that directory with `entitlements` beside it (nil: no
    /// entitlements file), recording in `report` and logging to `lines`. `loopbackIsLAN` makes 127.0.0.1 need
    /// permission like a LAN address, so a gated connection can be tried without leaving loopback.
    public func makeGate(
        _ state: LocalNetworkAuthorization = .notDetermined, manifest: AppManifest? = standardManifest,
        entitlements: [String: Any]? = nil, loopbackIsLAN: Bool = false, report: PrivacyReportLog? = nil,
        lines: Recorder<String> = Recorder()
    ) throws -> LocalNetworkGate {
        try LocalNetworkGate.fixture(
            in: makeTemporaryDirectory(self), state, manifest: manifest, entitlements: entitlements,
            loopbackIsLAN: loopbackIsLAN, report: report, lines: lines)
    }
}

extension LocalNetworkGate {
    /// `makeGate` over `directory`, which the caller removes: for a gate that outlives one test.
    public static func fixture(
        in directory: String, _ state: LocalNetworkAuthorization = .notDetermined,
        manifest: AppManifest? = standardManifest, entitlements: [String: Any]? = nil, loopbackIsLAN: Bool = false,
        report: PrivacyReportLog? = nil, lines: Recorder<String> = Recorder()
    ) throws -> LocalNetworkGate {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let entitlements { _ = try writeManifest(entitlements, in: directory, name: AppEntitlements.fileName) }
        let store = DecisionStore(directory: directory + "/config")
        if state != .notDetermined { try store.write(state) }
        let placed = manifest.map {
            AppManifest(
                path: directory + "/Info.plist", displayName: $0.displayName, usageDescription: $0.usageDescription,
                bonjourServices: $0.bonjourServices, transportSecurity: $0.transportSecurity)
        }
        let load: @Sendable () throws -> AppManifest = {
            guard let placed else { throw ManifestError.notFound(tried: ["/nowhere/Info.plist"], explicit: false) }
            return placed
        }
        let isLoopbackHost: @Sendable (String) -> Bool
        if loopbackIsLAN {
            isLoopbackHost = { _ in false }
        } else {
            isLoopbackHost = { Loopback.isLoopback(host: $0) }
        }
        return LocalNetworkGate(
            store: store, report: report, logger: recordingLogger(lines), loadManifest: load,
            isLoopbackHost: isLoopbackHost)
    }
}

/// The decision file parses, holds allowed or denied, and no temporary file is left.
public func assertValidDecisionFile(in directory: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/local-network.json"))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let state = object?["state"] as? String
    XCTAssertTrue(
        state == "allowed" || state == "denied", "state: \(String(describing: state))", file: file, line: line)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    XCTAssertEqual(names, ["local-network.json", "local-network.lock"], file: file, line: line)
}
