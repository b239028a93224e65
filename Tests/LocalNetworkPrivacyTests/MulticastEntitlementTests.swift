import Foundation
import GameProtocol
import XCTest

@testable import LocalNetworkPrivacy
import TicTacToeTestSupport
import AppManifest

/// Multicast and browsing every service type need `com.apple.developer.networking.multicast` in the entitlements
/// beside the manifest: without it they are refused at once (no prompt, whatever the decision); with it they are one
/// more LAN operation (the prompt, then waiting, then allowed). Nothing here touches a socket.
final class MulticastEntitlementTests: XCTestCase {
    private let group = try! MulticastGroup(ipv4: "239.255.77.77", ipv6: "ff02::7474", port: 7879)

    func testWithoutTheEntitlementMulticastIsRefusedAtOnceWhateverTheDecisionAndNothingIsAsked() throws {
        for entitlements in [nil, [:], [AppEntitlements.multicastKey: false], ["com.example.other": true]] as [[String: Any]?] {
            let lines = Recorder<String>()
            let gate = try makeGate(entitlements: entitlements, lines: lines)
            let directory = try gate.manifest().directory
            let prompts = Recorder<LocalNetworkOperation>()
            gate.setPromptHandler { prompts.append($0.operation) }
            for state in LocalNetworkAuthorization.allCases {
                try gate.store.write(state)
                XCTAssertEqual(gate.evaluate(.multicast(group)), .missingEntitlement(AppEntitlements.multicastKey))
                XCTAssertEqual(gate.evaluate(.browseServiceTypes), .missingEntitlement(AppEntitlements.multicastKey))
                guard case .refused(let error) = gate.joinGroup(group, for: OperationOrigin("test")) else {
                    return XCTFail("\(String(describing: entitlements)) \(state): not refused")
                }
                XCTAssertEqual(
                    error, .missingEntitlement(key: AppEntitlements.multicastKey,
                                               path: directory + "/TicTacToe.entitlements"))
                XCTAssertEqual(
                    "\(error)",
                    "the app is not entitled to com.apple.developer.networking.multicast (multicast and browsing every "
                        + "service type need it, as on iOS): \(directory)/TicTacToe.entitlements must declare it as <true/>")
                guard case .refused = gate.browseServiceTypes(for: OperationOrigin("test")) else {
                    return XCTFail("browse every type: not refused")
                }
            }
            XCTAssertEqual(prompts.all, [], "no prompt for an operation the app is not entitled to")
            XCTAssertTrue(lines.all.contains { $0.contains("join multicast group 239.255.77.77 and [ff02::7474], port 7879: refused: the app's entitlements lack com.apple.developer.networking.multicast") },
                          "\(lines.all)")
        }
    }

    func testWithTheEntitlementMulticastAsksThenWaitsThenGoes() throws {
        let gate = try makeGate(entitlements: [AppEntitlements.multicastKey: true])
        let prompts = Recorder<LocalNetworkOperation>()
        gate.setPromptHandler { prompts.append($0.operation) }
        XCTAssertEqual(gate.evaluate(.multicast(group)), .needsPrompt)
        XCTAssertEqual(prompts.all, [.multicast(group)], "the prompt, as for any LAN operation")
        guard case .waiting(_, .notDetermined) = gate.joinGroup(group, for: OperationOrigin("lobby")) else {
            return XCTFail("not waiting")
        }
        try gate.store.write(.denied)
        guard case .waiting(_, .denied) = gate.browseServiceTypes(for: OperationOrigin("lobby")) else {
            return XCTFail("not waiting while denied")
        }
        try gate.store.write(.allowed)
        let capability = try XCTUnwrap(gate.joinGroup(group, for: OperationOrigin("tictactoe lobby")).capability)
        XCTAssertEqual(capability.group, group)
        XCTAssertEqual("\(capability)", "join multicast group 239.255.77.77 and [ff02::7474], port 7879 (for tictactoe lobby)")
        XCTAssertNotNil(gate.browseServiceTypes(for: OperationOrigin("browse")).capability)
    }

    func testGroupDescriptorsAreAdministrativelyScopedOrLinkLocal() {
        XCTAssertEqual("\(group)", "239.255.77.77 and [ff02::7474], port 7879")
        XCTAssertNoThrow(try MulticastGroup(ipv4: "239.1.2.3", ipv6: nil, port: 1))
        XCTAssertNoThrow(try MulticastGroup(ipv4: nil, ipv6: "ff12::1", port: 65535))
        let bad: [(String?, String?, Int, MulticastGroupError)] = [
            (nil, nil, 7879, .noAddress),
            ("239.255.77.77", nil, 0, .badPort(0)),
            ("239.255.77.77", nil, 65536, .badPort(65536)),
            ("224.0.0.251", nil, 5353, .notAdministrativelyScoped("224.0.0.251")),
            ("10.0.0.1", nil, 7879, .notAdministrativelyScoped("10.0.0.1")),
            ("lobby", nil, 7879, .notAnAddress("lobby")),
            (nil, "ff05::1", 7879, .notLinkLocal("ff05::1")),
            (nil, "fe80::1", 7879, .notLinkLocal("fe80::1")),
            (nil, "239.255.77.77", 7879, .notAnAddress("239.255.77.77")),
        ]
        for (ipv4, ipv6, port, expected) in bad {
            XCTAssertThrowsError(try MulticastGroup(ipv4: ipv4, ipv6: ipv6, port: port)) { error in
                XCTAssertEqual(error as? MulticastGroupError, expected)
            }
        }
    }
}
