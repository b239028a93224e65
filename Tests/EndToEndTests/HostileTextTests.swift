import Foundation
import GameProtocol
import XCTest
import TextSupport

/// Text from a hostile host reaches a headless joiner's terminal only escaped (`DisplayText.escaped`), and its JSON
/// lines losslessly with every control and bidi character as a `\u` escape. The host is a fake (`RawHost`) that
/// answers the real `tictactoe join` with what a tester would send.
final class HostileTextTests: ProcessTestCase {
    /// Retitles the window (OSC 0 ended by BEL) and clears the screen (CSI 2J), then an 8-bit CSI and a
    /// right-to-left override.
    private let hostile = "go away \u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}"
    private let shown = #"go away \x1b]0;pwned\x07\x1b[2J\x9b31m\u202e"#

    private func joinFake(_ extra: [String]) throws -> (TicTacToeProcess, RawPeer) {
        let fake = try RawHost()
        let joiner = try TicTacToeProcess(
            ["join", "127.0.0.1:\(fake.port)", "--plaintext", "--headless", "--connect-timeout", "10"] + extra)
        processes.append(joiner)
        let peer = try fake.accept()
        guard case .hello? = try peer.receive() else {
            XCTFail("the joiner did not say hello")
            throw XCTSkip("no hello")
        }
        return (joiner, peer)
    }

    private func assertNothingActsOnATerminal(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(text.utf8.contains(0x1B), "an ESC byte got through: \(text.debugDescription)", file: file, line: line)
        let acting = text.unicodeScalars.filter {
            ($0 != "\n" && DisplayText.isControl($0)) || DisplayText.isBidiFormatting($0)
        }
        XCTAssertTrue(acting.isEmpty, "raw \(acting.map { "U+" + String($0.value, radix: 16) }) in \(text.debugDescription)",
                      file: file, line: line)
    }

    func testARejectTextWithEscapeSequencesReachesTheJoinersStderrEscaped() throws {
        let (joiner, peer) = try joinFake([])
        try peer.send(.reject(reason: .version, text: hostile))
        peer.closeSocket()
        XCTAssertEqual(joiner.waitForExit(), 4, joiner.standardError)
        let stderr = joiner.standardError
        assertNothingActsOnATerminal(stderr + joiner.output.joined(separator: "\n"))
        XCTAssertTrue(stderr.contains("rejected by the host (version): " + shown), stderr)
    }

    func testARejectTextIsLosslessInJSON() throws {
        let (joiner, peer) = try joinFake(["--json"])
        try peer.send(.reject(reason: .version, text: hostile))
        peer.closeSocket()
        XCTAssertEqual(joiner.waitForExit(), 4, joiner.standardError)
        assertNothingActsOnATerminal(joiner.output.joined(separator: "\n"))
        let line = try XCTUnwrap(joiner.output.first { $0.contains(#""event":"error""#) }, "\(joiner.output)")
        XCTAssertTrue(line.contains(#"go away \u001b]0;pwned\u0007\u001b[2J\u009b31m\u202e"#), line)
        let message = try XCTUnwrap(joiner.events(named: "error").last?["message"] as? String)
        // The host's text, as it came, then our advice to a --plaintext joiner.
        XCTAssertTrue(message.hasSuffix(hostile + ", or join without --plaintext"), message.debugDescription)
    }

    /// The host's name: escaped in the transcript, and in `--json` the `peer` field carries the C1 control and the
    /// override as `\u0085` / `\u202e`, which decode back to the name as sent.
    func testAHostileNameIsEscapedInTheTranscriptAndLosslessInJSON() throws {
        let name = "mallory\u{85}\u{202E}gnp.exe"
        for json in [false, true] {
            let (joiner, peer) = try joinFake(json ? ["--json"] : [])
            try peer.send(.accept(version: GameMessage.plaintextProtocolVersion, name: name),
                          .start(game: 1, joinerMark: .x, firstMover: .x))
            guard case .move? = try peer.receive() else { return XCTFail("the joiner did not play") }
            try peer.send(.bye(.quit))
            peer.closeSocket()
            XCTAssertEqual(joiner.waitForExit(), 3, joiner.standardError)
            let output = joiner.output.joined(separator: "\n")
            assertNothingActsOnATerminal(output + joiner.standardError)
            if json {
                let line = try XCTUnwrap(joiner.output.first { $0.contains(#""event":"connected""#) }, output)
                XCTAssertTrue(line.contains(#""peer":"mallory\u0085\u202egnp.exe""#), line)
                let decoded = try XCTUnwrap(joiner.events(named: "connected").first?["peer"] as? String)
                XCTAssertEqual(Array(decoded.unicodeScalars), Array(name.unicodeScalars))
            } else {
                XCTAssertTrue(output.contains(#"Connected to mallory\x85\u202egnp.exe (127.0.0.1:"#), output)
            }
        }
    }
}
