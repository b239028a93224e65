@testable import AppCore
import GameClient
import GameProtocol
import GameRules
@testable import HeadlessUI
import TicTacToeTestSupport
import XCTest

/// The transcript's closing lines read as sentences and say each thing once.
final class TranscriptWordingTests: XCTestCase {
    private func lines(_ reports: [MatchReport]) -> [String] {
        let out = Recorder<String>()
        let reporter = TranscriptReporter(localName: "me", write: { out.append($0) }, writeError: { out.append($0) })
        reporter.report(.connected(peerName: "bob", address: "127.0.0.1:7878", role: .joiner))
        for report in reports { reporter.report(report) }
        return Array(out.all.dropFirst())
    }

    func testMatchOverLines() {
        let score = MatchSession.Score(localWins: 1, peerWins: 0, draws: 0)
        XCTAssertEqual(lines([.session(.matchOver(.completed(by: .local), score: score))]),
                       ["Match over. Score: you 1, bob 0, draws 0"])
        XCTAssertEqual(lines([.session(.matchOver(.completed(by: .peer), score: score))]),
                       ["Match over. Score: you 1, bob 0, draws 0"], "the host's --games were played: a normal end")
        XCTAssertEqual(lines([.session(.matchOver(.peerTimedOut("nothing heard from the peer for 4 s"), score: score))]),
                       ["Match over: connection lost: nothing heard from the peer for 4 s. Score: you 1, bob 0, draws 0"])
    }

    /// Each move in plain English: "you (X) play 7", "bob (O) plays 3".
    func testMovesReadAsEnglish() {
        let lines = lines([.session(.gameStarted(number: 1, localMark: .x, firstMover: .x)),
                           .session(.moved(mark: .x, cell: 6, by: .local)), .session(.moved(mark: .o, cell: 2, by: .peer))])
        XCTAssertEqual(lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("    ") }, ["  you (X) play 7", "  bob (O) plays 3"])
    }

    func testTheSummaryCountsOneGameInTheSingular() {
        let one = MatchSession.Score(localWins: 1, peerWins: 0, draws: 0)
        let two = MatchSession.Score(localWins: 1, peerWins: 0, draws: 1)
        let summary = { (score: MatchSession.Score) in
            MatchReport.summary(.init(score: score, seed: 7, roundTrip: nil, exit: .success, end: "completed"))
        }
        XCTAssertEqual(lines([summary(one)]), ["Summary: 1 game; you 1, bob 0, draws 0; seed 7"])
        XCTAssertEqual(lines([summary(two)]), ["Summary: 2 games; you 1, bob 0, draws 1; seed 7"])
    }

    /// A join says where it connects: the address typed, or the first one the name resolved to.
    func testConnectingSaysWhere() {
        let out = Recorder<String>()
        let byAddress = TranscriptReporter(localName: "me", target: "192.0.2.7:7878", write: { out.append($0) })
        byAddress.report(.connectionState(.preparing))
        let byName = TranscriptReporter(localName: "me", target: "Alice's game", write: { out.append($0) })
        byName.report(.discovery(.resolved(name: "Alice's game", addresses: ["198.18.0.11:7878", "[fd00::11]:7878"])))
        byName.report(.connectionState(.preparing))
        XCTAssertEqual(out.all, ["Connecting to 192.0.2.7:7878…", "Found Alice's game at 198.18.0.11:7878, [fd00::11]:7878",
                                 "Connecting to 198.18.0.11:7878…"])
    }

    /// An engine on our side: where it started and its log; a failure names the game, the reason and the log, and the
    /// game's end says we resigned.
    func testAnEnginesStartAndFailureNameTheGameTheReasonAndTheLog() {
        let lines = lines([
            .engineStarted(name: "flaky", pid: 4242, log: "/logs/flaky.sh-1-1.log"),
            .session(.gameStarted(number: 1, localMark: .o, firstMover: .x)),
            .engineFailed(game: 1, engine: "flaky", kind: "exited", reason: "ended unexpectedly (exited with status 3)",
                          log: "/logs/flaky.sh-1-1.log"),
            .session(.gameOver(number: 1, result: GameResult(winner: .x, reason: .resignation(.o)), board: Board(),
                               score: MatchSession.Score(localWins: 0, peerWins: 1, draws: 0))),
        ])
        let text = lines.joined(separator: "\n")
        for needle in ["Engine 'flaky' started (pid 4242; stderr: /logs/flaky.sh-1-1.log)",
                       "Game 1: engine 'flaky' ended unexpectedly (exited with status 3); it loses the game "
                        + "(stderr: /logs/flaky.sh-1-1.log)", "you resigned"] {
            XCTAssertTrue(text.contains(needle), "transcript lacks '\(needle)':\n\(text)")
        }
    }
}
