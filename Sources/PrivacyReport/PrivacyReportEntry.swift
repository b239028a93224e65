import FoundationEssentials
import TextSupport

/// One record of the privacy report (`PrivacyReportLog`): a decision of the gate about one local-network operation,
/// or the prompt shown or answered, with what triggered it (the `OperationOrigin` of the screen or command). Its
/// fields are text: LocalNetworkPrivacy makes records from the gate's operations and verdicts
/// (`PrivacyReportLog+Gate.swift`).
///
/// On disk it is one JSON object on one line, written by the one encoder (`JSONLine`: keys sorted), every key always
/// present (null when it does not apply); the reader takes the keys in any order. docs/PRIVACY.md lists the keys, and
/// `PrivacyReportLogTests` pins a whole line.
public struct PrivacyReportEntry: Sendable, Hashable {
    /// The format written in `v`.
    public static let formatVersion = 1

    /// What happened.
    public enum Event: String, Sendable, Hashable, CaseIterable {
        /// The gate decided about one operation.
        case decision
        /// The usage-description prompt was shown, for this operation.
        case promptShown = "prompt-shown"
        /// The prompt was answered (`answer`); the operation is the one that showed it.
        case promptAnswered = "prompt-answered"
        /// A LAN operation carried out under a capability the gate cleared, recorded where the decision alone does
        /// not say what happened: `resolve` (a Bonjour name, to join it: `destination` is the name, its type, and
        /// the addresses it resolved to). Also `permission`: the decision changed (Settings, `tictactoe privacy
        /// grant`/`deny`/`reset`), `destination` the new state (allowed, denied, not-determined).
        case operation
    }

    /// Where a decision leaves the operation.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// It went ahead (allowed, or loopback: exempt).
        case allowed
        /// It waits for permission (not determined: the prompt; or denied).
        case waiting
        /// It cannot happen as the app is built: NoAuth, no manifest, a missing entitlement. No prompt.
        case refused
    }

    public var time: Date
    public var pid: Int32
    public var event: Event
    /// browse, advertise, listen, connect, multicast, browse-service-types, resolve, permission (nil: a prompt
    /// answered with no operation known).
    public var operation: String?
    /// Where: the service type (browse, advertise), the bind host ("*": every interface), the endpoint (connect), the
    /// group's addresses and port (multicast).
    public var destination: String?
    /// For a decision (and a prompt shown: waiting).
    public var outcome: Outcome?
    /// The gate's verdict: allowed, exempt, not-determined, denied, no-auth, manifest-error, missing-entitlement.
    public var verdict: String?
    /// Why it was refused: the service type NSBonjourServices lacks, the entitlement, the manifest's problem.
    public var detail: String?
    /// For a prompt answered: allow (OK) or deny (Don't Allow).
    public var answer: String?
    /// The screen or command that asked (`OperationOrigin`), nil when not known.
    public var origin: String?

    public init(
        time: Date, pid: Int32, event: Event, operation: String?, destination: String?, outcome: Outcome? = nil,
        verdict: String? = nil, detail: String? = nil, answer: String? = nil, origin: String?
    ) {
        self.time = time
        self.pid = pid
        self.event = event
        self.operation = operation
        self.destination = destination
        self.outcome = outcome
        self.verdict = verdict
        self.detail = detail
        self.answer = answer
        self.origin = origin
    }

    // MARK: The line

    /// Longest texts kept in a record (in UTF-8 bytes of their JSON; longer ones are cut), so that a record stays one
    /// small write.
    static let maximumFieldBytes = 512

    /// The record as one line of JSON, with its newline, written by the one encoder (`JSONLine`).
    public func line() throws -> String {
        try JSONLine.encode(self) + "\n"
    }

    /// Reads one line of the report; nil when it is not a record (corrupt, cut, or of another format version).
    public init?(line: Substring) {
        guard let object = (try? JSONDecoder().decode(Stored.self, from: Data(line.utf8))),
              object.v == Self.formatVersion,
              let time = try? Self.timeFormat.parse(object.time),
              let event = Event(rawValue: object.event)
        else { return nil }
        self.init(
            time: time, pid: object.pid, event: event, operation: object.operation, destination: object.destination,
            outcome: object.outcome.flatMap(Outcome.init(rawValue:)), verdict: object.verdict, detail: object.detail,
            answer: object.answer, origin: object.origin)
    }

    private struct Stored: Decodable {
        var v: Int
        var time: String
        var pid: Int32
        var event: String
        var operation: String?
        var destination: String?
        var outcome: String?
        var verdict: String?
        var detail: String?
        var answer: String?
        var origin: String?
    }

    /// UTC with milliseconds: 2026-11-25T15:30:00.123Z.
    static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `text` cut at a character boundary so that it takes at most `maximumFieldBytes` as JSON: six such fields and
    /// the rest keep a record well under 4 KiB, one write(2).
    static func cut(_ text: String) throws -> String {
        // A character takes at most six bytes of JSON for each of its UTF-8 bytes (`\u0000` for one byte).
        guard text.utf8.count * 6 > maximumFieldBytes,
              try JSONLine.encode(text).utf8.count - 2 > maximumFieldBytes
        else { return text }
        var result = ""
        var bytes = 0
        for character in text {
            bytes += try JSONLine.encode(String(character)).utf8.count - 2
            if bytes > maximumFieldBytes { break }
            result.append(character)
        }
        return result
    }
}

extension PrivacyReportEntry: Encodable {
    /// Every key always present (null when it does not apply); the encoder sorts them.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode(Self.formatVersion, forKey: "v")
        try container.encode(Self.timeFormat.format(time), forKey: "time")
        try container.encode(pid, forKey: "pid")
        try container.encode(event.rawValue, forKey: "event")
        try container.encodeOrNull(operation.map(Self.cut), forKey: "operation")
        try container.encodeOrNull(destination.map(Self.cut), forKey: "destination")
        try container.encodeOrNull(outcome?.rawValue, forKey: "outcome")
        try container.encodeOrNull(verdict.map(Self.cut), forKey: "verdict")
        try container.encodeOrNull(detail.map(Self.cut), forKey: "detail")
        try container.encodeOrNull(answer.map(Self.cut), forKey: "answer")
        try container.encodeOrNull(origin.map(Self.cut), forKey: "origin")
    }
}
