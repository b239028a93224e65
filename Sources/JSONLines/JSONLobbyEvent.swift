import Lobby
import TextSupport

/// A lobby event's fields in a `--json` line (docs/LOBBY.md lists the events). Names, greetings and reasons are
/// written exactly as heard (`JSONLine` escapes control and bidi characters as `\u`).
struct JSONLobbyEvent {
    var event: LobbyEvent

    init(_ event: LobbyEvent) { self.event = event }

    func encode(into object: inout KeyedEncodingContainer<JSONKey>) throws {
        switch event {
        case .waiting(let reason):
            try object.encode("state", forKey: "event")
            try object.encode("waiting", forKey: "state")
            try object.encode(reason, forKey: "reason")
        case .joined(let group, let addresses):
            try object.encode("lobby-joined", forKey: "event")
            try object.encode(group, forKey: "group")
            try object.encode(addresses, forKey: "local")
        case .groupState(let state):
            try object.encode("lobby-group", forKey: "event")
            try object.encode(state, forKey: "state")
        case .roster(let event):
            try Self.encode(event, into: &object)
        case .greetingSent(let text):
            try object.encode("lobby-said", forKey: "event")
            try object.encode(text, forKey: "text")
        case .challengeSent(let to, let port):
            try object.encode("lobby-challenge-sent", forKey: "event")
            try object.encode(to, forKey: "name")
            try object.encode(port, forKey: "port")
        case .challengeWaiting(let id, let from, let address, let port):
            try Self.challenge("lobby-challenge-waiting", id, from, address, port, into: &object)
        case .challengeClosed(let id, let from, let why):
            try object.encode("lobby-no-game", forKey: "event")
            try object.encode(id.description, forKey: "id")
            try object.encode(from, forKey: "name")
            try object.encode(why, forKey: "reason")
        case .challengeDeclined(let from, let why):
            try object.encode("lobby-no-game", forKey: "event")
            try object.encode(from, forKey: "name")
            try object.encode(why, forKey: "reason")
        case .challengeAccepted(let from, let address, let port):
            try object.encode("lobby-accepted", forKey: "event")
            try object.encode(from, forKey: "name")
            try object.encode(address, forKey: "address")
            try object.encode(port, forKey: "port")
        case .left(let why):
            try object.encode("lobby-end", forKey: "event")
            try object.encode(why, forKey: "reason")
        }
    }

    /// Who came, changed, left or spoke in the lobby.
    private static func encode(_ event: LobbyRoster.Event, into object: inout KeyedEncodingContainer<JSONKey>) throws {
        switch event {
        case .arrived(let value): try member(value, "lobby-arrived", into: &object)
        case .updated(let value): try member(value, "lobby-updated", into: &object)
        case .left(let value, let said):
            try member(value, "lobby-left", into: &object)
            try object.encode(said ? "left" : "silent", forKey: "how")
        case .greeted(let id, let name, let address, let text):
            try object.encode("lobby-greeting", forKey: "event")
            try object.encode(id.description, forKey: "id")
            try object.encode(name, forKey: "name")
            try object.encode(address, forKey: "address")
            try object.encode(text, forKey: "text")
        case .challenged(let id, let name, let address, let port):
            try challenge("lobby-challenged", id, name, address, Int(port), into: &object)
        case .answered(let id, let name, let accepted):
            try object.encode("lobby-answer", forKey: "event")
            try object.encode(id.description, forKey: "id")
            try object.encode(name, forKey: "name")
            try object.encode(accepted, forKey: "accepted")
        case .rateLimited(let address):
            try object.encode("lobby-rate-limited", forKey: "event")
            try object.encode(address, forKey: "address")
        case .rejected(let address, let reason):
            try object.encode("lobby-rejected", forKey: "event")
            try object.encode(address, forKey: "address")
            try object.encode(reason, forKey: "reason")
        }
    }

    /// A member as the roster knows it: `lobby-arrived`, `lobby-updated`, `lobby-left`.
    private static func member(
        _ member: LobbyRoster.Member, _ name: String, into object: inout KeyedEncodingContainer<JSONKey>
    ) throws {
        try object.encode(name, forKey: "event")
        try object.encode(member.id.description, forKey: "id")
        try object.encode(member.name, forKey: "name")
        try object.encode(member.address, forKey: "address")
        try object.encode(member.hosting == .none ? "no" : (member.hosting == .open ? "open" : "private"),
                          forKey: "hosting")
        try object.encodeOrNull(member.hosting == .none ? nil : Int(member.port), forKey: "port")
        try object.encode(Int(member.protocolVersion), forKey: "protocol")
    }

    /// A challenge to us: heard, or waiting for the person's answer.
    private static func challenge(
        _ name: String, _ id: LobbyMessage.MemberID, _ from: String, _ address: String, _ port: Int,
        into object: inout KeyedEncodingContainer<JSONKey>
    ) throws {
        try object.encode(name, forKey: "event")
        try object.encode(id.description, forKey: "id")
        try object.encode(from, forKey: "name")
        try object.encode(address, forKey: "address")
        try object.encode(port, forKey: "port")
    }
}
