/// An engine's command line (`python3 bot.py --level 2`) split into words the way a POSIX shell splits them, with no
/// shell run: white space separates words; `'…'` keeps everything literally; `"…"` keeps everything but `\"`, `\\`,
/// `\$` and `` \` `` (the backslash goes) and a backslash before a newline (both go); outside quotes a backslash keeps
/// the next character (a backslash before a newline: both go). Nothing is expanded, so a character that would make
/// a shell do more (`| & ; < > ( ) $` and a backquote) is refused unless quoted, rather than passed on silently.
public enum EngineCommandLine {
    /// Why a command line cannot be split. The description is one line for the user.
    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        case empty
        case unterminatedQuote(Character)
        case trailingBackslash
        case shellOperator(Character)

        public var description: String {
            switch self {
            case .empty: return "the engine command is empty"
            case .unterminatedQuote(let quote): return "the engine command has an unterminated \(quote) quote"
            case .trailingBackslash: return "the engine command ends with a backslash"
            case .shellOperator(let character):
                return "the engine command has an unquoted '\(character)': no shell runs it (quote it, or put "
                    + "redirections and pipes in a script and name the script)"
            }
        }
    }

    private static let operators: Set<Character> = ["|", "&", ";", "<", ">", "(", ")", "$", "`"]

    /// The words of `command`; the first is the program (looked up in PATH when it has no `/`).
    public static func split(_ command: String) throws(ParseError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var iterator = Array(command).makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord {
                    words.append(word)
                    word = ""
                    inWord = false
                }
            case "'":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" {
                        closed = true
                        break
                    }
                    word.append(next)
                }
                guard closed else { throw .unterminatedQuote("'") }
            case "\"":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { throw .unterminatedQuote("\"") }
                        switch escaped {
                        case "\"", "\\", "$", "`": word.append(escaped)
                        case "\n": break
                        default:
                            word.append("\\")
                            word.append(escaped)
                        }
                        continue
                    }
                    word.append(next)
                }
                guard closed else { throw .unterminatedQuote("\"") }
            case "\\":
                guard let escaped = iterator.next() else { throw .trailingBackslash }
                if escaped != "\n" {
                    word.append(escaped)
                    inWord = true
                }
            default:
                if operators.contains(character) { throw .shellOperator(character) }
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        guard !words.isEmpty else { throw .empty }
        return words
    }
}
