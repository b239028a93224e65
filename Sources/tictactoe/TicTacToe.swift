import AppCore
import ArgumentParser
import FoundationEssentials
import GameClient
import GameProtocol

/// Every command names itself (`commandName`): argument-parser would otherwise derive the name from the type with
/// `String(describing:)`, whose dynamic casts each scan every protocol conformance of the binary (slow at start-up).
struct TicTacToe: AsyncParsableCommand {
    /// The version `--version` prints (`AppVersion`): argument-parser's (the configuration's) and the fast path's (`Entry`).
    static let version = AppVersion.read()

    static let configuration = CommandConfiguration(
        commandName: "tictactoe",
        abstract: "Terminal tic-tac-toe for two players on a LAN.",
        discussion: """
            With no subcommand, `tictactoe` opens the full-screen menu (`tictactoe play`): play the computer, \
            host, search, join, watch and more. Two players on a network: one runs \
            `tictactoe host` (advertised with Bonjour), the other `tictactoe browse` to list games and \
            `tictactoe join NAME`, or `tictactoe join HOST:PORT` (default port 7878). With --headless a \
            computer or scripted player plays for you: no terminal needed, transcripts on stdout (--json for one \
            JSON object per line), so scripts can run matches. `tictactoe match` plays a scored series between \
            computer levels, scripts and engines in this process; `tictactoe replay FILE` replays a finished game from its \
            JSON-lines record.

            Cells are numbered 1-9 in reading order (1 top-left, 3 top-right, 9 bottom-right), like a phone keypad.

            \(ExitStatus.helpTable)
            """,
        version: version,
        subcommands: [Play.self, Host.self, Join.self, Watch.self, Browse.self, Lobby.self, Match.self, Replay.self, Privacy.self,
                      Manifest.self],
        defaultSubcommand: Play.self
    )
}
