import TicTacToeApp

#if canImport(Glibc)
import Glibc
#endif

/// The executable's entry point. Before anything else, SIGPIPE is ignored: a reader that goes away (`| head -n 2`)
/// must not kill a host in the middle of a match. Writes to a closed pipe then fail with EPIPE, which `CheckedOutput`
/// turns into exit code 74 after the peer was told goodbye. An unknown command is refused before argument-parser
/// would read it as `play`'s argument (`UnknownCommand`).
@main
enum Entry {
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        if let message = UnknownCommand.message(for: Array(CommandLine.arguments.dropFirst()), of: TicTacToe.self) {
            printError(message)
            exit(ExitStatus.usage.rawValue)
        }
        await TicTacToe.main()
    }
}
