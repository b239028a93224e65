@testable import AppCore
import GameRules
@testable import HeadlessUI
import MatchPlay
import Synchronization
import XCTest

/// Line mode asks "really?" before resigning or quitting: `y` (or `yes`) goes ahead, anything else plays on; end of
/// input quits at once.
final class LineConfirmationTests: XCTestCase {
    /// What the person saw: the prompts and the lines, in order.
    final class Seen: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    private func player(_ answers: [String], _ seen: Seen) -> HumanLinePlayer {
        HumanLinePlayer(input: LineInput(lines: answers, prompt: { seen.add($0); return true }),
                        write: { seen.add($0) })
    }

    func testResignAsksAndYResigns() {
        let seen = Seen()
        var human = player(["r", "y"], seen)
        XCTAssertThrowsError(try human.chooseMove(in: Game())) { error in
            guard case HumanChoice.resign = error else { return XCTFail("not a resignation: \(error)") }
        }
        XCTAssertTrue(seen.all.contains("Resign this game? [y/N] "), "\(seen.all)")
    }

    func testAnyOtherAnswerPlaysOn() throws {
        let seen = Seen()
        var human = player(["resign", "n", "q", "", "5"], seen)
        XCTAssertEqual(try human.chooseMove(in: Game()), 4)
        XCTAssertEqual(seen.all.filter { $0 == "You play on." }.count, 2, "\(seen.all)")
        XCTAssertTrue(seen.all.contains("Quit? You forfeit the game in progress. [y/N] "), "\(seen.all)")
    }

    func testQuitAsksAndYesQuits() {
        let seen = Seen()
        var human = player(["quit", " YES "], seen)
        XCTAssertThrowsError(try human.chooseMove(in: Game())) { error in
            guard case HumanChoice.quit = error else { return XCTFail("did not quit: \(error)") }
        }
    }

    func testEndOfInputAtTheQuestionQuits() {
        let seen = Seen()
        var human = player(["r"], seen)
        XCTAssertThrowsError(try human.chooseMove(in: Game())) { error in
            guard case HumanChoice.quit = error else { return XCTFail("did not quit: \(error)") }
        }
    }

    /// The whole line-mode game against the computer: a cancelled resignation, then a confirmed one ends the game
    /// as a loss; "n" declines a rematch.
    func testALineGameResignsOnlyWhenConfirmed() throws {
        let output = Seen()
        let input = LineInput(lines: ["r", "no", "r", "y", "n"], prompt: { output.add($0); return true })
        var game = try LineGame(computer: .perfect, seed: 1, first: .you, unicode: false, clock: ContinuousClock(),
                                input: input, write: { output.add($0) })
        let score = game.run()
        XCTAssertEqual(score.computer, 1)
        XCTAssertEqual(score.you, 0)
        XCTAssertEqual(output.all.filter { $0 == "Resign this game? [y/N] " }.count, 2, "\(output.all)")
        XCTAssertTrue(output.all.contains("You resigned."), "\(output.all)")
    }
}

final class LineGamePlayTests: XCTestCase {
    /// A whole game typed in line mode: the computer answers every move, and the game ends in a result.
    func testTheComputerAnswersEveryMove() throws {
        let output = LineConfirmationTests.Seen()
        let input = LineInput(lines: ["5", "1", "3", "7", "9", "2", "4", "6", "8", "n"], prompt: { output.add($0); return true })
        var game = try LineGame(computer: .perfect, seed: 1, first: .you, unicode: false, clock: ContinuousClock(),
                                input: input, write: { output.add($0) })
        let score = game.run()
        XCTAssertFalse(output.all.contains("The computer could not move"), "\(output.all)")
        XCTAssertTrue(output.all.contains { $0.hasPrefix("Computer plays ") }, "\(output.all)")
        XCTAssertEqual(score.you + score.computer + score.draws, 1, "\(output.all)")
    }
}

