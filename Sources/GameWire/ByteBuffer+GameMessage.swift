import GameProtocol
import GameRules
import NIOCore

/// The framing constants of the protocol (docs/PROTOCOL.md).
public enum GameFrame {
    /// Bytes of the length header (big-endian UInt16) in front of every frame.
    public static let headerLength = 2
    /// The largest frame body (type byte + payload) a receiver accepts by default. No valid message comes close.
    public static let defaultMaximumLength = 512
    /// The longest string field (names, reasons, error texts), in UTF-8 bytes.
    public static let maximumStringLength = 255
}

extension ByteBuffer {
    /// Writes `message` as one complete frame: length header, type byte, payload.
    @discardableResult
    public mutating func writeGameMessage(_ message: GameMessage) -> Int {
        // The body can never exceed UInt16.max: the largest payload is two bytes plus one 255-byte string.
        try! self.writeLengthPrefixed(as: UInt16.self) { buffer in
            buffer.writeGameMessageBody(message)
        }
    }

    /// Writes the body of a frame (type byte + payload) without the length header.
    @discardableResult
    public mutating func writeGameMessageBody(_ message: GameMessage) -> Int {
        var written = self.writeInteger(message.kind.rawValue)
        switch message {
        case .hello(let version, let name, let role, let limits):
            written += self.writeInteger(version)
            written += self.writeGameString(name)
            // Only a hello of version 2 or later has the role byte; a v1 hello is a player's, and stays as it was.
            if GameMessage.helloHasRole(version: version) { written += self.writeInteger(role.rawValue) }
            written += self.writeTimeLimits(limits)
        case .accept(let version, let name, let limits):
            written += self.writeInteger(version)
            written += self.writeGameString(name)
            written += self.writeTimeLimits(limits)
        case .reject(let reason, let text):
            written += self.writeInteger(reason.rawValue)
            written += self.writeGameString(text)
        case .start(let game, let joinerMark, let firstMover):
            written += self.writeInteger(game)
            written += self.writeInteger(joinerMark.rawValue)
            written += self.writeInteger(firstMover.rawValue)
        case .move(let cell):
            written += self.writeInteger(cell)
        case .resign, .rematchOffer, .rematchAccept, .rematchDecline:
            break
        case .ping(let value), .pong(let value):
            written += self.writeInteger(value)
        case .bye(let reason):
            written += self.writeInteger(reason.rawValue)
        case .error(let code, let text):
            written += self.writeInteger(code.rawValue)
            written += self.writeGameString(text)
        case .watch(let match):
            written += self.writeWatchedMatch(match)
        }
        return written
    }

    /// Reads one message from a frame body (type byte + payload); the whole body must be consumed.
    public mutating func readGameMessageBody() throws -> GameMessage {
        guard let type: UInt8 = self.readInteger() else { throw GameProtocolError.emptyFrame }
        guard let kind = GameMessage.Kind(rawValue: type) else { throw GameProtocolError.unknownMessageType(type) }
        func integer<T: FixedWidthInteger>(_: T.Type, _ field: String) throws -> T {
            try self.readGameInteger(T.self, field, type: type)
        }
        func string(_ field: String) throws -> String { try self.readGameString(field, type: type) }

        let message: GameMessage
        switch kind {
        case .hello:
            let version = try integer(UInt8.self, "version")
            let name = try string("name")
            // The version byte decides whether a role byte follows (2 and later) or the name ends the hello (1, 0):
            // each body parses one way only, so it re-encodes to exactly its bytes.
            let role = GameMessage.helloHasRole(version: version)
                ? PeerRole(rawValue: try integer(UInt8.self, "role")) : .player
            message = .hello(version: version, name: name, role: role, limits: try self.readTimeLimits(type: type))
        case .accept:
            let version = try integer(UInt8.self, "version")
            let name = try string("name")
            message = .accept(version: version, name: name, limits: try self.readTimeLimits(type: type))
        case .reject:
            message = .reject(reason: RejectReason(rawValue: try integer(UInt8.self, "reason")), text: try string("text"))
        case .start:
            message = .start(
                game: try integer(UInt16.self, "game number"),
                joinerMark: try self.readMark("joiner mark", type: type),
                firstMover: try self.readMark("first mover", type: type)
            )
        case .move:
            message = .move(cell: try integer(UInt8.self, "cell"))
        case .resign:
            message = .resign
        case .rematchOffer:
            message = .rematchOffer
        case .rematchAccept:
            message = .rematchAccept
        case .rematchDecline:
            message = .rematchDecline
        case .ping:
            message = .ping(try integer(UInt64.self, "value"))
        case .pong:
            message = .pong(try integer(UInt64.self, "value"))
        case .bye:
            message = .bye(ByeReason(rawValue: try integer(UInt8.self, "reason")))
        case .error:
            message = .error(code: ProtocolErrorCode(rawValue: try integer(UInt16.self, "code")), text: try string("text"))
        case .watch:
            message = .watch(try self.readWatchedMatch(type: type))
        }
        guard self.readableBytes == 0 else {
            throw GameProtocolError.malformedPayload(type: type, why: "\(self.readableBytes) unexpected trailing bytes")
        }
        return message
    }

    /// A field of a frame body whose type byte is `type`: each reader below names the field when it is missing or
    /// invalid (`malformedPayload`).
    private mutating func readGameInteger<T: FixedWidthInteger>(_: T.Type, _ field: String, type: UInt8) throws -> T {
        guard let value: T = self.readInteger() else {
            throw GameProtocolError.malformedPayload(type: type, why: "missing \(field)")
        }
        return value
    }

    /// A UInt8-length-prefixed string field, valid UTF-8.
    private mutating func readGameString(_ field: String, type: UInt8) throws -> String {
        guard let slice = self.readLengthPrefixedSlice(as: UInt8.self) else {
            throw GameProtocolError.malformedPayload(type: type, why: "\(field) is cut short")
        }
        guard let text = String(validating: slice.readableBytesView, as: UTF8.self) else {
            throw GameProtocolError.malformedPayload(type: type, why: "\(field) is not valid UTF-8")
        }
        return text
    }

    /// The time limits a hello or accept may end with: nothing, or exactly their 8 bytes (fewer are trailing bytes).
    private mutating func readTimeLimits(type: UInt8) throws -> TimeLimits? {
        guard self.readableBytes >= TimeLimits.wireLength else { return nil }
        let move = try self.readGameInteger(UInt32.self, "move limit", type: type)
        let game = try self.readGameInteger(UInt32.self, "game limit", type: type)
        return TimeLimits(
            move: TimeLimits.limit(wireMilliseconds: move), game: TimeLimits.limit(wireMilliseconds: game))
    }

    /// A mark field: X (1) or O (2).
    private mutating func readMark(_ field: String, type: UInt8) throws -> Mark {
        let raw = try self.readGameInteger(UInt8.self, field, type: type)
        guard let mark = Mark(rawValue: raw) else {
            throw GameProtocolError.malformedPayload(type: type, why: "\(field) \(raw) is neither X (1) nor O (2)")
        }
        return mark
    }

    /// A `watch` payload (as `writeWatchedMatch` writes it); names longer than `WatchedMatch.maximumNameLength` bytes
    /// are malformed.
    private mutating func readWatchedMatch(type: UInt8) throws -> WatchedMatch {
        func malformed(_ why: String) -> GameProtocolError { .malformedPayload(type: type, why: why) }
        func integer<T: FixedWidthInteger>(_: T.Type, _ field: String) throws -> T {
            try self.readGameInteger(T.self, field, type: type)
        }
        func name(_ field: String) throws -> String {
            let text = try self.readGameString(field, type: type)
            guard text.utf8.count <= WatchedMatch.maximumNameLength else {
                throw malformed("\(field) is longer than \(WatchedMatch.maximumNameLength) bytes")
            }
            return text
        }
        func markOrNone(_ field: String) throws -> Mark? {
            let raw = try integer(UInt8.self, field)
            if raw == 0 { return nil }
            guard let mark = Mark(rawValue: raw) else { throw malformed("\(field) \(raw) is not 0, X (1) or O (2)") }
            return mark
        }
        let game = try integer(UInt16.self, "game number")
        let hostName = try name("host name")
        let joinerName = try name("joiner name")
        let hostMark = try markOrNone("host mark")
        let firstMover = try markOrNone("first mover")
        var board = Board()
        for cell in 0..<Board.cellCount { board[cell] = try markOrNone("cell \(cell)") }
        return WatchedMatch(
            hostName: hostName, joinerName: joinerName, game: game, hostMark: hostMark, firstMover: firstMover,
            board: board, phase: WatchedMatch.Phase(rawValue: try integer(UInt8.self, "phase")),
            winner: try markOrNone("winner"), ending: WatchedMatch.Ending(rawValue: try integer(UInt8.self, "ending")),
            hostWins: try integer(UInt16.self, "host wins"), joinerWins: try integer(UInt16.self, "joiner wins"),
            draws: try integer(UInt16.self, "draws"))
    }

    /// A `watch` payload: game, host name, joiner name (each cut to 100 bytes), host mark, first mover, the nine
    /// cells, phase, winner, ending, host wins, joiner wins, draws (marks as 0 none, 1 X, 2 O).
    private mutating func writeWatchedMatch(_ match: WatchedMatch) -> Int {
        var written = self.writeInteger(match.game)
        written += self.writeGameString(match.hostName.gameWireTruncated(maxBytes: WatchedMatch.maximumNameLength))
        written += self.writeGameString(match.joinerName.gameWireTruncated(maxBytes: WatchedMatch.maximumNameLength))
        written += self.writeInteger(match.hostMark?.rawValue ?? 0)
        written += self.writeInteger(match.firstMover?.rawValue ?? 0)
        for cell in 0..<Board.cellCount { written += self.writeInteger(match.board[cell]?.rawValue ?? 0) }
        written += self.writeInteger(match.phase.rawValue)
        written += self.writeInteger(match.winner?.rawValue ?? 0)
        written += self.writeInteger(match.ending.rawValue)
        written += self.writeInteger(match.hostWins)
        written += self.writeInteger(match.joinerWins)
        written += self.writeInteger(match.draws)
        return written
    }

    /// A hello's or accept's time limits, when announced: move limit, then game limit, UInt32 milliseconds each.
    private mutating func writeTimeLimits(_ limits: TimeLimits?) -> Int {
        guard let limits else { return 0 }
        return self.writeInteger(TimeLimits.wireMilliseconds(limits.move))
            + self.writeInteger(TimeLimits.wireMilliseconds(limits.game))
    }

    /// Writes a UInt8-length-prefixed UTF-8 string, cut at a character boundary to fit 255 bytes.
    @discardableResult
    mutating func writeGameString(_ string: String) -> Int {
        let text = string.gameWireTruncated()
        return try! self.writeLengthPrefixed(as: UInt8.self) { buffer in buffer.writeString(text) }
    }
}

extension String {
    /// The longest prefix of `self`, whole characters only, whose UTF-8 form fits `maxBytes`.
    public func gameWireTruncated(maxBytes: Int = GameFrame.maximumStringLength) -> String {
        prefix(utf8Bytes: maxBytes)
    }
}
