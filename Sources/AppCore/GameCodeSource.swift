import FoundationEssentials
import GameClient
import GamePairing
import GameProtocol
import PairingCode

#if canImport(Glibc)
import Glibc
#endif

/// Where a headless joiner's code for a private game comes from: `--code-file FILE`, `--code -` (one line from
/// standard input), `--code N` (argv, which every user of the machine can read: the command warns), or the
/// environment variable `TICTACTOE_CODE`. Reading never echoes the code, and no error repeats it.
public enum GameCodeSource: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case standardInput
    case argument(String)
    case environment(String)

    /// The environment variable a headless joiner's code may come from.
    public static let environmentVariable = "TICTACTOE_CODE"

    /// The source the options and environment give: `--code-file`, then `--code` (`-`: standard input), then
    /// `TICTACTOE_CODE` (ignored when empty); nil when there is none.
    public static func from(
        codeFile: String?, code: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> GameCodeSource? {
        if let codeFile { return .file(codeFile) }
        if let code { return code == "-" ? .standardInput : .argument(code) }
        if let value = environment[environmentVariable], !value.isEmpty { return .environment(value) }
        return nil
    }

    /// Whether the code sits in the command line (readable by every user of the machine through `ps`).
    public var isInArgv: Bool {
        if case .argument = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .file(let path): return "--code-file \(path)"
        case .standardInput: return "--code - (standard input)"
        case .argument: return "--code"
        case .environment: return GameCodeSource.environmentVariable
        }
    }

    /// The longest code file read: a code is one short line.
    static let maximumFileBytes = 1024

    /// Up to `limit` bytes from the start of `descriptor` (fewer at its end or on a read error).
    private static func readPrefix(of descriptor: Int32, upTo limit: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, limit - count) }
            if got > 0 {
                count += got
            } else if got < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return Array(bytes.prefix(count))
    }

    /// Reads and parses the code: the first line of the file or of standard input, the argument, the variable.
    public func read(
        readLine: () -> String? = { Swift.readLine(strippingNewline: true) }
    ) throws(GameCodeSourceError) -> GameCode {
        let text: String
        switch self {
        case .file(let path):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw .unreadable(source: description, why: String(cString: strerror(errno)))
            }
            defer { close(descriptor) }
            let bytes = Self.readPrefix(of: descriptor, upTo: Self.maximumFileBytes)
            text = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .first.map(String.init) ?? ""
        case .standardInput:
            guard let line = readLine() else { throw .unreadable(source: description, why: "no line to read") }
            text = line
        case .argument(let value), .environment(let value):
            text = value
        }
        do {
            return try GameCode(parsing: text)
        } catch {
            throw .malformed(source: description, why: error)
        }
    }
}

/// Why a joiner's code could not be read (exit code 13, as a missing or wrong code).
public enum GameCodeSourceError: ExitStatusConvertible, Sendable, Equatable, CustomStringConvertible {
    case unreadable(source: String, why: String)
    case malformed(source: String, why: GameCodeError)

    public var exitStatus: ExitStatus { .wrongCode }

    public var description: String {
        switch self {
        case .unreadable(let source, let why): return "cannot read the game's code from \(source): \(why)"
        case .malformed(let source, let why): return "the game's code from \(source) is not a code: \(why)"
        }
    }
}
