import EngineProtocol
import FoundationEssentials
import GameProtocol
import LocalNetworkPrivacy
import GameClient
import GameRules
import AppManifest

/// A `--player` value: a computer (`easy`, `medium` or `perfect`; `random` is another name for `easy`),
/// `script:FILE` (cells 1-9 in reading order), `engine:COMMAND` (a program speaking the engine protocol,
/// docs/ENGINE.md), or `human` (line mode).
public enum PlayerSpec: Sendable, Hashable, CustomStringConvertible {
    /// Never loses (`PerfectPlayer`).
    case perfect
    /// The perfect move 7 times in 10, otherwise a random legal one (`MediumPlayer`).
    case medium
    /// Random legal moves (`RandomPlayer`); also spelled `random`.
    case easy
    case script(path: String)
    /// A program speaking the engine protocol (docs/ENGINE.md), started from `command` (split like a shell splits it,
    /// no shell run): it plays through `EngineSeat`, not as an in-process `Player`.
    case engine(command: String)
    case human

    public init?(parsing argument: String) {
        switch argument {
        case "perfect": self = .perfect
        case "medium": self = .medium
        case "easy", "random": self = .easy
        case "human": self = .human
        default:
            if argument.hasPrefix("engine:") {
                let command = String(argument.dropFirst("engine:".count))
                guard !command.allSatisfy(\.isWhitespace) else { return nil }
                self = .engine(command: command)
                return
            }
            guard argument.hasPrefix("script:"), argument.count > "script:".count else { return nil }
            self = .script(path: String(argument.dropFirst("script:".count)))
        }
    }

    /// The computer's strength, or nil for a script or a person.
    public var strength: ComputerMatch.Strength? {
        switch self {
        case .perfect: return .perfect
        case .medium: return .medium
        case .easy: return .easy
        case .script, .engine, .human: return nil
        }
    }

    /// The engine's command line, for an engine.
    public var engineCommand: String? {
        if case .engine(let command) = self { return command }
        return nil
    }

    /// Why an `engine:COMMAND` cannot be run as given (an unterminated quote, an unquoted shell operator), as the
    /// usage error says it: nil when it can (or this is no engine).
    public var usageProblem: String? {
        guard case .engine(let command) = self else { return nil }
        do throws(EngineCommandLine.ParseError) {
            _ = try EngineCommandLine.split(command)
            return nil
        } catch {
            return "engine:\(command): \(error)"
        }
    }

    public var description: String {
        switch self {
        case .perfect: return "perfect"
        case .medium: return "medium"
        case .easy: return "easy"
        case .script(let path): return "script:\(path)"
        case .engine(let command): return "engine:\(command)"
        case .human: return "human"
        }
    }

    /// Builds the player. Scripts are read and parsed now, so a bad file fails before any network use.
    public func makePlayer(seed: UInt64, input: LineInput? = nil) throws(PlayerSpecError) -> any Player {
        switch self {
        case .perfect:
            return PerfectPlayer(rng: SplitMix64(seed: seed))
        case .medium:
            return MediumPlayer(rng: SplitMix64(seed: seed))
        case .easy:
            return RandomPlayer(rng: SplitMix64(seed: seed))
        case .human:
            return HumanLinePlayer(input: input ?? LineInput.standardInput)
        case .engine:
            if let problem = usageProblem { throw PlayerSpecError.invalidEngineCommand(problem) }
            throw PlayerSpecError.notInProcess(description)
        case .script(let path):
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw PlayerSpecError.unreadableScript(path: path, why: AppManifest.describe(error))
            }
            do {
                return try ScriptedPlayer(parsing: text)
            } catch {
                throw PlayerSpecError.invalidScript(path: path, why: "\(error)")
            }
        }
    }
}

/// Our own player cannot be used: its script or engine command is unusable, or the script failed during the game
/// (exit 8).
public enum PlayerSpecError: ExitStatusConvertible, CustomStringConvertible {
    case unreadableScript(path: String, why: String)
    case invalidScript(path: String, why: String)
    /// Our player failed during the game: the script ran out of moves or played an illegal one.
    case scriptFailed(String)
    /// An `engine:COMMAND` whose command line cannot be split.
    case invalidEngineCommand(String)
    /// An engine plays through `EngineSeat`, never as an in-process player.
    case notInProcess(String)

    public var exitStatus: ExitStatus { .scriptError }

    public var description: String {
        switch self {
        case .unreadableScript(let path, let why): return "cannot read script '\(path)': \(why)"
        case .invalidScript(let path, let why): return "invalid script '\(path)': \(why)"
        case .scriptFailed(let why): return why
        case .invalidEngineCommand(let why): return why
        case .notInProcess(let spec): return "\(spec) does not play in-process"
        }
    }
}
