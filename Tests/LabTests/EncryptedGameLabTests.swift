import Foundation
import XCTest
import TicTacToeTestSupport

/// Encrypted games between two lab hosts.
///
/// What an eavesdropper on the LAN sees of a game: tcpdump on host-a's interface records a whole match between
/// host-b's private host and host-a's joiner. In protocol 2 the capture holds TLS records only: no player name, no
/// code, no protocol frame in clear. The same capture of a plaintext game (allowed here by a manifest with
/// `NSAllowsLocalNetworking = true`) shows the names, which proves the capture sees what a game sends.
final class EncryptedGameLabTests: LabTestCase {
    override class var labHosts: [String] { ["host-a", "host-b"] }

    private let hostName = "Carolina Hostname"
    private let joinerName = "Dorotea Joinername"

    func testAPrivateGameIsOnlyCiphertextOnTheWire() throws {
        let host = try tictactoe(on: "host-b", [
            "host", "--headless", "--json", "--no-advertise", "--private", "--name", hostName, "--port", "0",
            "--games", "3", "--seed", "7",
        ])
        let port = try XCTUnwrap(host.waitForEvent("listening")?.event["port"] as? Int, host.standardError)
        let code = try XCTUnwrap(shownCode(host), host.standardError)
        let captured = try capture(port: port) {
            let joiner = try tictactoe(on: "host-a", [
                "join", "\(Lab.address(of: "host-b")):\(port)", "--headless", "--json", "--name", joinerName,
                "--seed", "8",
            ], environment: ["TICTACTOE_CODE": code])
            XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
            XCTAssertEqual(joiner.events(named: "connected").first?["cipher"] as? String, "ECDHE-PSK-CHACHA20-POLY1305")
            XCTAssertEqual(joiner.events(named: "summary").first?["games"] as? Int, 3)
        }
        // The capture has the game: TLS handshake records (0x16 0x03 0x01: the ClientHello) and application data
        // (0x17 0x03 0x03), and plenty of them for three games.
        XCTAssertTrue(captured.contains([0x16, 0x03, 0x01]), "no TLS ClientHello in the capture")
        XCTAssertGreaterThan(captured.occurrences(of: [0x17, 0x03, 0x03]), 20, "too few TLS records for a match")
        for secret in [hostName, joinerName, code, "Carolina", "Dorotea", "tictactoe/2"] {
            XCTAssertFalse(captured.contains(Array(secret.utf8)), "'\(secret)' is readable in the capture")
        }
        print("capture of a 3-game private match: \(captured.count) bytes, "
              + "\(captured.occurrences(of: [0x17, 0x03, 0x03])) TLS application data record headers, "
              + "\(captured.occurrences(of: [0x16, 0x03])) TLS handshake record headers; player names and code: not found")
        // No v1 hello or accept in clear: type 0x01/0x02 followed by version 1 or 2 and a name's length.
        XCTAssertFalse(captured.contains([0x01, 0x02, 0x00, UInt8(joinerName.utf8.count)]))
        XCTAssertFalse(captured.contains([0x02, 0x02, 0x00, UInt8(hostName.utf8.count)]))
    }

    /// A private game found with Bonjour: marked private in `browse --json`; `join NAME` without a code exits 13 at
    /// once (the TXT record says `sec=private`) naming the ways to give it; with the code the match is played.
    func testAPrivateGameIsListedAsPrivateAndJoinedByNameWithItsCode() throws {
        let (host, _, registered) = try startHost(on: "host-b", name: "Secret table", extra: ["--private"])
        XCTAssertEqual(host.events(named: "advertised").first?["private"] as? Bool, true)
        let code = try XCTUnwrap(shownCode(host), host.standardError)
        let listed = try browse(on: "host-a", timeout: 4)
        let game = try XCTUnwrap(listed.games.first { $0["name"] as? String == registered }, "\(listed.games)")
        XCTAssertEqual(game["private"] as? Bool, true)
        XCTAssertEqual(game["secure"] as? Bool, true)

        let noCode = try tictactoe(on: "host-a", ["join", registered, "--headless", "--json"])
        XCTAssertEqual(noCode.waitForExit(), 13, noCode.standardError)
        let message = try XCTUnwrap(noCode.events(named: "error").first?["message"] as? String)
        XCTAssertEqual(message, "'\(registered)' is a private game: give its code with --code-file FILE, --code - "
                       + "(one line from standard input) or the environment variable TICTACTOE_CODE")
        XCTAssertTrue(noCode.events(named: "state").isEmpty, "it connected without a code: \(noCode.output)")

        let joiner = try tictactoe(on: "host-a", ["join", registered, "--headless", "--json"],
                                   environment: ["TICTACTOE_CODE": code])
        XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
        XCTAssertEqual(joiner.events(named: "connected").first?["secure"] as? Bool, true)
    }

    func testTheSameCaptureOfAPlaintextGameShowsTheNames() throws {
        // A manifest that allows plaintext on the local network (NSAllowsLocalNetworking = true), on both hosts.
        let manifest = Scratch.path("tictactoe-capture-\(UUID().uuidString).plist")
        scratchPaths.append(manifest)
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>NSLocalNetworkUsageDescription</key><string>Capture test.</string>
            <key>NSBonjourServices</key><array><string>_tictactoe._tcp</string></array>
            <key>NSAppTransportSecurity</key><dict><key>NSAllowsLocalNetworking</key><true/></dict>
            </dict></plist>
            """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let host = try tictactoe(on: "host-b", [
            "host", "--headless", "--json", "--no-advertise", "--plaintext", "--info-plist", manifest, "--name",
            hostName, "--port", "0", "--games", "1",
        ])
        let port = try XCTUnwrap(host.waitForEvent("listening")?.event["port"] as? Int, host.standardError)
        let captured = try capture(port: port) {
            let joiner = try tictactoe(on: "host-a", [
                "join", "\(Lab.address(of: "host-b")):\(port)", "--plaintext", "--info-plist", manifest, "--headless",
                "--json", "--name", joinerName,
            ])
            XCTAssertEqual(joiner.waitForExit(), 0, joiner.standardError)
            XCTAssertEqual(joiner.events(named: "connected").first?["secure"] as? Bool, false)
        }
        XCTAssertTrue(captured.contains(Array(hostName.utf8)), "the capture missed the host's accept")
        XCTAssertTrue(captured.contains(Array(joinerName.utf8)), "the capture missed the joiner's hello")
    }

    /// The six digits a private host printed on stderr.
    private func shownCode(_ host: LabProcess) -> String? {
        guard let line = host.waitForErrorLine(timeout: 20, { $0.contains("the code is") }),
              let range = line.text.range(of: #"\d{3} \d{3}"#, options: .regularExpression)
        else { return nil }
        return line.text[range].filter(\.isNumber)
    }

    /// Runs `body` while tcpdump records TCP port `port` on host-a's lab interface; the raw bytes of the capture file
    /// (pcap: headers and whole packets).
    private func capture(port: Int, during body: () throws -> Void) throws -> [UInt8] {
        let path = Scratch.path("tictactoe-capture-\(UUID().uuidString).pcap")
        scratchPaths.append(path)
        let dump = track(try LabProcess(
            on: "host-a", ["tcpdump", "--immediate-mode", "-i", Lab.interface, "-U", "-s", "0", "-n", "-w", path, "tcp port \(port)"]))
        XCTAssertNotNil(dump.waitForErrorLine(timeout: 15) { $0.contains("listening on") }, dump.standardError)
        try body()
        // Every packet is handed over at once (--immediate-mode) and written at once (-U); the wait is for the last
        // FIN/ACKs, and tcpdump reports how many it captured.
        usleep(500_000)
        dump.signal(SIGINT)
        XCTAssertEqual(dump.waitForExit(timeout: 15), 0, dump.standardError)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path), "no capture file")
        print("tcpdump: \(dump.standardError.split(separator: "\n").filter { $0.contains("packets") }.joined(separator: ", "))")
        XCTAssertGreaterThan(bytes.count, 1000, "the capture is nearly empty: \(dump.standardError)")
        return Array(bytes)
    }
}

extension Array where Element == UInt8 {
    func contains(_ needle: [UInt8]) -> Bool { occurrences(of: needle, stoppingAt: 1) > 0 }

    func occurrences(of needle: [UInt8], stoppingAt limit: Int = .max) -> Int {
        guard !needle.isEmpty, needle.count <= count else { return 0 }
        var found = 0
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if Array(self[start..<start + needle.count]) == needle {
                found += 1
                if found >= limit { break }
            }
        }
        return found
    }
}
