import Foundation
import GameRules

/// A game against the computer in plain line mode: the board is printed, the human types cell numbers.
public struct LineGame {
    public enum FirstMover: String, Sendable, CaseIterable { case you, computer, alternate }

    private var human: HumanLinePlayer
    private var computer: any Player
    private let computerName: String
    private let first: FirstMover
    private let input: LineInput
    private let write: (String) -> Void
    private let unicode: Bool

    public init(
        computer: PlayerSpec,
        seed: UInt64,
        first: FirstMover,
        unicode: Bool,
        input: LineInput = .standardInput,
        write: @escaping (String) -> Void = { print($0) }
    ) throws {
        self.human = HumanLinePlayer(input: input)
        self.computer = try computer.makePlayer(seed: seed)
        self.computerName = computer == .random ? "computer (easy)" : "computer (perfect)"
        self.first = first
        self.input = input
        self.write = write
        self.unicode = unicode
    }

    /// Plays games until the human declines a rematch or quits; returns the score (you, computer, draws).
    public mutating func run() -> (you: Int, computer: Int, draws: Int) {
        var score = (you: 0, computer: 0, draws: 0)
        var number = 1
        write("Tic-tac-toe against the \(computerName). Cells are numbered like a phone keypad (1 top-left, 9 bottom-right).")
        while true {
            let humanFirst: Bool
            switch first {
            case .you: humanFirst = true
            case .computer: humanFirst = false
            case .alternate: humanFirst = number % 2 == 1
            }
            let humanMark: Mark = humanFirst ? .x : .o
            var game = Game(firstMover: .x)
            write("\nGame \(number): you play \(humanMark)\(humanFirst ? " and move first" : "; the computer moves first")")
            write(game.board.rendered(unicode: unicode))
            while !game.isOver {
                if game.turn == humanMark {
                    do {
                        let cell = try human.chooseMove(in: game)
                        try game.play(cell, by: humanMark)
                    } catch HumanChoice.resign {
                        try? game.resign(humanMark)
                    } catch {
                        write("Bye. Score: you \(score.you), computer \(score.computer), draws \(score.draws)")
                        return score
                    }
                } else {
                    do {
                        let cell = try computer.chooseMove(in: game)
                        try game.play(cell, by: humanMark.opponent)
                        write("Computer plays \(cell + 1)")
                    } catch {
                        write("The computer could not move: \(error)")
                        return score
                    }
                }
                write(game.board.rendered(unicode: unicode))
            }
            switch game.result?.winner {
            case nil:
                score.draws += 1
                write("Draw.")
            case humanMark?:
                score.you += 1
                write("You win!")
            default:
                score.computer += 1
                write(game.result?.reason == .resignation(humanMark) ? "You resigned." : "The computer wins.")
            }
            write("Score: you \(score.you), computer \(score.computer), draws \(score.draws)")
            let answer = input.readLine(prompt: "Play again? [Y/n] ")?.trimmingCharacters(in: .whitespaces).lowercased()
            guard let answer, answer.isEmpty || answer.hasPrefix("y") || answer == "r" else {
                write("Bye. Score: you \(score.you), computer \(score.computer), draws \(score.draws)")
                return score
            }
            number += 1
        }
    }
}
