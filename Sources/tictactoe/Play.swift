import ArgumentParser
import TicTacToeApp

extension LineGame.FirstMover: ExpressibleByArgument {}

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play against the computer (the default command).",
        discussion: "Type a cell number 1-9 (reading order: 1 top-left, 9 bottom-right); r resigns, q quits."
    )

    @Flag(help: "Plain line mode (the only mode until the full-screen UI arrives).")
    var plain = false

    @Option(help: "The computer's strength: perfect (never loses) or random (easy).")
    var computer: PlayerSpec = .perfect

    @Option(help: "Who moves first: you, computer, or alternate.")
    var first: LineGame.FirstMover = .alternate

    @Option(help: "Seed for the computer (default: random).")
    var seed: UInt64?

    func validate() throws {
        guard computer == .perfect || computer == .random else {
            throw ValidationError("--computer must be perfect or random")
        }
    }

    func run() throws {
        var game = try LineGame(
            computer: computer, seed: seed ?? UInt64.random(in: 0...UInt64(UInt32.max)), first: first,
            unicode: Terminal.isUTF8
        )
        _ = game.run()
    }
}
