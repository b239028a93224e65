import AppProcess
import FoundationEssentials
import GameRules
import Localization
import Synchronization
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// What a human can answer instead of a cell.
public enum HumanChoice: Error {
    case resign
    case quit
}

/// Lines of text from standard input (or a test's list).
public final class LineInput: Sendable {
    /// The test's lines still to read (nil: standard input).
    private let lines: Mutex<[String]?>
    /// Shows a prompt; false when it could not be shown (standard output failed).
    private let prompt: @Sendable (String) -> Bool

    public static let standardInput = LineInput(lines: nil)

    public init(lines: [String]?, prompt: @escaping @Sendable (String) -> Bool = { text in
        (try? CheckedOutput.standardOutput.write(text)) != nil
    }) {
        self.lines = Mutex(lines)
        self.prompt = prompt
    }

    /// Shows `text` and reads one line; nil at end of input, and when the prompt cannot be shown: nobody can see
    /// the game any more (its output is closed or full), so the person is taken to have quit.
    public func readLine(prompt text: String) -> String? {
        guard prompt(text) else { return nil }
        let scripted = lines.withLock { lines -> String?? in
            guard lines != nil else { return .none }
            return .some(lines!.isEmpty ? nil : lines!.removeFirst())
        }
        if let scripted { return scripted }
        return Swift.readLine(strippingNewline: true)
    }
}

/// A person typing cell numbers (1-9, reading order) in line mode; `r` resigns and `q` quits, each after a `y` to
/// "really?" (any other answer plays on); end of input quits at once, as Ctrl-C does.
public struct HumanLinePlayer: Player {
    let input: LineInput
    private let write: @Sendable (String) -> Void

    public init(input: LineInput, write: @escaping @Sendable (String) -> Void = {
        CheckedOutput.standardOutput.writeLine($0)
    }) {
        self.input = input
        self.write = write
    }

    /// A line for the person (a failure shows at the next prompt, which then ends the game).
    private func say(_ text: String) {
        write(text)
    }

    /// Asks `question`: true for `y` or `yes` (any case); false for anything else. End of input quits.
    private func confirm(_ question: String) throws -> Bool {
        guard let answer = input.readLine(prompt: question) else { throw HumanChoice.quit }
        let text = answer.trimmingWhitespace().lowercased()
        return text == "y" || text == "yes"
    }

    public mutating func chooseMove(in game: Game) throws -> Int {
        while true {
            guard let line = input.readLine(prompt: tr("Your move, %@ (1-9, r = resign, q = quit): ", "\(game.turn)")) else {
                throw HumanChoice.quit
            }
            let text = line.trimmingWhitespace().lowercased()
            switch text {
            case "r", "resign":
                if try confirm(tr("Resign this game? [y/N] ")) { throw HumanChoice.resign }
                say(tr("You play on."))
                continue
            case "q", "quit", "exit":
                if try confirm(tr("Quit? You forfeit the game in progress. [y/N] ")) { throw HumanChoice.quit }
                say(tr("You play on."))
                continue
            case "", "?", "h", "help":
                say(tr("Cells are numbered like a phone keypad:") + "\n 1 | 2 | 3\n 4 | 5 | 6\n 7 | 8 | 9")
                continue
            default: break
            }
            guard let number = Int(text) else {
                say(tr("'%@' is not a cell: type a number from 1 to 9", line))
                continue
            }
            if let error = game.validate(number - 1, by: game.turn) {
                say(tr("Can't play there: %@", "\(error)"))
                continue
            }
            return number - 1
        }
    }
}
