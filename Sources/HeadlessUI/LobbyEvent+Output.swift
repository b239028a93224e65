import GameClient
import GameProtocol
import JSONLines
import Lobby
import TextSupport
import TicTacToeApp

extension LobbyEvent {
    /// The line `tictactoe lobby` prints (text from the network escaped: `DisplayText.escaped`).
    public func text(name: String) -> String {
        func shown(_ text: String) -> String { DisplayText.escaped(text) }
        func hosting(_ member: LobbyRoster.Member) -> String {
            switch member.hosting {
            case .none: return ""
            case .open: return ", hosting a game on port \(member.port)"
            case .private: return ", hosting a private game on port \(member.port)"
            }
        }
        switch self {
        case .waiting(let reason): return "Waiting for local network permission: \(reason)"
        case .joined(let group, _): return "Lobby: joined \(group) as \(shown(name))"
        case .groupState(let state): return "Lobby group: \(state)"
        case .roster(let event):
            switch event {
            case .arrived(let member): return "+ \(shown(member.name)) (\(member.address))\(hosting(member))"
            case .updated(let member):
                return "~ \(shown(member.name)) (\(member.address))\(member.hosting == .none ? ", not hosting" : hosting(member))"
            case .left(let member, let said): return "- \(shown(member.name)) \(said ? "left" : "went silent")"
            case .greeted(_, let name, let address, let text): return "\(shown(name)) (\(address)) says: \(shown(text))"
            case .challenged(_, let name, let address, let port):
                return "\(shown(name)) challenges you to a game at \(Endpoint(host: address, port: Int(port)))"
            case .answered(_, let name, let accepted):
                return "\(shown(name)) \(accepted ? "accepted" : "declined") your challenge"
            case .rateLimited(let address) where address == LobbyRoster.manySources:
                return "Too many messages from many addresses: some are dropped for now"
            case .rateLimited(let address): return "\(address) sends too much: its messages are dropped for now"
            case .rejected(let address, let reason): return "Ignored a message from \(address): \(reason)"
            }
        case .greetingSent(let text): return "You say: \(shown(text))"
        case .challengeSent(let to, let port): return "Challenged \(shown(to)): your game listens on port \(port)"
        case .challengeWaiting(_, let from, let address, let port):
            return "\(shown(from))'s challenge (a game at \(Endpoint(host: address, port: port))) waits for your answer"
        case .challengeDeclined(let from, let why), .challengeClosed(_, let from, let why):
            return "No game with \(shown(from)): \(shown(why))"
        case .challengeAccepted(let from, let address, let port):
            return "Accepted \(shown(from))'s challenge: joining \(Endpoint(host: address, port: port))"
        case .left(let why): return "Left the lobby: \(shown(why))"
        }
    }

    /// The `--json` line (keys sorted; docs/LOBBY.md lists the events).
    /// Throws what `JSONLine.encode` throws.
    public func json() throws -> String { try JSONLine.encode(LobbyEventLine(event: self)) }
}

private struct LobbyEventLine: Encodable {
    var event: LobbyEvent

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        func member(_ member: LobbyRoster.Member, _ name: String) throws {
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
        func challenge(_ name: String, _ id: LobbyMessage.MemberID, _ from: String, _ address: String, _ port: Int) throws {
            try object.encode(name, forKey: "event")
            try object.encode(id.description, forKey: "id")
            try object.encode(from, forKey: "name")
            try object.encode(address, forKey: "address")
            try object.encode(port, forKey: "port")
        }
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
        case .roster(let roster):
            switch roster {
            case .arrived(let value): try member(value, "lobby-arrived")
            case .updated(let value): try member(value, "lobby-updated")
            case .left(let value, let said):
                try member(value, "lobby-left")
                try object.encode(said ? "left" : "silent", forKey: "how")
            case .greeted(let id, let name, let address, let text):
                try object.encode("lobby-greeting", forKey: "event")
                try object.encode(id.description, forKey: "id")
                try object.encode(name, forKey: "name")
                try object.encode(address, forKey: "address")
                try object.encode(text, forKey: "text")
            case .challenged(let id, let name, let address, let port):
                try challenge("lobby-challenged", id, name, address, Int(port))
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
        case .greetingSent(let text):
            try object.encode("lobby-said", forKey: "event")
            try object.encode(text, forKey: "text")
        case .challengeSent(let to, let port):
            try object.encode("lobby-challenge-sent", forKey: "event")
            try object.encode(to, forKey: "name")
            try object.encode(port, forKey: "port")
        case .challengeWaiting(let id, let from, let address, let port):
            try challenge("lobby-challenge-waiting", id, from, address, port)
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
}
