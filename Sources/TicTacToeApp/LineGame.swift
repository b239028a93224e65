import Foundation
import GameClient
import GameRules

/// A game against the computer in plain line mode: the board is printed, the human types cell numbers.
public struct LineGame {
    public enum FirstMover: String, Sendable, CaseIterable { case you, computer, alternate }

    private var human: HumanLinePlayer
    /// The match itself: the same as the terminal UI's.
    private var match: ComputerMatch
    private let computerName: String
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
        self.computerName = "computer (\(strength.rawValue))"
        self.input = input
        self.write = write
        self.unicode = unicode
    }

    /// Plays games until the human declines a rematch or quits; returns the score (you, computer, draws).
    public mutating func run() -> (you: Int, computer: Int, draws: Int) {
        var score: (you: Int, computer: Int, draws: Int) { (match.wins, match.losses, match.draws) }
        write("Tic-tac-toe against the \(computerName). Cells are numbered like a phone keypad (1 top-left, 9 bottom-right).")
        while true {
            match.begin()
            let humanMark = match.humanMark
            write("\nGame \(match.number): you play \(humanMark)\(match.isHumanTurn ? " and move first" : "; the computer moves first")")
            write(match.game.board.rendered(unicode: unicode))
            while !match.game.isOver {
                if match.isHumanTurn {
                    do {
                        let cell = try human.chooseMove(in: match.game)
                        try match.play(cell)
                    } catch HumanChoice.resign {
                        match.resign()
                    } catch {
                        write("Bye. Score: you \(score.you), computer \(score.computer), draws \(score.draws)")
                        return score
                    }
                } else {
                    guard let cell = match.computerMove() else {
                        write("The computer could not move")
                        return score
                    }
                    write("Computer plays \(cell + 1)")
                }
                write(match.game.board.rendered(unicode: unicode))
            }
            switch match.game.result?.winner {
            case nil:
                write("Draw.")
            case humanMark?:
                write("You win!")
            default:
                write(match.game.result?.reason == .resignation(humanMark) ? "You resigned." : "The computer wins.")
            }
            write("Score: you \(score.you), computer \(score.computer), draws \(score.draws)")
            let answer = input.readLine(prompt: "Play again? [Y/n] ")?.trimmingCharacters(in: .whitespaces).lowercased()
            guard let answer, answer.isEmpty || answer.hasPrefix("y") || answer == "r" else {
                write("Bye. Score: you \(score.you), computer \(score.computer), draws \(score.draws)")
                return score
            }
        }
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
