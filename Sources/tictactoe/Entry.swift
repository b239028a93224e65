import AppCore
import AppProcess
import ArgumentParser
import Dispatch
import GameClient
import GameProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The executable's entry point. Before anything else, SIGPIPE is ignored: a reader that goes away (`| head -n 2`)
/// must not kill a host in the middle of a match. Writes to a closed pipe then fail with EPIPE, which `CheckedOutput`
/// turns into exit code 74 after the peer was told goodbye. An unknown command is refused before argument-parser
/// would read it as `play`'s argument (`UnknownCommand`).
///
/// `main` is synchronous, for a fast cold start: the arguments are parsed first, so `--version`, `--help`, a usage
/// error and the synchronous commands (the full-screen game, `privacy`, `manifest`) never start Swift concurrency's
/// executor; only an asynchronous command (`host`, `join`, `browse`, `watch`, `lobby`, `match`) runs, in a task (its
/// `run()` is nonisolated, so it ran on the global executor under an `async` main too) while the main thread waits
/// for it; the process exits when it returns.
///
/// Before all that, `FastPath` takes the two hottest command lines without argument-parser (its reflection over the
/// command tree and its `--generate-completion-script` check are a large part of their start): `tictactoe --version`
/// prints what argument-parser prints (the version, a newline, exit 0, with `print` and `exit` as argument-parser
/// does), and `tictactoe` runs `play` with its defaults (`PlayOptions.defaults`, checked as `play` checks them). Every
/// other command line goes to argument-parser.
@main
enum Entry {
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        switch FastPath.recognize(Array(CommandLine.arguments.dropFirst())) {
        case .version:
            print(TicTacToe.version)
            exit(0)
        case .fullScreenGame:
            let options = PlayOptions.defaults
            // The defaults are valid; were they not, argument-parser below would report it as `play` does.
            guard (try? options.validate()) != nil else { break }
            runThenExit { try options.run() }
        case nil:
            break
        }
        if let message = UnknownCommand.message(for: Array(CommandLine.arguments.dropFirst()), of: TicTacToe.self) {
            printError(message)
            exit(ExitStatus.usage.rawValue)
        }
        var command: any ParsableCommand
        do {
            command = try TicTacToe.parseAsRoot()
        } catch {
            // A usage error, --help, --version: argument-parser's message and exit code.
            TicTacToe.exit(withError: error)
        }
        guard let asyncCommand = command as? any AsyncParsableCommand else {
            runThenExit { try command.run() }
        }
        // The command is handed over to a detached task (a `sending` closure: `main` is on the main actor and `run()`
        // is nonisolated), and this thread waits for it: nothing of the app runs on the main queue or the main actor,
        // so there is nothing for it to drain. Not `dispatchMain()`: on Linux that ends the main thread with
        // pthread_exit, whose forced unwind of this stack reads the binary's unwind tables, which then stay resident
        // for nothing.
        blockingWait { [asyncCommand] in
            var command = asyncCommand
            do {
                try await command.run()
            } catch {
                fail(error)
            }
        }
        exitWhenWritten()
    }

    /// Runs `body`, then exits: as `exitWhenWritten`, or as `fail` for what it threw.
    private static func runThenExit(_ body: () throws -> Void) -> Never {
        do {
            try body()
        } catch {
            fail(error)
        }
        exitWhenWritten()
    }

    /// Exits 0 once standard output's last lines are written (gathered output often still holds them), or 74 with
    /// the reason when they could not be: a run whose output was lost did not do what it was asked.
    private static func exitWhenWritten() -> Never {
        let output = CheckedOutput.standardOutput
        output.waitUntilWritten()
        if let failure = output.failure {
            printError("tictactoe: \(failure)")
            exit(ExitStatus.outputFailed.rawValue)
        }
        exit(0)
    }

    /// Exits for what a command threw, once the lines standard output still holds are written (gathered output: they
    /// came first). An `ExitCode` (a game that ended with a status, the full-screen game stopped by a signal) has no
    /// message: it exits with its code at once. An error that says its exit code (`ExitStatusConvertible`) is the
    /// app's: it ends as `commandFailure` ends a command. Anything else is argument-parser's (a usage error, help,
    /// `tictactoe help`), or an error without a code, which it exits 1 with as `ExitStatus(failure:)` does.
    private static func fail(_ error: Error) -> Never {
        CheckedOutput.standardOutput.waitUntilWritten()
        switch error {
        case let code as ExitCode:
            exit(code.rawValue)
        case is any ExitStatusConvertible:
            exit(commandFailure(error).rawValue)
        default:
            TicTacToe.exit(withError: error)
        }
    }
}

/// How a command ends on an error of the app's: `tictactoe: MESSAGE` (the error's own words unless `message` is
/// given) on standard error, and the error's exit status (`ExitStatus(failure:)`) to throw.
func commandFailure(_ error: any Error, saying message: String? = nil) -> ExitCode {
    printError("tictactoe: \(message ?? "\(error)")")
    return ExitCode(ExitStatus(failure: error).rawValue)
}
