// The core's interface (events, reports, exit codes, the client struct) comes with its live implementation: code
// that drives the core (the executable, the tests) imports TicTacToeApp alone.
@_exported import GameClient
