import GameClient
import GameProtocol
import Lobby
import TextSupport

extension LobbyEvent {
    /// The line `tictactoe lobby` prints (text from the network escaped: `DisplayText.escaped`); `shownName` is our
    /// own name as the transcript shows it (escaped already).
    public func text(shownName: String) -> String {
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
        case .joined(let group, _): return "Lobby: joined \(group) as \(shownName)"
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
}
