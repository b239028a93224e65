/// One answer from an engine: `=[id] result` (success) or `?[id] message` (failure), possibly over several lines,
/// ended by an empty line.
public struct EngineResponse: Sendable, Hashable {
    /// The id echoed from the command, or nil when the command had none.
    public var id: Int?
    /// `=` (true) or `?` (false).
    public var isSuccess: Bool
    /// The result or error text: the first line after `=[id] ` and any further lines, joined by `"\n"`; trailing
    /// spaces and carriage returns removed.
    public var text: String

    public init(id: Int?, isSuccess: Bool, text: String) {
        self.id = id
        self.isSuccess = isSuccess
        self.text = text
    }

    /// The cell (0...8) of an answer to `genmove`.
    public func move() throws(EngineProtocolError) -> Int {
        guard let cell = EngineCell.parse(text) else { throw .malformedMove(text) }
        return cell
    }

    /// Checks the answer to `protocol_version`.
    public func checkProtocolVersion() throws(EngineProtocolError) {
        guard text.trimmingSpaces == String(engineProtocolVersion) else { throw .unsupportedProtocolVersion(text) }
    }
}

/// Reads responses from an engine's output lines (without their newlines), one command at a time.
///
/// Call `expect(id:)` when a command is sent, then `feed(_:)` each line until it returns the response. Empty lines
/// between responses are ignored; any other line that is not part of an answer to the command sent is garbage.
public struct EngineResponseReader: Sendable {
    /// The most lines one response may have.
    public static let maximumResponseLines = 64

    private enum State: Sendable {
        /// No command waits for an answer.
        case idle
        /// A command with this id was sent; its answer has not started.
        case awaiting(id: Int?)
        /// The answer has started.
        case reading(id: Int?, isSuccess: Bool, lines: [String])
    }

    private var state = State.idle

    public init() {}

    /// Whether a command waits for its answer (sent, not yet completely answered).
    public var isAwaiting: Bool {
        if case .idle = state { return false }
        return true
    }

    /// A command with `id` has been sent: the next response must carry that id (nil: no id).
    public mutating func expect(id: Int?) {
        state = .awaiting(id: id)
    }

    /// Reads one line; returns the response once its empty line has been read.
    ///
    /// - Throws: `EngineProtocolError` for a line that is not part of the expected response; the reader is idle then.
    public mutating func feed(_ rawLine: String) throws(EngineProtocolError) -> EngineResponse? {
        let line = String(rawLine.trimmingTrailingSpaces)
        switch state {
        case .idle:
            if line.isEmpty { return nil }
            throw .garbage(rawLine)
        case .awaiting(let id):
            if line.isEmpty { return nil }
            guard let (isSuccess, gotID, first) = Self.header(line) else {
                state = .idle
                throw .garbage(rawLine)
            }
            guard gotID == id else {
                state = .idle
                throw .wrongID(expected: id, line: rawLine)
            }
            state = .reading(id: id, isSuccess: isSuccess, lines: [first])
            return nil
        case .reading(let id, let isSuccess, var lines):
            if line.isEmpty {
                state = .idle
                return EngineResponse(id: id, isSuccess: isSuccess, text: lines.joined(separator: "\n"))
            }
            lines.append(line)
            guard lines.count <= Self.maximumResponseLines else {
                state = .idle
                throw .responseTooLong
            }
            state = .reading(id: id, isSuccess: isSuccess, lines: lines)
            return nil
        }
    }

    /// `=12 text` → (true, 12, "text"); `?` → (false, nil, ""); nil for a line that does not start a response.
    static func header(_ line: String) -> (Bool, Int?, String)? {
        guard let sign = line.first, sign == "=" || sign == "?" else { return nil }
        let rest = line.dropFirst()
        let digits = rest.prefix(while: \.isASCIIDigit)
        let afterID = rest.dropFirst(digits.count)
        var id: Int?
        if !digits.isEmpty {
            guard digits.count <= 9, let value = Int(digits) else { return nil }
            id = value
        }
        if afterID.isEmpty { return (sign == "=", id, "") }
        guard afterID.first == " " || afterID.first == "\t" else { return nil }
        return (sign == "=", id, String(afterID.trimmingSpaces))
    }
}

extension StringProtocol {
    var trimmingTrailingSpaces: Substring {
        let view = self[...]
        guard let last = view.lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) else { return "" }
        return Substring(view[...last])
    }
}

/// Splits an engine's output bytes into lines (at `\n`; a `\r` before it is dropped), with a limit on a line's length
/// so that an engine printing without end cannot make the runner buffer without end.
public struct EngineLineBuffer: Sendable {
    /// The longest line accepted, in bytes.
    public static let maximumLineLength = 4096

    private var pending: [UInt8] = []

    public init() {}

    /// The bytes of an unfinished line (after the last `\n`).
    public var unfinished: Int { pending.count }

    /// Appends `bytes` and returns the lines they complete.
    public mutating func append(_ bytes: some Sequence<UInt8>) throws(EngineProtocolError) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                guard let line = String(validating: pending, as: UTF8.self) else { throw .notUTF8 }
                lines.append(line)
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
                if pending.count > Self.maximumLineLength { throw .lineTooLong(pending.count) }
            }
        }
        return lines
    }
}
