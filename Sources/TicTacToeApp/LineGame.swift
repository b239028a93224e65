import FoundationEssentials
import GameClient
import GameRules
import Localization

#if canImport(Glibc)
import Glibc
#endif

/// A game against the computer in plain line mode: the board is printed, the human types cell numbers.
public struct LineGame {
    public enum FirstMover: String, Sendable, CaseIterable { case you, computer, alternate }

    private var human: HumanLinePlayer
    /// The match itself: the same as the terminal UI's.
    private var match: ComputerMatch
    private let strengthName: String
    private let input: LineInput
    private let write: (String) -> Void
    private let unicode: Bool

    public init(
        computer: PlayerSpec,
        seed: UInt64,
        first: FirstMover,
        unicode: Bool,
        input: LineInput = .standardInput,
        write: @escaping (String) -> Void = { CheckedOutput.standardOutput.writeLine($0) }
    ) throws {
        self.human = HumanLinePlayer(input: input)
        guard let strength = computer.strength else { throw LineGameError.notAComputer(computer) }
        let starter: ComputerMatch.Starter
        switch first {
        case .you: starter = .you
        case .computer: starter = .computer
        case .alternate: starter = .alternate
        }
        self.match = ComputerMatch(strength: strength, starter: starter, seed: seed)
        self.strengthName = strength.rawValue
        self.input = input
        self.write = write
        self.unicode = unicode
    }

    /// Plays games until the human declines a rematch or quits; returns the score (you, computer, draws).
    public mutating func run() -> (you: Int, computer: Int, draws: Int) {
        var score: (you: Int, computer: Int, draws: Int) { (match.wins, match.losses, match.draws) }
        write(tr("Tic-tac-toe against the computer (%@). Cells are numbered like a phone keypad (1 top-left, 9 "
            + "bottom-right).", strengthName))
        while true {
            match.begin()
            let humanMark = match.humanMark
            write("\n" + (match.isHumanTurn
                ? tr("Game %@: you play %@ and move first", "\(match.number)", "\(humanMark)")
                : tr("Game %@: you play %@; the computer moves first", "\(match.number)", "\(humanMark)")))
            write(match.game.board.rendered(unicode: unicode))
            while !match.game.isOver {
                if match.isHumanTurn {
                    do {
                        let cell = try human.chooseMove(in: match.game)
                        try match.play(cell)
                    } catch HumanChoice.resign {
                        match.resign()
                    } catch {
                        write(Self.bye(score))
                        return score
                    }
                } else {
                    guard let cell = match.computerMove() else {
                        write(tr("The computer could not move"))
                        return score
                    }
                    write(tr("Computer plays %@", "\(cell + 1)"))
                }
                write(match.game.board.rendered(unicode: unicode))
            }
            switch match.game.result?.winner {
            case nil:
                write(tr("Draw."))
            case humanMark?:
                write(tr("You win!"))
            default:
                write(match.game.result?.reason == .resignation(humanMark) ? tr("You resigned.") : tr("The computer wins."))
            }
            write(tr("Score: you %@, computer %@, draws %@", "\(score.you)", "\(score.computer)", "\(score.draws)"))
            let answer = input.readLine(prompt: tr("Play again? [Y/n] "))?.trimmingWhitespace().lowercased()
            guard let answer, answer.isEmpty || answer.hasPrefix("y") || answer == "r" else {
                write(Self.bye(score))
                return score
            }
        }
    }

    private static func bye(_ score: (you: Int, computer: Int, draws: Int)) -> String {
        tr("Bye. Score: you %@, computer %@, draws %@", "\(score.you)", "\(score.computer)", "\(score.draws)")
    }
}

/// Why a line-mode game cannot start.
public enum LineGameError: Error, CustomStringConvertible {
    case notAComputer(PlayerSpec)

    public var description: String {
        switch self {
        case .notAComputer(let spec): return "the computer plays easy, medium or perfect, not \(spec)"
        }
    }
}
