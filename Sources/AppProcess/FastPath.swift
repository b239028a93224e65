/// The command lines the executable runs without swift-argument-parser, for a faster start: argument-parser's
/// `parseAsRoot` (its check for `--generate-completion-script`, paid by every command, and its reflection over the
/// command tree) is a large part of `tictactoe --version` and of the full-screen game's first frame. Only these two
/// exact lines are taken: `--version` alone (what argument-parser prints for it is the version and a newline, exit 0)
/// and no arguments at all (`play` with every option at its default). Everything else, `--version` with any other
/// argument, `-V`, `--help`, a subcommand, an unknown command, goes to argument-parser: the fast path skips work, it
/// never changes what a command line does.
public enum FastPath: Sendable, Hashable {
    /// `tictactoe --version`: print the version.
    case version
    /// `tictactoe`: the default command (`play`) with its defaults, the full-screen game (line mode with no terminal).
    case fullScreenGame

    /// The fast path for `arguments` (without the program's name), or nil: argument-parser decides.
    public static func recognize(_ arguments: [String]) -> FastPath? {
        switch arguments {
        case []: .fullScreenGame
        case ["--version"]: .version
        default: nil
        }
    }
}
