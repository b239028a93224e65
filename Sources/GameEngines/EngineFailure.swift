import EngineProtocol
import GameRules

/// Why an engine lost (or could not play) a game. Every failure ends the engine's process (killed by its process
/// group and reaped) before it is thrown; the description is one line for a transcript.
public struct EngineFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The command line cannot be split (quotes, a shell operator).
        case invalidCommandLine(EngineCommandLine.ParseError)
        /// The program could not be started, or its log file opened (the system's reason).
        case cannotStart(String)
        /// The engine exited (how, e.g. "exited with status 3", "killed by signal 11"), or closed its standard output
        /// without exiting (`closed its standard output without exiting`; the runner then ends it).
        case exited(String)
        /// No complete answer to `command` within `limit`.
        case timedOut(command: String, limit: Duration)
        /// Its clock for the whole game (`--game-time`, `total`) ran out during its move (`left` was what it had).
        case outOfGameTime(left: Duration, total: Duration)
        /// Output that breaks the protocol: garbage, a wrong id, a line too long, a wrong protocol version.
        case protocolError(EngineProtocolError)
        /// A move that is not a legal cell now (`move` as the engine wrote it).
        case illegalMove(move: String, why: String)
        /// `?` to a command the runner needs.
        case refused(command: String, message: String)
        /// The engine's input pipe is full: it does not read its commands.
        case notReading
        /// The task waiting for the engine was cancelled.
        case cancelled
        /// The engine was used after it had failed or quit.
        case notRunning
    }

    public var reason: Reason
    /// The engine's name (from `name`), or its command line before the handshake.
    public var engine: String
    /// Where the engine's standard error goes.
    public var logPath: String

    public init(reason: Reason, engine: String, logPath: String) {
        self.reason = reason
        self.engine = engine
        self.logPath = logPath
    }

    /// The reason alone, e.g. `played an illegal move "5": cell 5 is already taken`.
    public var reasonText: String {
        switch reason {
        case .invalidCommandLine(let error): return error.description
        case .cannotStart(let why): return "could not be started: \(why)"
        case .exited(let how): return "ended unexpectedly (\(how))"
        case .timedOut(let command, let limit): return "did not answer \(command) within \(Self.seconds(limit)) s"
        case .outOfGameTime(let left, let total):
            return "ran out of its game time (\(Self.seconds(total)) s for the whole game; \(Self.seconds(left)) s were left "
                + "at its move)"
        case .protocolError(let error): return "broke the engine protocol: \(error)"
        case .illegalMove(let move, let why): return "played an illegal move \"\(move)\": \(why)"
        case .refused(let command, let message):
            return "refused \(command)" + (message.isEmpty ? "" : ": \(message)")
        case .notReading: return "does not read its commands (its input is full)"
        case .cancelled: return "was stopped (cancelled)"
        case .notRunning: return "is not running"
        }
    }

    /// A short, stable name of the reason for JSON transcripts and tests: `command-line`, `start`, `exited`, `timeout`,
    /// `game-time`, `protocol`, `illegal-move`, `refused`, `not-reading`, `cancelled`, `not-running`.
    public var kind: String {
        switch reason {
        case .invalidCommandLine: return "command-line"
        case .cannotStart: return "start"
        case .exited: return "exited"
        case .timedOut: return "timeout"
        case .outOfGameTime: return "game-time"
        case .protocolError: return "protocol"
        case .illegalMove: return "illegal-move"
        case .refused: return "refused"
        case .notReading: return "not-reading"
        case .cancelled: return "cancelled"
        case .notRunning: return "not-running"
        }
    }

    /// `engine 'first-free' did not answer genmove within 2.000 s (stderr: /tmp/e.log)`.
    public var description: String {
        "engine '\(engine)' \(reasonText) (stderr: \(logPath))"
    }

    static func seconds(_ duration: Duration) -> String {
        EngineTime.format(duration)
    }
}
