/// What is wrong with what an engine wrote (or with a value on the wire). The description is one line, suitable for a
/// transcript.
public enum EngineProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line that is not part of a response: not starting with `=` or `?`, or sent when no command was waiting.
    case garbage(String)
    /// A response whose id is not the id of the command it answers.
    case wrongID(expected: Int?, line: String)
    /// A line longer than `EngineLineBuffer.maximumLineLength` bytes (its length so far).
    case lineTooLong(Int)
    /// Bytes that are not UTF-8.
    case notUTF8
    /// A response with more than `EngineResponseReader.maximumResponseLines` lines.
    case responseTooLong
    /// An argument that is not what the protocol says (e.g. a time that is not `4.500` or `-`).
    case malformedArgument(String)
    /// An answer to `genmove` that is not one cell `1`...`9`.
    case malformedMove(String)
    /// An answer to `protocol_version` other than this codec's version.
    case unsupportedProtocolVersion(String)

    public var description: String {
        switch self {
        case .garbage(let line): return "garbage on standard output: \(Self.quoted(line))"
        case .wrongID(let expected, let line):
            return "answer with the wrong id (expected \(expected.map(String.init) ?? "none")): \(Self.quoted(line))"
        case .lineTooLong(let length): return "line longer than \(EngineLineBuffer.maximumLineLength) bytes (\(length))"
        case .notUTF8: return "output that is not UTF-8"
        case .responseTooLong:
            return "answer longer than \(EngineResponseReader.maximumResponseLines) lines (no empty line to end it?)"
        case .malformedArgument(let text): return "malformed argument \(Self.quoted(text))"
        case .malformedMove(let text): return "move \(Self.quoted(text)) is not a cell 1-9"
        case .unsupportedProtocolVersion(let text):
            return "protocol version \(Self.quoted(text)) (this runner speaks \(engineProtocolVersion))"
        }
    }

    /// `text` in double quotes, cut at 80 characters, control characters escaped: safe in a one-line transcript.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 80 {
                out += "…"
                break
            }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
