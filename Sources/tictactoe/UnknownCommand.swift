import ArgumentParser

/// `tictactoe WORD` where WORD is no command: with `play` as the default subcommand, argument-parser would take WORD as
/// one of `play`'s arguments and complain about those. A first argument that is not an option (`-…`) can only be a
/// command, since `play` takes no positional arguments: an unknown one is a usage error (exit 64) that names it and
/// lists the commands. `tictactoe` alone (the full-screen game), `tictactoe --help` and `tictactoe help …` are left
/// to argument-parser.
enum UnknownCommand {
    /// The message for `arguments` (without the program's name) when its first one is an unknown command, or nil.
    static func message(for arguments: [String], of command: any ParsableCommand.Type) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let commands = command.configuration.subcommands
        let known = commands.flatMap { [$0._commandName] + $0.configuration.aliases } + ["help"]
        guard !known.contains(first) else { return nil }
        let width = commands.map(\._commandName.count).max() ?? 0
        let list = commands.map { subcommand in
            let name = subcommand._commandName
            return "  " + name + String(repeating: " ", count: width - name.count + 2) + subcommand.configuration.abstract
        }
        return """
            Error: unknown command '\(first)'
            The commands are:
            \(list.joined(separator: "\n"))
            Run '\(command._commandName) --help' for more, or '\(command._commandName) help COMMAND' for one command.
            """
    }
}
