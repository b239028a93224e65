import GameClient
import GameProtocol
import GameTransport
import HeadlessUI
import TicTacToeTestSupport
import XCTest

@testable import AppCore

/// A private game's wrong (or missing) code: exit 13, "wrong code" in the transcript, on both sides.
final class WrongCodeExitTests: XCTestCase {
    func testAWrongCodeExitsWith13() {
        XCTAssertEqual(ExitStatus(failure: ConnectionError.wrongCode), .wrongCode)
        XCTAssertEqual(ExitStatus.wrongCode.rawValue, 13)
        XCTAssertEqual(ExitStatus.wrongCode.meaning, "a private game's code is wrong or missing")
        XCTAssertTrue(
            ExitStatus.helpTable.contains("\n  13  a private game's code is wrong or missing\n"), ExitStatus.helpTable)
    }

    func testTheTranscriptsSayWrongCode() {
        let out = Recorder<String>()
        let errors = Recorder<String>()
        let reporter = TranscriptReporter(
            localName: "me", write: { out.append($0) }, writeError: { errors.append($0) })
        // The joiner's side: the connection's state, then the run's last word.
        reporter.report(.connectionState(.failed(.wrongCode)))
        reporter.report(.error("\(ConnectionError.wrongCode)", .wrongCode))
        // The host's side: a failed attempt with its source address.
        reporter.report(.peerFailed(remote: "192.0.2.7:50123", error: PairingFailure.wrongCode.description))
        let lines = out.all + errors.all
        // Said once: the run's last word does not repeat the connection's failure.
        XCTAssertEqual(lines.filter { $0.contains("wrong code") && !$0.hasPrefix("Connection from") },
                       ["Connection failed: \(ConnectionError.wrongCode)"], "\(lines)")
        // A different last word is still written.
        reporter.report(.error("stopped", .failure))
        XCTAssertEqual(errors.all.last, "tictactoe: stopped")
        XCTAssertTrue(lines.contains("Connection from 192.0.2.7:50123 ended: wrong code"), "\(lines)")
    }
}
