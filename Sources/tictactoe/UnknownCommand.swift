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
        var rows: [(name: String, abstract: String)] = []
        var known: Set<String> = ["help"]
        for subcommand in command.configuration.subcommands {
            let name = subcommand._commandName
            let configuration = subcommand.configuration
            rows.append((name, configuration.abstract))
            known.insert(name)
            known.formUnion(configuration.aliases)
        }
        guard !known.contains(first) else { return nil }
        let width = rows.reduce(0) { max($0, $1.name.count) }
        var lines = ["Error: unknown command '\(first)'", "The commands are:"]
        for row in rows {
            lines.append("  " + row.name + String(repeating: " ", count: width - row.name.count + 2) + row.abstract)
        }
        let program = command._commandName
        lines.append("Run '\(program) --help' for more, or '\(program) help COMMAND' for one command.")
        return lines.joined(separator: "\n")
    }
}
