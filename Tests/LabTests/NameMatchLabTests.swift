import Foundation
import XCTest
import TicTacToeTestSupport

/// A typed game name meets an advertised one after NFC and with ASCII case folded (`PlayerName`), over real mDNS.
/// Each test lists a name of its own: a service the test before published may still be listed for a second after it
/// went (its goodbye), and would match the same typed name.
final class NameMatchLabTests: LabTestCase {
    private let advertised = "Zo\u{EB}'s Game"  // NFC: ë is one scalar
    private let typed = "zoe\u{308}'s game"  // NFD (e + COMBINING DIAERESIS) and lower-case ASCII

    /// Bytes: Swift's `==` treats NFC and NFD as equal, mDNS does not.
    private func bytes(_ text: Any?) -> [UInt8] { Array((text as? String ?? "").utf8) }

    func testJoinWithTheNFDLowerCaseSpellingFindsTheAdvertisedGameAndPlays() throws {
        // The host's name given decomposed: advertised, and sent in the hello, in NFC.
        let (host, port, registered) = try startHost(on: "host-a", name: "Zoe\u{308}'s Game", extra: ["--games", "1"])
        XCTAssertEqual(bytes(registered), bytes(advertised))
        XCTAssertEqual(bytes(host.events(named: "listening").first?["name"]), bytes(advertised))
        let joiner = try tictactoe(on: "host-b", ["join", typed, "--headless", "--json", "--seed", "5",
                                                  "--name", "joiner", "--connect-timeout", "20"])
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        let resolved = try XCTUnwrap(joiner.events(named: "resolved").first, "\(joiner.output)")
        XCTAssertEqual(bytes(resolved["name"]), bytes(advertised), "reported as advertised")
        XCTAssertEqual(resolved["addresses"] as? [String], ["\(Lab.address(of: "host-a")):\(port)"])
        XCTAssertEqual(bytes(joiner.events(named: "connected").first?["peer"]), bytes(advertised))
        XCTAssertEqual(joiner.events(named: "summary").last?["games"] as? Int, 1)
        XCTAssertEqual(host.events(named: "summary").last?["games"] as? Int, 1)
    }

    /// A third-party peer (avahi-publish) advertising the name decomposed is found by the NFC spelling, and resolved
    /// as it was advertised (nobody listens on its port: the join gets as far as the address).
    func testANameAdvertisedInNFDIsFoundByItsNFCSpelling() throws {
        let decomposed = "Zoe\u{308}'s Other Game"
        _ = try publish(on: "host-a", name: decomposed, port: 7000)
        let joiner = try tictactoe(on: "host-b", ["join", "ZO\u{EB}'S OTHER GAME", "--headless", "--json",
                                                  "--connect-timeout", "3"])
        _ = joiner.waitForExit(timeout: 30)
        let resolved = try XCTUnwrap(joiner.events(named: "resolved").first, "\(joiner.output) \(joiner.standardError)")
        XCTAssertEqual(bytes(resolved["name"]), bytes(decomposed), "resolved as advertised, in NFD")
        XCTAssertEqual(resolved["addresses"] as? [String], ["\(Lab.address(of: "host-a")):7000"])
    }

    /// `join "ZOË'S THIRD GAME"` (upper-case Ë, not ASCII) finds the listed "Zoë's Third Game": case is folded
    /// beyond ASCII.
    func testJoinFoldsCaseBeyondASCII() throws {
        let listed = "Zo\u{EB}'s Third Game"
        _ = try publish(on: "host-a", name: listed, port: 7000)
        let joiner = try tictactoe(on: "host-b", ["join", "ZO\u{CB}'S THIRD GAME", "--headless", "--json",
                                                  "--connect-timeout", "4"])
        let resolved = try XCTUnwrap(joiner.waitForEvent("resolved", timeout: 10),
                                     "\(joiner.output) \(joiner.standardError)")
        XCTAssertEqual(bytes(resolved.event["name"]), bytes(listed), "resolved as advertised")
        _ = joiner.waitForExit(timeout: 30)
    }
}
